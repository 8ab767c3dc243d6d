// Issue 9 A.1: `[^…]` in a glob. bash and busybox sh read `[^x]` as "not x", but dash (Debian's
// and Ubuntu's /bin/sh) reads `^` as a plain member: there `.gi[^t]` expands to `.git` and
// `.[^.]` to `..`. Both readings were judged as bash's, so `echo x > .gi[^t]/config` and
// `cat .[^.]/etc/passwd` were auto-approved. A pattern now counts as what either reading matches.
import { ISSUE9, ISSUE9_AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';

const SCOPE = ask('ceiling_path_scope');
const PROTECTED = ask('protected_file_write');

runCases('RN-075 issue 9 A.1 `[^.]` is `..` in dash: outside the scope', ISSUE9, [
  c('cat .[^.]/secret.txt', SCOPE),
  c('ls .[^.]', SCOPE),
  c('cat src/.[^.]/.[^.]/x', SCOPE),
  c('cat .[^^.]/x', SCOPE, { note: 'dash: a set of ^ and .' }),
  c('cat -n .[^.]/etc/passwd', SCOPE),
  c('cd .[^.] && cat x', SCOPE),
  c('cat .[^a]/x', SCOPE, { note: 'bash: not a, so .' }),
]);

runCases('issue 9 A.1 `[^x]` may be x (dash): a protected target', ISSUE9, [
  c('echo x > .gi[^t]/config', PROTECTED),
  c('echo x >> .g[^i]t/config', PROTECTED),
  c('echo x > .[^g]it/hooks/pre-commit', PROTECTED),
  c('echo x > .gi[^t]/hooks/pre-push', PROTECTED),
  c('echo x > [^p]ermissions.json', PROTECTED),
  c('echo x > permissions[^.]json', PROTECTED),
  c('echo x > permissions.jso[^n]', PROTECTED),
  c('echo x > .gi[^^t]/config', PROTECTED, { note: 'bash: neither ^ nor t; dash: ^ or t' }),
  c('echo x > .git/co[^n]fig', PROTECTED),
  c('chmod +x .gi[^t]/hooks/pre-commit', PROTECTED),
  c('chmod 600 [^p]ermissions.json', PROTECTED),
]);

runCases('issue 9 A.1 the same `[^x]` targets under auto mode (protected paths are not lifted)', ISSUE9_AUTO, [
  c('echo x > .gi[^t]/config', PROTECTED),
  c('echo x > [^p]ermissions.json', PROTECTED),
  c('cd .gi[^t] && echo x >> config', PROTECTED),
  c('chmod -R 777 .[^.]', PROTECTED, { note: 'dash: .. holds the root' }),
  c('echo x > .[^.]/app/permissions.json', PROTECTED, { note: 'dash: ../app/permissions.json is the root file' }),
]);

runCases('issue 9 A.1 `[^x]` that no reading can turn into a protected name stays allowed', ISSUE9_AUTO, [
  c('echo x > .gi[^t]x/config', auto(), { note: 'five characters cannot be .git' }),
  c('echo x > src/[^a]*.ts', auto()),
  c('echo x > .gi[^a-s]x', auto()),
  c("echo x > '.gi[^t]/config'", auto(), { note: 'quoted: the literal name .gi[^t]' }),
]);

runCases('RN-075 issue 9 A.1 `[^x]` that no reading can turn into `..` stays in scope', ISSUE9, [
  c('cat .[^.]?/x', auto('permissions_allow'), { note: 'three characters cannot be ..' }),
  c('cat src/[^.]*.ts', auto('permissions_allow')),
  c('cat .[^a-z]x/y', auto('permissions_allow')),
]);
