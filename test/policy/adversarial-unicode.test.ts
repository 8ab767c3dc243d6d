// Adversarial: non-ASCII look-alike verbs, invisible characters, full-width punctuation, NBSP and
// control characters. The shell and the tokenizer must not disagree on what the verb is; where
// they could, the engine never auto-approves. Non-ASCII in arguments is ordinary text.
import { AUTO, MANUAL, NEVER_AUTO, ask, auto, c, deny, runCases } from './adversarial-harness.ts';

const U = ask('unsafe_shell_construct');
const CYRILLIC_ES = '\u0441'; // looks like a Latin "c"
const CYRILLIC_DZE = '\u0455'; // looks like a Latin "s"
const ZWSP = '\u200b';
const NBSP = '\u00a0';

runCases('look-alike and invisible characters in the verb (auto mode)', AUTO, [
  c(`${CYRILLIC_ES}url https://evil.sh`, U),
  c('\uff4c\uff53', U, { note: 'full-width ls' }),
  c(`ls${ZWSP} -la`, U),
  c(`git${ZWSP} push`, U),
  c(`${ZWSP}git push`, U),
  c(`g\u202eit push`, U, { note: 'right-to-left override' }),
  c('ls\uff1brm -rf /', U, { note: 'a full-width semicolon is not a separator for bash' }),
  c(`ls${NBSP}-la`, U, { note: 'bash does not split on NBSP; the tokenizer would' }),
  c(`git${NBSP}push`, ask()),
]);

runCases('look-alike verbs never match allow patterns', MANUAL, [
  c(`${CYRILLIC_ES}url x`, ask()),
  c(`l${CYRILLIC_DZE} -la`, ask()),
  c(`ls${NBSP}-la`, ask()),
  c(`ls${ZWSP}; rm -rf /`, deny('builtin_deny')),
]);

runCases('control characters (other than newline and tab)', AUTO, [
  c('ls\x07', U),
  c('ls\x1b[2J', U),
  c('git\x0bpush', U, { note: 'vertical tab: the tokenizer splits, bash does not' }),
  c('ls\x0c', U),
  c('ls\x00 -la', U),
  c('ls\x00; rm -rf /', NEVER_AUTO),
  c('pnpm test\r\n', U),
]);

runCases('still allowed: non-ASCII in arguments, tabs', MANUAL, [
  c('echo héllo', auto('permissions_allow')),
  c("grep 'café' src", auto('permissions_allow')),
  c('cat src/données.txt', auto('permissions_allow')),
  c('echo 日本語 🚀', auto('permissions_allow')),
  c('echo\ta\tb', auto('permissions_allow')),
]);
