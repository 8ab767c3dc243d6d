// Issue 9 A.5 (arguments from stdin), found while mutation-testing input-arguments.ts: GNU
// parallel appends the words after `:::` to its command, one input source after another. In
// auto mode (RN-603 lifts the path scope) with `Terminal(parallel:*)`, `parallel sort ::: -o ::::
// list` was auto-approved as a reader (`sort` alone only reads), yet parallel runs `sort -o LINE`
// for each line of `list`: with permissions.json in that list, sort rewrites the deny list. The
// command's words and the `:::` words together must only read.
import { AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';

const SETUP = {
  ...AUTO,
  label: 'auto mode, parallel allowed',
  permissions: { ...AUTO.permissions, allow: [...AUTO.permissions.allow, 'Terminal(parallel:*)'] },
};
const WRITES = ask('protected_file_write');

runCases('issue 9 A.5 a writing option among the ::: words makes the fed command a writer', SETUP, [
  c('parallel sort ::: -o :::: list', WRITES),
  c('parallel sort -u ::: -o :::: list', WRITES),
  c('parallel sort ::: -uo :::: list', WRITES, { note: 'in a cluster' }),
  c('parallel sort ::: --output :::: list', WRITES),
  c('parallel -a list sort ::: -o', WRITES),
  c('parallel --arg-file list sort ::: -o', WRITES),
  c('parallel --arg-file=list sort -u ::: -o', WRITES),
  c('parallel sort ::: -u ::: -o :::: list', WRITES, { note: 'in a later ::: group' }),
  c('parallel tree ::: -o :::: list', WRITES),
  c('parallel find ::: -fprint :::: list', WRITES),
  c('parallel git log ::: --output :::: list', WRITES),
  c('parallel -a list git diff ::: --output', WRITES),
  c('parallel git ::: log :::: list', WRITES, { note: 'git alone is no reader; the ::: word does not make it one' }),
  // The lines of list are appended too and may be any option (adversarial-unknown-options).
  c('parallel sort ::: -u :::: list', WRITES),
  c('parallel git log ::: --oneline :::: list', WRITES),
]);

runCases('issue 9 A.5 readers none of whose options writes stay approved', SETUP, [
  c('parallel cat ::: -n :::: list', auto('permissions_allow')),
  c('parallel -a list grep ::: -l', auto('permissions_allow')),
  c('parallel wc ::: -l :::: list', auto('permissions_allow')),
]);
