// Issue 9 A.3 / A.5, found while mutation-testing read-only.ts and input-arguments.ts: sort, tree,
// find and git log are readers unless a writing option is present (`sort -o`, `tree -o`, `find
// -fprint`, `git log --output`), and the engine looked for that option only among the words it
// could read. In auto mode (RN-603 lifts the path scope) with the reader allowed, `sort $OPTS f`
// and `cat list | xargs sort -u` were auto-approved: $OPTS, or a line of list, may be
// `-o permissions.json`, and sort then rewrites the deny list. A word nobody knows yet (an
// expansion, or what xargs and parallel append from their input) may be any option.
import { AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';

const SETUP = {
  ...AUTO,
  label: 'auto mode, readers and xargs allowed',
  permissions: {
    ...AUTO.permissions,
    allow: [
      ...AUTO.permissions.allow,
      ...['sort:*', 'tree:*', 'xargs:*', 'parallel:*', 'git log:*', 'git diff:*', 'wc:*'].map((p) => `Terminal(${p})`),
    ],
  },
};
const WRITES = ask('protected_file_write');

runCases('issue 9 A.3 an expansion may be a writing option of a reader', SETUP, [
  c('sort $OPTS f', WRITES),
  c('sort -u "$@"', WRITES),
  c('sort -u f ${EXTRA}', WRITES),
  c('tree $T', WRITES),
  c('find . $E', WRITES),
  c('find . -name x $ACTION', WRITES),
  c('git log $X', WRITES),
  c('git diff "$@"', WRITES),
]);

runCases('issue 9 A.5 the words xargs and parallel append may be a writing option', SETUP, [
  c('cat list | xargs sort -u', WRITES),
  c('xargs -a list sort', WRITES),
  c('find . -print0 | xargs -0 git log', WRITES),
  c('cat list | xargs tree', WRITES),
  c('cat list | xargs find .', WRITES),
  c('cat list | parallel sort -u', WRITES),
  c('parallel -a list git diff', WRITES),
]);

runCases('issue 9 A.3 readers none of whose options writes, and known words, stay approved', SETUP, [
  c('cat $F', auto('permissions_allow')),
  c('sort -u f', auto('permissions_allow')),
  c('git log -p', auto('permissions_allow')),
  c('cat list | xargs cat', auto('permissions_allow')),
  c('cat list | xargs wc -l', auto('permissions_allow')),
]);
