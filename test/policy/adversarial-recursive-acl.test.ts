// Issue 9 A.3: setfacl and chattr on a folder holding the protected paths. scope.ts treats both
// as mode changers, like chmod (`chmod -R a-w .` and `chmod 000 .git` ask), but it looked for
// what they change among write-targets.ts's targets, which does not list them: so
// `setfacl -R -m u:nobody:rwx .` (others may write .git/hooks) and `chattr -R +i .` (git can no
// longer write its own files) were auto-approved in auto mode. Their operands now count.
import { ISSUE9_AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';

const PROTECTED = ask('protected_file_write');

runCases('issue 9 A.3 setfacl and chattr on the root or above it, or a .git folder', ISSUE9_AUTO, [
  c('setfacl -R -m u:nobody:rwx .', PROTECTED),
  c('setfacl --recursive -x u:x .', PROTECTED),
  c('setfacl -R -b .', PROTECTED),
  c('setfacl -R -m u:x:rwx ..', PROTECTED),
  c('setfacl -R -m u:x:rwx *', PROTECTED, { note: '* could be .git' }),
  c('sudo setfacl -R -m u:x:rwx .', PROTECTED),
  c('chattr -R +i .', PROTECTED),
  c('chattr +i .', PROTECTED, { note: 'like chmod 000 .: the folder itself' }),
  c('chattr -R -i .', PROTECTED),
  c('/usr/bin/chattr -R +i .', PROTECTED),
  c('chattr -R +i sub/..', PROTECTED),
  c('chattr -R +i .gi?', PROTECTED),
]);

runCases('issue 9 A.3 setfacl and chattr on other files and folders stay allowed', ISSUE9_AUTO, [
  c('setfacl -R -m u:x:rwx ./sub', auto()),
  c('setfacl -m u:x:r README.md', auto()),
  c('chattr -R +i build', auto()),
  c('chattr +i notes.txt', auto()),
]);
