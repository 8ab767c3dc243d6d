// Path scope and protected names, word by word (scope.ts; kills mutants Stryker found surviving
// there): which part of an option or a list is read as a path, which redirections name files,
// which verbs change a folder recursively, and which spellings mention a protected path. Each row
// is the decision and the reason a user sees, so the word the reason names is checked too.
import { describe, expect, it } from 'vitest';
import { inputFor, perms, ROOT, term } from './unit-fixtures.ts';
import { decide } from '../../src/policy/index.ts';
import type { Options } from './unit-fixtures.ts';

const VERBS = [
  'ls',
  'cat',
  'echo',
  'rm',
  'chmod',
  '/bin/chmod',
  '/usr/bin/rm',
  'chown',
  'mytool',
  'cd',
  'cp',
  'sudo',
  'env',
];
const ALLOWED: Options = { permissions: perms({ allow: VERBS.map((v) => `Terminal(${v})`) }) };

const allowed = (verb: string): string => `permissions.json: allow Terminal(${verb})`;
const outside = (word: string): string => `ceiling: path scope: ${word} is outside the project folder (RN-075)`;
const protectedFile = (word: string): string => `writes the protected file ${word}; approval required`;

type Row = readonly [command: string, reason: string, where?: { cwd?: string | null; root?: string }];

function rows(title: string, cases: readonly Row[]): void {
  describe(title, () => {
    for (const [command, reason, where] of cases) {
      it(`${JSON.stringify(command)}${where ? ` ${JSON.stringify(where)}` : ''} -> ${reason}`, () => {
        const cwd = where?.cwd === undefined ? ROOT : where.cwd;
        const payload = cwd === null ? { command } : { command, cwd };
        const d =
          where === undefined
            ? term(command, ALLOWED)
            : decide(inputFor('terminal', payload, { ...ALLOWED, root: where.root ?? ROOT }));
        expect(d.reason, command).toBe(reason);
        expect(d.policy, command).toBe(
          reason.startsWith('permissions.json: allow') ? 'auto_approve' : 'require_approval',
        );
      });
    }
  });
}

rows('RN-075 a short option glued to a path: the path starts at ./ after a letter, else at the / or ..', [
  ['ls -a./x', allowed('ls')],
  ['ls -z./x', allowed('ls')],
  ['ls -A./x', allowed('ls')],
  ['ls -Z./x', allowed('ls')],
  ['ls -@./x', outside('-@./x')],
  ['ls -[./x', outside('-[./x')],
  ['ls -_./x', outside('-_./x')],
  ['ls -1./x', outside('-1./x')],
  ['ls -./x', outside('-./x')],
  ['ls -f/x', outside('-f/x')],
  ['ls -f../x', outside('-f../x')],
  ['ls -fa../x', outside('-fa../x')],
  ['ls -f.x/../../y', outside('-f.x/../../y')],
  ['ls -fx/../../y', outside('-fx/../../y')],
  ['ls -fx/y', outside('-fx/y')],
  ['ls -I/usr', outside('-I/usr')],
  ['ls --out=../x', outside('--out=../x')],
  ['ls --out=x/../y', allowed('ls')],
  ['ls x=../y', outside('x=../y')],
  ['ls x=y/z', allowed('ls')],
  ['ls -la', allowed('ls')],
  ['ls ../x', outside('../x')],
]);

rows('RN-075 redirections: files are paths, fd numbers and here-strings are not', [
  ['echo x >&2', allowed('echo')],
  ['echo x >&-', allowed('echo')],
  ['echo x 2>&1', allowed('echo')],
  ['cat 0<&3', allowed('cat')],
  ['echo x >& ../y', outside('../y')],
  ['echo x >&../y', outside('../y')],
  ['echo x >| ../y', outside('../y')],
  ['echo x &>> ../y', outside('../y')],
  ['echo x <> ../y', outside('../y')],
  ['cat < ../y', outside('../y')],
  ['echo x > y', allowed('echo')],
]);

rows('issue 9 A.3 an unknown command naming a .git folder in any part of a word', [
  ['mytool -C.git', protectedFile('-C.git')],
  ['mytool -o.git', protectedFile('-o.git')],
  ['mytool a:.git', protectedFile('a:.git')],
  ['mytool a,.git', protectedFile('a,.git')],
  ['mytool a=.git', protectedFile('a=.git')],
  ['mytool .git', protectedFile('.git')],
  ['mytool x:.GIT', protectedFile('x:.GIT')],
  ['mytool a:b,c', allowed('mytool')],
  ['mytool -C.gitx', allowed('mytool')],
  ['mytool ./.git/hooks', protectedFile('./.git/hooks')],
]);

rows('issue 9 A.3 a protected path mentioned inside a longer word (code handed to a tool)', [
  ["mytool 'x.git//config'", protectedFile('x.git//config')],
  ["mytool 'a/.git/./config'", protectedFile('a/.git/./config')],
  ["mytool 'a/.git\\hooks'", protectedFile('a/.git\\hooks')],
  ["mytool 'a/.GIT/Config'", protectedFile('a/.GIT/Config')],
  ["mytool 'a.git/a.git/hooks'", protectedFile('a.git/a.git/hooks')],
  ["mytool 'PERMISSIONS.JSON'", protectedFile('PERMISSIONS.JSON')],
  ["mytool 'x.gitconfig'", allowed('mytool')],
  ["mytool 'xx.git/xconfig'", allowed('mytool')],
  ["mytool 'xx.git/.config'", allowed('mytool')],
]);

rows('issue 9 A.3 a recursive change of a folder holding protected paths', [
  ['rm -r .git', protectedFile('.git')],
  ['rm -R .git', protectedFile('.git')],
  ['rm -fr .git', protectedFile('.git')],
  ['rm --recursive .git', protectedFile('.git')],
  ['rm -f .', allowed('rm')],
  ['rm --force .', allowed('rm')],
  ['rm --preserve-root .', allowed('rm')],
  ['rm -rf .', protectedFile('.')],
  ['rm -f .git', protectedFile('.git')],
  ['rm --force .git', protectedFile('.git')],
  ['rm -rf ./sub', allowed('rm')],
  ['chmod 000 .git', protectedFile('.git')],
  ['chmod 644 .git', protectedFile('.git')],
  ['/bin/chmod 000 .git', protectedFile('.git')],
  ['/usr/bin/rm -r .git', protectedFile('.git')],
  ['chmod -R a-w .', protectedFile('.')],
  ['chmod -R a-w ./sub', allowed('chmod')],
]);

const GIT_DIR = `${ROOT}/.git`;
rows('RN-075 the working directory and the root: the reason names what is outside', [
  ['ls', outside('(no scope root)'), { root: '' }],
  ['ls', outside('relative/root'), { root: 'relative/root' }],
  ['ls', outside('relative'), { cwd: 'relative' }],
  ['ls', outside('/etc'), { cwd: '/etc' }],
  ['ls', allowed('ls'), { cwd: null }],
  ['ls', allowed('ls'), { cwd: `${ROOT}/sub` }],
  ['cd ../x', outside('cd ../x')],
  ['cd', outside('cd')],
  ['cd sub && ls', 'permissions.json: allow Terminal(cd), Terminal(ls)'],
  ['cd sub > x', allowed('cd')],
  ['ls x/../..', outside('x/../..')],
  ['ls .?/x', outside('.?/x')],
  ['ls "$X"/../y', outside('$X/../y')],
  ['cat ~/x', outside('~/x')],
]);

rows('RN-075 a data word piped into a command that may run or open it is a path', [
  ['echo ../x', allowed('echo')],
  ['echo ../x | cat', 'permissions.json: allow Terminal(echo), Terminal(cat)'],
  ['echo ../x | mytool', outside('../x')],
  ['echo ../x |& mytool', outside('../x')],
  ['echo ../x | cat | mytool', outside('../x')],
]);

rows('issue 9 A.3 writes into protected paths, certain or possible (globs)', [
  ['echo x > .git/config', protectedFile('.git/config')],
  ['echo x 2> .git/config', protectedFile('.git/config')],
  ['echo x >& .git/config', protectedFile('.git/config')],
  ['echo x < .git/config', allowed('echo')],
  ['echo x > .gi?/config', protectedFile('.gi?/config')],
  ['cp a .gi?/config', protectedFile('.gi?/config')],
  ['cp -t .git a', protectedFile('.git')],
  ['cp -t .gi? a', protectedFile('.gi?')],
  ['cp a b .git/hooks', protectedFile('.git/hooks')],
  ['cp a b .gi?/hooks', protectedFile('.gi?/hooks')],
  ['mytool --out=.gi?/config', protectedFile('--out=.gi?/config')],
  ['mytool a:.gi?', protectedFile('a:.gi?')],
]);

rows('issue 9 A.3 inside .git, a plain word may be a protected name', [
  ['ls', allowed('ls'), { cwd: GIT_DIR }],
  ['mytool x', protectedFile('x'), { cwd: GIT_DIR }],
  ['mytool hooks', protectedFile('hooks'), { cwd: GIT_DIR }],
  ['mytool config', protectedFile('config'), { cwd: GIT_DIR }],
  ['mytool x', allowed('mytool'), { cwd: `${ROOT}/sub` }],
]);

rows('issue 9 A.3 a known writer: its targets are writes, its sources reads, its options may write', [
  ["cp '.gi?' .gi?", protectedFile('.gi?')],
  ["cp '.gi?/config' .gi?/config", protectedFile('.gi?/config')],
  ['sudo cp a .gi?/config', protectedFile('.gi?/config')],
  ["env cp a '.git/config'", protectedFile('.git/config')],
  ['cp a .git/config', protectedFile('.git/config')],
  ['cp .git/config b', allowed('cp')],
  ['cp --backup=x .git/config b', allowed('cp')],
  ['cp -S.git b c', protectedFile('-S.git')],
  ['chmod -R a-w .gi?', protectedFile('.gi?')],
  ['chmod -R a-w sub/..', protectedFile('sub/..')],
  ['chmod -R a-w *', protectedFile('*')],
  ['cd sub; chmod -R a-w ..', protectedFile('..')],
]);

rows('issue 9 A.3 outside .git a plain word names nothing protected', [
  ['mytool x', protectedFile('x'), { cwd: `${GIT_DIR}/hooks` }],
  ['ls', allowed('ls'), { cwd: `${GIT_DIR}/hooks` }],
  ['mytool x', allowed('mytool'), { cwd: `${ROOT}/hooks` }],
  ['mytool .x', allowed('mytool')],
  ['mytool a/b', allowed('mytool')],
]);
