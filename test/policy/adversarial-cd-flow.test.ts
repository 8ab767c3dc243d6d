// Issue 9 A.2: a `cd` whose effect is uncertain. After `cd a; …`, `cd a || …`, `cd a | …`,
// `cd a & …` or `( cd a )`, each later fragment is judged in every directory it may run in; all
// the forms of cd count (cd -P/-L/--, command cd, builtin cd, CDPATH=, pushd, popd).
import { AUTO, ISSUE9, ISSUE9_AUTO, NEVER_AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';

const SCOPE = ask('ceiling_path_scope');
const PROTECTED = ask('protected_file_write');

runCases('RN-075 the cd may fail, or not affect what follows: the old directory counts', ISSUE9, [
  c('cd nope || cat ../secret.txt', SCOPE),
  c('cd a; cat ../secret.txt', SCOPE),
  c('cd a\ncat ../secret.txt', SCOPE),
  c('cd a | cat ../secret.txt', SCOPE),
  c('cd a & cat ../secret.txt', SCOPE),
  c('cd -P a; cat ../x', SCOPE),
  c('cd -L a || cat ../x', SCOPE),
  c('cd -- a; cat ../x', SCOPE),
  c('command cd a; cat ../x', SCOPE),
  c('builtin cd a; cat ../x', SCOPE),
  c('pushd a; cat ../x', NEVER_AUTO),
  c('cd a && cd b || cat ../../x', SCOPE, { note: 'cat runs when either cd failed: in the root or in a' }),
  c('cd a && cat x; cat ../y', SCOPE, { note: 'after ; the && chain may have stopped at the cd' }),
  c('( cd a ) ; cat ../x', NEVER_AUTO),
  c('cd a ; cd b ; cat ../../x', SCOPE),
]);

runCases('RN-075 directories nobody can know fail closed', ISSUE9, [
  c('CDPATH=/ cd etc && cat passwd', NEVER_AUTO),
  c('CDPATH=/etc; cd ssh && cat config', NEVER_AUTO),
  c('export CDPATH=/; cd etc && cat passwd', NEVER_AUTO),
  c('cd && cat .bashrc', NEVER_AUTO),
  c('cd - && cat x', NEVER_AUTO),
  c('cd $HOME && cat .bashrc', NEVER_AUTO),
  c('cd ~ && cat .bashrc', NEVER_AUTO),
  c('pushd src && popd && cat x', NEVER_AUTO),
  c('cd a b && cat x', NEVER_AUTO, { note: "zsh's cd old new" }),
  c('eval cd /etc; cat passwd', NEVER_AUTO),
  c('source env.sh; cat x', NEVER_AUTO),
]);

runCases('a certain cd keeps working exactly', ISSUE9, [
  c('cd src && cat ../README.md', auto('permissions_allow')),
  c('cd src && cd lib && cat ../../x', auto('permissions_allow')),
  c('cd src; ls', auto('permissions_allow')),
  c('cd src || ls', auto('permissions_allow')),
  c('cd -P src && cat ../x', auto(), { note: 'cd -P is a cd' }),
  c('cd -- src && ls', auto()),
  c('cd src && cd .. && cat x', auto('permissions_allow')),
  c('cd a; cd ..; cat x', SCOPE, { note: 'when cd a failed, cd .. left the root' }),
  c('cd src', auto()),
  c('cd -P src', auto()),
]);

runCases('cd into .git in any form, then a write: protected (auto mode)', ISSUE9_AUTO, [
  c('cd -P .git && echo x >> config', PROTECTED),
  c('cd -L .git; echo x >> config', PROTECTED),
  c('cd -- .git && echo x > config', PROTECTED),
  c('cd -P -- .git && echo x > config', PROTECTED),
  c('command cd .git && echo x >> config', PROTECTED),
  c('command -p cd .git && echo x >> config', PROTECTED),
  c('builtin cd .git && echo x >> config', PROTECTED),
  c('pushd .git && echo x >> config', PROTECTED),
  c('if cd .git; then echo x >> config; fi', PROTECTED),
  c('time cd .git; echo x >> config', PROTECTED),
  c('cd .git; cd hooks; echo x > pre-commit', PROTECTED),
  c('true | cd .git; echo x >> config', PROTECTED, { note: 'zsh runs the last part of a pipeline in this shell' }),
  c('cd .git & echo x >> config', PROTECTED),
  c('eval cd .git; echo x >> config', PROTECTED),
  c('cd $X && echo x > config', PROTECTED),
  c('CDPATH=. cd .git && echo x >> config', PROTECTED),
  c('cd .git && ls && touch hooks/pre-commit', PROTECTED),
  c('cd .git && git init', PROTECTED, { note: 'a command that is not read-only, run inside .git' }),
]);

runCases('cd into .git and only reading stays allowed (auto mode)', ISSUE9_AUTO, [
  c('cd .git && cat config', auto()),
  c('cd .git/hooks && ls', auto()),
  c('cd .git && cd .. && echo x > notes.txt', auto()),
  c('cd src && echo x > config', auto(), { note: 'src/config is not protected' }),
  c('cd nope || echo x > notes.txt', auto()),
  c('cd a; echo x > b.txt', auto()),
  c('pushd src && ls', auto()),
  c('cd -P src && echo x > config', auto()),
  c('command cd src; echo x > hooks', auto()),
  c('cd .git | echo x > config', auto(), { note: 'echo runs beside the cd, in the root' }),
]);

// After a cd nobody can know, a writer's absolute path made the engine throw (TypeError: the walk
// had no top node), answered as policy_internal_error. It is judged as unknown instead: it asks,
// named, and a read stays as auto mode allows it.
runCases('absolute paths after a cd nobody can know (auto mode)', AUTO, [
  c('cd "$X"; mytool /x', ask('protected_file_write')),
  c('cd "$X"; echo x > /tmp/y', ask('protected_file_write')),
  c('cd "$X" && cp a /tmp/b', ask('protected_file_write')),
  c('cd $X; mv a /tmp/b', ask('protected_file_write')),
  c('cd $X || mv a /tmp/b', auto('agent_autonomy_auto_approve'), {
    note: 'mv runs only where cd failed: the old folder',
  }),
  c('cd "$X"; cat /etc/hostname', auto('agent_autonomy_auto_approve')),
]);
