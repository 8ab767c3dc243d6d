// scope.ts, a third set of rows for mutants Stryker found surviving there: where a word is judged
// from (the working directory inside `.git`, where any relative reading is protected, so the row
// shows exactly which readings of a word are built), which redirect targets are fd numbers, how
// the same word quoted and unquoted is merged, which reason names the first hit when several
// words, redirects or fragments hit, where a list of `cd`s leads, and findProtectedWrite (the
// always-allow check) with and without a root and a working directory. Each row is the decision
// and the reason a user sees.
import { describe, expect, it } from 'vitest';
import { AUTO_MODE, inputFor, perms } from './unit-fixtures.ts';
import { decide } from '../../src/policy/index.ts';
import { analyzeCommand } from '../../src/policy/analysis.ts';
import { findProtectedWrite } from '../../src/policy/scope.ts';
import type { Permissions } from '../../src/policy/index.ts';

const ROOT = '/projects/app';
const GIT_DIR = `${ROOT}/.git`;
const VERBS = ['ls', 'cat', 'echo', 'cp', 'mytool', 'chmod', '/bin/chmod', '/chmod', 'rm', 'cd', 'tee'];
const ALLOWED = perms({
  allow: [...VERBS.map((v) => `Terminal(${v})`), 'Terminal(xargs:*)', 'Terminal(sh:*)', 'Terminal(find:*)'],
});

const AUTO = 'agent_autonomy: auto_approve';
const allowed = (...verbs: string[]): string =>
  `permissions.json: allow ${verbs.map((v) => `Terminal(${v})`).join(', ')}`;
const outside = (word: string): string => `ceiling: path scope: ${word} is outside the project folder (RN-075)`;
const protectedFile = (word: string): string => `writes the protected file ${word}; approval required`;
const couldBe = (word: string): string => protectedFile(`${word} (could name a protected path)`);
const IN_GIT = protectedFile(`${GIT_DIR} (the working directory is inside .git)`);
const DEFAULT = 'no rule: approval required by default';

interface Where {
  cwd?: string;
  root?: string;
  auto?: boolean;
  permissions?: Permissions;
}
type Row = readonly [command: string, reason: string, where?: Where];

function rows(title: string, common: Where, cases: readonly Row[]): void {
  describe(title, () => {
    for (const [command, reason, own] of cases) {
      const where = { ...common, ...own };
      it(`${JSON.stringify(command)} ${JSON.stringify({ ...where, permissions: undefined })} -> ${reason}`, () => {
        const d = decide(
          inputFor(
            'terminal',
            { command, cwd: where.cwd ?? ROOT },
            {
              permissions: where.permissions ?? ALLOWED,
              root: where.root ?? ROOT,
              autonomy: where.auto === true ? AUTO_MODE : null,
            },
          ),
        );
        expect(d.reason, command).toBe(reason);
        const approved = reason === AUTO || reason.startsWith('permissions.json: allow');
        expect(d.policy, command).toBe(approved ? 'auto_approve' : 'require_approval');
      });
    }
  });
}

// Inside `.git` every relative reading of a word is protected: a word whose readings are all
// absolute, empty or `-` names nothing, and the reason is the working directory itself.
rows('issue 9 A.3 RN-075 the readings of an argument, judged inside .git (auto mode)', { cwd: GIT_DIR, auto: true }, [
  ['mytool ~/x', IN_GIT], // an unquoted ~ is the home directory, judged from /
  ["mytool '~/x'", protectedFile('~/x')], // a quoted ~ is a folder named ~ here
  ['mytool /x', IN_GIT], // one reading: the absolute path
  ['mytool /x,', IN_GIT], // an empty list part names nothing
  ['mytool /x,-', IN_GIT], // nor does `-` (standard input)
  ['mytool -x', IN_GIT], // an option with no path in it
  ['mytool --verbose', IN_GIT],
  ['X=1 mytool', protectedFile('X=1')], // the assignment's parts are words, the verb is not
]);

rows('RN-075 issue 9 A.3 redirections to fd numbers write no file (inside .git)', { cwd: GIT_DIR }, [
  ['echo x >&2', allowed('echo')],
  ['echo x >&-', allowed('echo')],
  ['echo x >&0', allowed('echo')],
  ['echo x >&9', allowed('echo')],
  ["echo x > ''", allowed('echo')], // bash refuses an empty file name: nothing is written
  ['echo x >&2x', protectedFile('2x')],
]);

rows('RN-075 issue 9 A.3 words and redirects in the project root', {}, [
  ["cat '~/x'", allowed('cat')], // a folder named ~ in the project, not the home directory
  ['mytool ab.git', allowed('mytool')], // not a glued option: no `.git` in it
  ["mytool a*:'.gi?'", allowed('mytool')], // the quoted ? is literal in the list part too
  ["cp .gi? '.gi?'", protectedFile('.gi?')], // unquoted once: the more dangerous reading is kept
  ['cp sub/permissions.json ../ap?', protectedFile('../ap?/permissions.json')], // ../ap? may be the root
  ['echo x > .git/config; echo y > .git/hooks/pre-commit', protectedFile('.git/config')],
  ['echo x > $X > .git/config', protectedFile('.git/config')], // a possible hit does not hide a certain one
  ['ls ../a ../b', outside('../a')],
  ['cat ../a > ../b', outside('../a')],
  ['echo ../x |', outside('../x')],
  ["sh -c 'echo ../x | mytool'", outside('../x')], // a nested echo may feed a command that opens it
  ['echo a | xargs cat', outside('xargs cat (its arguments come from its input)')],
  ['cd -- ..', outside('cd -- ..')],
  ['find . -exec xargs cat \\;', outside('xargs cat (its arguments come from its input)')],
  [
    'find . -exec npm i -g x \\;',
    outside('npm -g'),
    { permissions: perms({ allow: ['Terminal(find:*)', 'Terminal(npm:*)'] }) },
  ],
  ['cd a || cd b || cd c || cd d || cd e || cd f || cd g || cd h || cd i; ls', outside('(unknown working directory)')],
  ['cd sub > x', DEFAULT, { permissions: perms({ allow: ['Terminal(ls)'] }) }], // not a plain cd: no cd-in-scope
  ['/bin/chmod -R a-w .', protectedFile('.')],
  ['/chmod -R a-w .', protectedFile('.')],
  ['rm --recursive /projects/app', protectedFile('/projects/app')],
]);

rows('issue 9 A.3 code handed to a tool names a protected path in any spelling', {}, [
  ["mytool '.git\\hooks'", protectedFile('.git\\hooks')],
  ["mytool 'x.git\\./config'", protectedFile('x.git\\./config')],
  ["mytool 'x.git/a/config'", allowed('mytool')],
]);

rows('issue 9 A.3 protected paths in auto mode (the scope is lifted, they are not)', { auto: true }, [
  ['echo x > ~/.git/config', protectedFile('~/.git/config')],
  ['echo x > ~/x', allowed('echo')],
  [`cp "$X*" '$X'*`, couldBe('$X*')], // the same word once with an expansion: it could be anything
  [`cp '$X'* "$X*"`, couldBe('$X*')],
  ["cp ~/'.gi?' '~'/.gi?", protectedFile('~/.gi?')], // the same word once as a glob: it may be .git
  [
    'echo a | xargs mytool',
    protectedFile('xargs mytool (its arguments come from its input and could name a protected path)'),
  ],
  ['chmod -R a-w $X', protectedFile('$X (could hold a protected path)')],
  ['mytool x', couldBe('x'), { root: '' }], // no root: nothing is known about any path
  ['mytool .git/x > -o', protectedFile('.git/x')], // a redirect to a file named -o hides no argument
  ['cd $X; mytool', allowed('cd', 'mytool')], // an unknown directory, no word to judge in it
]);

rows('RN-075 a cd is cd-in-scope only when it runs in and leads into the project (auto mode)', { auto: true }, [
  [
    'cd /tmp || true; cd /projects/app/sub',
    AUTO,
    { permissions: perms({ allow: ['Terminal(cd /tmp)', 'Terminal(true)'] }) },
  ],
  ['cd sub || true; cd ..', AUTO, { permissions: perms({ allow: ['Terminal(true)'] }) }],
  ['cd sub || true; cd sub', allowed('true'), { permissions: perms({ allow: ['Terminal(true)'] }) }],
]);

describe('issue 9 A.3 findProtectedWrite: as written without a root or a cwd, else in the cwd', () => {
  const found = (command: string, cwd: string | null, root: string): string | null =>
    findProtectedWrite(analyzeCommand(command), cwd, root);
  it('no root, no cwd: paths are read from /', () => {
    expect(found('mytool x', null, '')).toBeNull();
    expect(found('mytool .git/x', null, '')).toBe('.git/x');
  });
  it('a cwd but no root: still as written', () => expect(found('mytool x', ROOT, '')).toBeNull());
  it('a root but no cwd: still as written', () => expect(found('mytool x', null, ROOT)).toBeNull());
  it('a root and a cwd inside .git: a plain word there is protected', () =>
    expect(found('mytool x', GIT_DIR, ROOT)).toBe('x'));
});
