// Issue 9 A.1: classes inside a bracket. dash has `[:alpha:]` but not `[=a=]` nor `[.a.]`: there
// `[[=i=]` is the set of `[`, `=` and `i`, so `.g[[=i=]t` expands to `.git` (bash reads the same
// word as an unclosed bracket). And past eight classes the matcher stopped reading the word, so
// `.g[` + nine `[:alpha:]` + `]t` was judged as `.g` plus one character. Both were auto-approved.
import { ISSUE9, ISSUE9_AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';

const SCOPE = ask('ceiling_path_scope');
const PROTECTED = ask('protected_file_write');
const NINE_CLASSES = `[${'[:alpha:]'.repeat(9)}]`;

runCases('issue 9 A.1 `[[=x=]` and `[[.x.]` are sets in dash: a protected target', ISSUE9, [
  c('echo x > .g[[=i=]t/config', PROTECTED),
  c('echo x > .g[[.i.]t/config', PROTECTED),
  c('echo x > .g[[=i=]t/hooks/pre-commit', PROTECTED),
  c('echo x >> .gi[[.t.]/config', PROTECTED),
  c('echo x > [[=p=]ermissions.json', PROTECTED),
  c('echo x > permissions.jso[[=n=]', PROTECTED),
  c('chmod +x .gi[[=t=]/hooks/pre-commit', PROTECTED),
  c('chmod 600 [[.p.]ermissions.json', PROTECTED),
]);

runCases('RN-075 issue 9 A.1 `[[=.=]` is a set holding `.` in dash: `..`, outside the scope', ISSUE9, [
  c('cat .[[=.=]/secret.txt', SCOPE),
  c('cat .[[...]/secret.txt', SCOPE),
  c('ls src/.[[=.=]/.[[=.=]', SCOPE),
]);

runCases('issue 9 A.1 a bracket with more than eight classes may be followed by anything', ISSUE9, [
  c(`echo x > .g${NINE_CLASSES}t/config`, PROTECTED),
  c(`echo x > .gi${NINE_CLASSES}/config`, PROTECTED),
  c(`echo x > permission${NINE_CLASSES}.json`, PROTECTED),
  c(`chmod 600 ${NINE_CLASSES}ermissions.json`, SCOPE, { note: 'one character and anything after it could be ..' }),
  c(`cat .${NINE_CLASSES}/x`, SCOPE),
]);

runCases('issue 9 A.1 the same class targets under auto mode', ISSUE9_AUTO, [
  c('echo x > .g[[=i=]t/config', PROTECTED),
  c(`echo x > .g${NINE_CLASSES}t/config`, PROTECTED),
  c('echo x > .[[=.=]/app/permissions.json', PROTECTED, { note: 'dash: ../app/permissions.json is the root file' }),
]);

runCases('issue 9 A.1 class brackets that no reading can turn into a protected name stay allowed', ISSUE9_AUTO, [
  c('echo x > .g[[=i=]]x/config', auto(), { note: 'bash: .gix; dash: five characters' }),
  c('echo x > .g[[:alpha:]it/config', auto(), {
    note: 'shells: an unclosed [ is literal, .g[ and one of :alph, then it',
  }),
  c(`echo x > x${NINE_CLASSES}.txt`, auto()),
]);
