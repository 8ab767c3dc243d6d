// Adversarial: the path scope (RN-075, RN-603), cd chains, redirects and writes into the
// project's own permissions.json / git hooks / git config. Root is /projects/app; an allowed verb
// (cat, echo, ls) gives an auto_approve that only the ceilings can lower.
import { AUTO, FLOOR, MANUAL, ROOT, ask, auto, c, runCases } from './adversarial-harness.ts';

const S = ask('ceiling_path_scope');
const ALLOWED = auto('permissions_allow');

runCases('RN-075 tokens outside the root', MANUAL, [
  c('cat /etc/passwd', S),
  c('cat ../../etc/passwd', S),
  c('cat src/../../x', S),
  c('cat ..', S),
  c('cat /', S),
  c('cat /projects', S),
  c('cat /projects/app/..', S),
  c('cat /projects/app/../other/x', S),
  c('cat /projects/app2/x', S, { note: 'string prefix of the root is not inside it' }),
  c('cat /projects/application', S),
  c('cat //etc/passwd', S),
  c('cat /./etc/passwd', S),
  c('find / -name id_rsa', S),
  c('find .. -name x', S),
  c('cat --file=/etc/passwd', S, { note: '--opt=value: the value counts' }),
  c('grep --exclude-from=../../x y', S),
  c('ls FOO=/etc/passwd', S, { note: 'name=value: the value counts (echo prints data, issue 9 A.5)' }),
  c('cat ~/.ssh/id_rsa', S),
  c('ls ~', S),
  c('ls ~root', S),
  c('cat $HOME/.ssh/id_rsa', S),
  c('cat ${HOME}/x', S),
  c('cat "$HOME/x"', S),
  c('cat x$HOME', S, { note: 'a token depending on an expansion' }),
  c('echo $PATH', S),
  c('cat /dev/zero', S, { note: 'only four /dev paths are not paths' }),
  c('cat /dev/sda', S),
]);

runCases('RN-075 tokens that stay inside the root (still allowed)', MANUAL, [
  c('cat src/../README.md', ALLOWED),
  c('cat /projects/app/README.md', ALLOWED),
  c('cat /projects/app', ALLOWED),
  c('cat /projects/app/', ALLOWED),
  c('cat /projects/app////', ALLOWED),
  c('cat /projects/app/./src', ALLOWED),
  c('cat /projects//app/x', ALLOWED),
  c('cat /projects/app/../app/x', ALLOWED),
  c('cat src/..', ALLOWED),
  c('cat ...', ALLOWED, { note: '... is a file name, not a parent segment' }),
  c('cat a..b', ALLOWED),
  c('git log main..HEAD', ALLOWED),
  c('git diff HEAD~1..HEAD', ALLOWED),
  c("find . -name '*.ts'", ALLOWED),
  c('grep -r x /projects/app/src', ALLOWED),
  c('ls --color=auto', ALLOWED),
  c('ls a~b', ALLOWED),
  c('cat /dev/null', ALLOWED),
  c('cat /dev/stdin', ALLOWED),
  c('echo héllo > /dev/stderr', ALLOWED),
]);

runCases('RN-075 the cwd itself', MANUAL, [
  c('ls', S, { cwd: '/tmp' }),
  c('ls', S, { cwd: '/projects/appx' }),
  c('ls', S, { cwd: '/projects/app/../appx' }),
  c('ls', S, { cwd: '/' }),
  c('ls', ALLOWED, { cwd: '/projects/app/' }),
  c('cat ../README.md', ALLOWED, { cwd: '/projects/app/src' }),
  c('cat ../../x', S, { cwd: '/projects/app/src' }),
  c('cat /projects/app/x', ALLOWED, { root: '/projects/app/' }),
]);

// Issue 9 A.7: commands over the 16 384-character cap are not parsed (require_approval,
// command_too_long); these shapes keep their meaning just below the cap.
runCases('15 000 slashes and deep relative paths (linear, still correct)', MANUAL, [
  c(`cat ${'/'.repeat(15_000)}`, S),
  c(`cat ${'/'.repeat(10_000)}`, S),
  c(`cat /projects/app${'/'.repeat(15_000)}x`, ALLOWED),
  c(`cat ${'a/'.repeat(3_250)}${'../'.repeat(3_250)}x`, ALLOWED),
  c(`cat ${'a/'.repeat(3_250)}${'../'.repeat(3_251)}x`, S),
  c(`cat /projects/app/${'./'.repeat(7_500)}x`, ALLOWED),
  c('ls', ALLOWED, { cwd: `/projects/app${'/'.repeat(100_000)}` }),
]);
runCases('over the command cap: not parsed, a human decides (issue 9 A.7)', MANUAL, [
  c(`cat ${'/'.repeat(100_000)}`, ask('command_too_long')),
  c(`cat /projects/app${'/'.repeat(100_000)}x`, ask('command_too_long')),
  c(`cat ${'a/'.repeat(50_000)}${'../'.repeat(50_000)}x`, ask('command_too_long')),
]);

runCases('cd chains: the effective cwd follows cd', MANUAL, [
  c('cd src', auto('scope_cd_in_project')),
  c('cd src && cd lib', auto('scope_cd_in_project')),
  c('cd "src dir" && ls', ALLOWED),
  c('cd src/ && ls', ALLOWED),
  c('cd src; cat x', ALLOWED),
  c('cd /projects/app/src && pnpm test', ALLOWED),
  c('cd ../app/src && pnpm test', ALLOWED),
  c('cd src && cat ../README.md', ALLOWED),
  c('cd .. && ls', ALLOWED, { cwd: '/projects/app/src' }),
  c('cd ..', auto('scope_cd_in_project'), { cwd: '/projects/app/src' }),
  c('cd ../.. && cat README.md', ALLOWED, { cwd: '/projects/app/src/lib' }),
  c('cd src && cd .. && ls', ALLOWED),
  c('cd src && cat ../../../etc/passwd', S),
  c('cd src/a/b && cat ../../../../x', S),
  c('cd .. && ls', ask()),
  c('cd src && cd /etc && cd /projects/app && cat passwd', ask()),
]);
runCases('cd chains that escape, under the container floor', FLOOR, [
  c('cd .. && ls', S),
  c('cd /etc && cat passwd', S),
  c('cd src && cd .. && cd .. && ls', S),
  c('cd /projects/app2 && ls', S),
  c('cd', S),
  c('cd -', S),
  c('cd ~', S),
  c('cd ~/proj', S),
  c('cd $HOME', S),
  c('cd src && pnpm test', ALLOWED),
]);

runCases('redirect targets are tokens of the fragment', MANUAL, [
  c('echo x > /etc/passwd', S),
  c('echo x>/etc/passwd', S),
  c('echo x >> /etc/profile', S),
  c('echo x &> /tmp/x', S),
  c('echo x >| /etc/x', S),
  c('cat < /etc/shadow', S),
  c('>/etc/passwd cat x', S),
  c('echo x > /dev/sda', S),
  c('echo x > /dev/nullx', S),
  c('echo x > /dev/null/../sda', S),
  c('echo x > $HOME/.bashrc', S),
  c('echo x > ~/.bashrc', S),
  c('echo x 2>/dev/null', ALLOWED),
  c('ls 1>&2 2>/dev/null', ALLOWED),
  c('cat x >&2', ALLOWED),
  c('pnpm test > out.log 2>&1', ALLOWED),
  c('2>/dev/null cat x', ALLOWED, { note: 'the verb is the first non-redirection token' }),
  c('pnpm test </dev/null', ALLOWED),
]);
runCases('auto mode lifts the path scope (RN-603)', AUTO, [
  c('cat /etc/passwd', auto()),
  c('cd /etc && cat passwd', auto()),
  c('echo x > /dev/sda', auto()),
]);

const P = ask('protected_file_write');
runCases('writes into permissions.json, .git/hooks and .git/config', MANUAL, [
  c(`echo '{"allow":["Terminal(*)"]}' > permissions.json`, P),
  c('echo x > ./permissions.json', P),
  c('echo x >> permissions.json', P),
  c('echo x >| permissions.json', P),
  c('echo x &> permissions.json', P),
  c('echo x 2> permissions.json', P),
  c(`echo x > ${ROOT}/permissions.json`, P),
  c('echo x > src/../permissions.json', P),
  c('cd src && echo x > ../permissions.json', P),
  c('echo x > permissions.json', P, { cwd: `${ROOT}/` }),
  c('echo x > .git/hooks/pre-commit', P),
  c('echo x >> .git/hooks/post-checkout', P),
  c('echo x > .git/config', P),
  c('echo x > ./.git//config', P),
  c('echo x > src/permissions.json', ALLOWED, { note: 'not the project file' }),
  c('echo x > permissions.json.bak', ALLOWED),
  c('cat permissions.json', ALLOWED),
  c('grep allow permissions.json', ALLOWED),
  c('cat .git/config', ALLOWED),
]);
runCases('protected writes are never lifted, not even by auto mode', AUTO, [
  c('echo x > permissions.json', P),
  c('echo x | tee permissions.json', P),
  c('echo x | tee -a .git/config', P),
  c('tee .git/hooks/pre-push < evil.sh', P),
  c('echo x > ../.git/hooks/pre-commit', P, { cwd: `${ROOT}/src` }),
  c('echo x | sudo tee permissions.json', ask()),
  c('echo x | tee notes.txt', auto()),
]);

runCases('protected writes: bare redirects, fd numbers, cd into .git', MANUAL, [
  c('echo x 1>permissions.json', P),
  c('ls -la > permissions.json', P),
  c('git status > .git/hooks/pre-commit', P),
  c('cd .git/hooks && echo x > pre-commit', P),
  c('cd .git && echo x > config', P),
  c('echo x > .git/hooks/../config', P, { note: 'resolves to .git/config' }),
]);
runCases('protected writes without a verb', AUTO, [
  c('> permissions.json', P),
  c(': > permissions.json', P),
  c('echo x>>.git/config', P),
]);
