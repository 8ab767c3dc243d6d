// Adversarial (hardening, second half): protected files written by commands and compared
// case-insensitively, glob verbs, paths glued to short options, long cd chains, and the fd
// numbers kept in fragment text. Rows that were auto-approved before the fix, and "still
// allowed" rows so the engine does not turn paranoid.
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import { AUTO, MANUAL, NEVER_AUTO, ROOT, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const P = ask('protected_file_write');
const U = ask('unsafe_shell_construct');
const S = ask('ceiling_path_scope');
// ---------------------------------------------------------------------------------------------
// 5. Protected files: more writers, case-insensitive names.
runCases('protected files: commands that write, move, link or delete them', AUTO, [
  c('cp evil.json permissions.json', P),
  c('cp -f /tmp/p.json ./permissions.json', P),
  c('cp x/permissions.json .', P, { note: 'lands in the root under its own name' }),
  c(`cp x/permissions.json ${ROOT}/`, P),
  c('mv evil.json permissions.json', P),
  c('mv permissions.json old.json', P, { note: 'deleting it and writing a new one loosens the rules' }),
  c('install -m 644 evil.json permissions.json', P),
  c('install -m 755 hook .git/hooks/pre-commit', P),
  c('ln -sf /tmp/evil .git/hooks/pre-push', P),
  c('ln -s /tmp/p.json permissions.json', P),
  c('rsync -a evil.json permissions.json', P),
  c('rsync -a evil/ .git/hooks/', P),
  c('rsync -a evil/ .git/', P, { note: 'a whole .git folder brings its hooks' }),
  c('cp -r evil-hooks/hooks .git', P),
  c('cp -r evil/.git .', P),
  c('cp -t .git/hooks pre-commit', P),
  c('cp --target-directory=.git/hooks pre-commit', P),
  c('dd if=evil of=.git/config', P),
  c('dd if=/dev/zero of=permissions.json count=0', P),
  c('sed -i s/deny/allow/ permissions.json', P),
  c("sed -i.bak -e 's/a/b/' .git/config", P),
  c('sed --in-place s/a/b/ .git/config', P),
  c("sed -Ei 's/a/b/' permissions.json", P),
  c("perl -pi -e 's/deny/allow/' permissions.json", P),
  c("perl -i.bak -pe 's/a/b/' .git/config", P),
  c('truncate -s 0 permissions.json', P),
  c('chmod +x .git/hooks/pre-commit', P),
  c('chmod 666 permissions.json', P),
  c('touch .git/hooks/post-checkout', P),
  c('rm permissions.json', P),
  c('rm -f .git/config', P),
  c('rm -rf .git/hooks', P),
  c('unlink permissions.json', P),
  c('cd .git && cp /tmp/evil hooks/pre-commit', P),
  c('sudo cp evil permissions.json', ask()),
  c("sh -c 'cp evil permissions.json'", P),
  c('xargs rm -f permissions.json', P),
  c('find . -name x -exec cp {} .git/hooks/pre-commit \\;', P),
]);
runCases('find writes its report into -fprint / -fls files', AUTO, [
  c('find . -fprint permissions.json', P),
  c('find . -name x -fprintf .git/hooks/pre-commit %p', P),
  c('find . -fls .git/config', P),
  c('find . -fprint out.txt', auto()),
]);
runCases('protected files: names are compared case-insensitively', AUTO, [
  c('echo x > PERMISSIONS.json', P),
  c('echo x > Permissions.JSON', P),
  c('echo x >> .GIT/config', P),
  c('echo x > .git/CONFIG', P),
  c('echo x > .Git/Hooks/pre-commit', P),
  c('echo x | tee PERMISSIONS.JSON', P),
  c('cp evil .GIT/HOOKS/pre-push', P),
  c('touch .Git/Config', P),
]);
runCases('protected files: reading them and writing elsewhere stays fine', MANUAL, [
  c('cat permissions.json', auto('permissions_allow')),
  c('cat PERMISSIONS.json', auto('permissions_allow')),
  c('grep deny permissions.json', auto('permissions_allow')),
  c('cat .git/config', auto('permissions_allow')),
  c('ls .git/hooks', auto('permissions_allow')),
  c('head -n 5 .git/HOOKS/pre-commit.sample', auto('permissions_allow')),
]);
runCases('protected files: copies out of them and other writes stay fine', AUTO, [
  c('cp .git/config backup.cfg', auto()),
  c('cp permissions.json /tmp/x', auto(), { note: 'auto mode lifts the path scope' }),
  c('cp src/a.ts src/b.ts', auto()),
  c('mv src/permissions.json src/p.json', auto(), { note: 'not the project file' }),
  c('rm -f dist/config', auto()),
  c('sed s/a/b/ .git/config', auto(), { note: 'no -i: it only prints' }),
  c('sed -n 1p permissions.json', auto()),
  c('perl -ne print permissions.json', auto()),
  c('touch src/new.ts', auto()),
  c('chmod +x scripts/build.sh', auto()),
  c('dd if=permissions.json of=/tmp/copy', auto()),
  c('ln -s src/config config', auto()),
]);

// ---------------------------------------------------------------------------------------------
// 6. A glob in the command name: the shell decides what runs.
runCases('a glob in the verb is an unsafe construct', AUTO, [
  c('/usr/bin/g?t push', U),
  c('gi[t] push', U),
  c('g* push', U),
  c('* push', U),
  c('/usr/*/git status', U),
  c('ls && g?t status', U),
  c('sudo g?t push', U),
  c('env FOO=1 gi[t] status', U),
  c("sh -c 'g?t push'", U),
  c('find . -exec g?t push \\;', U),
]);
runCases('globs in arguments and [ … ] tests stay fine', AUTO, [
  c('ls *.ts', auto()),
  c('[ -f x ] && ls', auto()),
  c('[[ -f x ]]', auto()),
  c('FOO=*.ts ls', auto(), { note: 'an assignment is not the verb' }),
  c("grep -r 'a?b' src", auto()),
]);

// ---------------------------------------------------------------------------------------------
// 7. A path glued to a short option is a path for the scope.
runCases('RN-075 paths glued to short options', MANUAL, [
  c('grep -f/etc/passwd x', S),
  c('grep -f../../etc/passwd x', S),
  c('cc -I/usr/include x.c', NEVER_AUTO),
  c('grep -I/usr/include x src', S),
  c('grep -f$FILE x', S, { note: 'an expansion glued to an option' }),
  c('grep -e${PATTERN} src', S),
  c('grep -f./patterns.txt src', auto('permissions_allow')),
  c(`grep -f${ROOT}/patterns.txt src`, auto('permissions_allow')),
  c('grep -n x src', auto('permissions_allow')),
  c('ls -la', auto('permissions_allow')),
  c('grep -f/dev/stdin x', auto('permissions_allow'), { note: 'a stream device is not a path' }),
]);

// ---------------------------------------------------------------------------------------------
// 1. Long cd chains: the effective cwd follows every cd (correctness; speed is in bench/).
const chain = (n: number): string => Array.from({ length: n }, () => 'cd sub').join(' && ');
runCases('RN-075 long cd chains are followed exactly', MANUAL, [
  c(`${chain(1200)} && cat x.ts`, auto('permissions_allow')),
  c(`${chain(1200)} && cat ${'../'.repeat(1200)}x.ts`, auto('permissions_allow')),
  c(`${chain(1200)} && cat ${'../'.repeat(1201)}x.ts`, S),
  c(`${chain(1200)} && cd ${'../'.repeat(1201)} && ls`, ask(), { note: 'a cd outside the root is not cd-in-scope' }),
  c(`${chain(700)} && cd /etc && ${chain(700)} && ls`, ask()),
  c(`cd /etc && cd ${ROOT} && ${chain(500)} && ls`, ask()),
  c(`${chain(1000)} && echo x > ${'../'.repeat(1000)}permissions.json`, P),
  c(`${chain(1000)} && echo x > ${'../'.repeat(999)}permissions.json`, auto('permissions_allow')),
]);
runCases('cd into .git then write: protected, however the chain is built', MANUAL, [
  c('cd .git && cd hooks && echo x > pre-commit', P),
  c('cd .GIT/HOOKS && echo x > pre-commit', P),
  c('cd .git/hooks && cd .. && echo x > config', P),
  c('cd .git/hooks && cd ../.. && echo x > notes.txt', auto('permissions_allow')),
]);

// ---------------------------------------------------------------------------------------------
// 8. Fragment text keeps the fd number of a redirection.
describe('fragment text keeps redirection fd numbers (what people read)', () => {
  const textOf = (command: string): string[] =>
    (decide(terminalInput(MANUAL, { command })).fragments ?? []).map((f) => f.text);
  it('pnpm test:unit 2>/dev/null renders with its 2>', () => {
    expect(textOf('pnpm test:unit 2>/dev/null')).toEqual(['pnpm test:unit 2> /dev/null']);
  });
  it('2>&1, 1>, 3<> keep their numbers; plain > stays plain', () => {
    expect(textOf('make 2>&1 1>out.log 3<>f > x')).toEqual(['make 2>& 1 1> out.log 3<> f > x']);
  });
  it('a number that is an argument stays an argument', () => {
    const d = decide(terminalInput(MANUAL, { command: 'echo 2 > x' }));
    expect(d.fragments?.[0]?.text).toBe('echo 2 > x');
  });
  it('the fd number is not a word of the command: 2>/dev/null cat x is still cat', () => {
    expect(decide(terminalInput(MANUAL, { command: '2>/dev/null cat x' })).policy).toBe('auto_approve');
  });
  it('a find -exec entry is marked and follows its find', () => {
    const d = decide(terminalInput(MANUAL, { command: "find . -name '*.ts' -exec grep -l x {} +" }));
    expect(d.fragments?.map((f) => [f.text, f.verdict, f.via])).toEqual([
      ['find . -name \\*.ts -exec grep -l x {} +', 'allow', undefined],
      ['grep -l x {}', 'allow', 'find -exec'],
    ]);
  });
});

// Not changed on purpose: a write through a "read" verb inside the scope is accepted by the spec.
runCases('redirect writes through allowed verbs: inside the scope accepted, outside caught', MANUAL, [
  c('cat /dev/null > src/index.ts', auto('permissions_allow')),
  c('cat /dev/null > /etc/hosts', S),
  c('echo x > ../other/file', S),
  c('grep x src > /tmp/out', S),
]);
