// Issue 9 A.1: globs in paths. dash and busybox sh expand `.?`, `.[.]` and `.*` to `..`, and
// `.gi?` to `.git`: a word with unquoted glob characters is judged by everything it could match.
// Quoted and escaped glob characters are literal.
import { ISSUE9, ISSUE9_AUTO, NEVER_AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';

const SCOPE = ask('ceiling_path_scope');
const PROTECTED = ask('protected_file_write');

runCases('RN-075 a glob component that could match .. is outside the scope', ISSUE9, [
  c('cat .?/secret.txt', SCOPE),
  c('cat .*/secret.txt', SCOPE),
  c('cat .[.]/secret.txt', SCOPE),
  c('cat [.]./secret.txt', SCOPE),
  c('cat .[!a]/secret.txt', SCOPE),
  c('cat .[.a-z]/secret.txt', SCOPE),
  c('ls .?', SCOPE),
  c('cat src/../.?/x', SCOPE),
  c('head -n 1 .*/etc/passwd', NEVER_AUTO),
  c('cat src/.?/.?/x', SCOPE),
  c('cat /projects/ap?/secret', SCOPE, { note: 'a glob above the root may match a sibling of it' }),
  c('cat /projects/*/secret', SCOPE),
  c('ls -la .?/', SCOPE),
  c('cat x .?/y', SCOPE),
]);

runCases('RN-075 globs that cannot reach .. stay in scope; quoted globs are literal', ISSUE9, [
  c('cat .??/x', auto('permissions_allow'), { note: 'three characters cannot be ..' }),
  c('cat */x', auto('permissions_allow'), { note: '* never matches . or ..' }),
  c('cat ?./x', auto('permissions_allow')),
  c('cat src/*.ts', auto('permissions_allow')),
  c("cat '.?/x'", auto('permissions_allow')),
  c('cat ".*/x"', auto('permissions_allow')),
  c('cat .\\?/x', auto('permissions_allow')),
  c('ls src/**/index.ts', auto('permissions_allow')),
  c('cat src/[ab]*.ts', auto('permissions_allow')),
  c('ls [', auto('permissions_allow'), { note: 'an unclosed bracket is literal' }),
]);

runCases('a glob component that could match a protected name is a protected target', ISSUE9, [
  c('echo x > .git/hook?/pre-commit', PROTECTED),
  c('echo x > .gi?/config', PROTECTED),
  c('echo x > .g*/config', PROTECTED),
  c('echo x >> .GIT/CONF*', PROTECTED),
  c('echo x > .git/[h]ooks/pre-commit', PROTECTED),
  c('echo x > .git/[a-z]ooks/x', PROTECTED),
  c('echo x > permission?.json', PROTECTED),
  c('echo x > perm*', PROTECTED),
  c('echo x > [p]ermissions.json', PROTECTED),
  c('echo x > PERMISSIONS.JS?N', PROTECTED),
  c('chmod +x .git/hooks/*', PROTECTED),
  c('chmod +x .git/h*/pre-commit', PROTECTED),
  c('chmod 777 *', PROTECTED, { note: '* could be permissions.json' }),
  c('echo x > .git/*', PROTECTED, { note: 'could be .git/config' }),
]);

runCases('the same protected globs under auto mode', ISSUE9_AUTO, [
  c('echo x > .git/hook?/pre-commit', PROTECTED),
  c('cd .gi? && echo x >> config', PROTECTED),
  c('echo x > .gi?/config', PROTECTED),
  c('chmod +x .gi[t]/hooks/pre-push', PROTECTED),
  c('echo x > perm*.json', PROTECTED),
  c('echo x > .?/app/permissions.json', PROTECTED, {
    note: '.? may be ..: then app/permissions.json is the root file',
  }),
  c('echo x >> .*/config', PROTECTED),
  c('chmod -R 777 .?', PROTECTED),
  c('echo x > src/.?/permissions.json', PROTECTED),
  c('echo x > "$D"/config', PROTECTED, { note: 'an expansion could name anything' }),
]);

runCases('globs that cannot name a protected file stay allowed', ISSUE9_AUTO, [
  c("echo x > '.gi?/config'", auto()),
  c('echo x > .gi\\?/config', auto()),
  c('echo x > *.log', auto()),
  c('chmod +x scripts/*.sh', auto()),
  c('echo x > build/[0-9].txt', auto()),
  c('cat .git/hook?/pre-commit', auto(), { note: 'reading is fine' }),
  c('ls .gi?', auto()),
  c('echo x > .git/hooks.txt', PROTECTED, { note: 'anything written inside .git is protected' }),
  c('echo x > conf.d/*.txt', auto()),
  c('echo x > out-?.json', auto()),
]);
