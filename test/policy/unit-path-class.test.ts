// path-class.ts, the exact classification of a path word in a directory (RN-075, issue 9 A.1,
// A.3): outside the root, protected (`<root>/permissions.json`, `.git/config`, anything in
// `.git/hooks` or inside a `.git` folder), a `.git` folder itself, uncertain (an expansion, an
// unknown directory, a glob that could be `..`), and whether it holds the root (a recursive change
// of it reaches every protected path). The root is /projects/app.
import { describe, expect, it } from 'vitest';
import { DirNode, rootSpec } from '../../src/policy/dir-node.ts';
import { classifyPath } from '../../src/policy/path-class.ts';
import type { PathClass, PathWord } from '../../src/policy/path-class.ts';

const TOP = DirNode.top(rootSpec('/projects/app'));

interface Extra {
  asWritten?: boolean;
  expands?: boolean;
  home?: boolean;
  /** Another root than /projects/app. */
  root?: string;
}
/** text, glob (the tokenizer's form, null for a quoted word), working directory (null: unknown), the flags that hold. */
type Row = readonly [text: string, glob: string | null, cwd: string | null, flags: string, extra?: Extra];

const ROWS: readonly Row[] = [
  // an expansion, an unknown directory (relative path): anything; a stream device: nothing
  ['x', null, '/projects/app', 'outside protected gitFolder uncertain', { expands: true }],
  ['/dev/null', null, '/projects/app', ''],
  ['dev/null', null, '/projects/app', ''],
  ['x', null, null, 'outside protected gitFolder uncertain'],
  // `~`: the home directory is outside, judged as written from there (any permissions.json counts)
  ['~/x', null, '/projects/app', 'outside', { home: true }],
  ['~/.git/config', null, '/projects/app', 'outside protected', { home: true }],
  ['~/permissions.json', null, '/projects/app', 'outside protected', { home: true }],
  ['~/x', null, null, 'outside protected gitFolder uncertain', { home: true }],
  ['~/.gi?/config', '~/.gi?/config', '/projects/app', 'outside protected', { home: true }],
  ['~x', null, '/projects/app', ''],
  ['x', null, '/projects/app', ''],
  // RN-075 relative paths, `.` and `..`, against the root /projects/app
  ['.', null, '/projects/app', 'holdsRoot'],
  ['..', null, '/projects/app', 'outside holdsRoot'],
  ['../app', null, '/projects/app', 'holdsRoot'],
  ['../app/permissions.json', null, '/projects/app', 'protected'],
  ['../appx', null, '/projects/app', 'outside'],
  ['a/..', null, '/projects/app', 'holdsRoot'],
  ['a/../..', null, '/projects/app', 'outside holdsRoot'],
  // absolute paths: the root's own case, a glob above the root may match a sibling of it
  ['/', null, '/projects/app', 'outside holdsRoot'],
  ['/projects', null, '/projects/app', 'outside holdsRoot'],
  ['/projects/app', null, '/projects/app', 'holdsRoot'],
  ['/projects/app/permissions.json', null, '/projects/app', 'protected'],
  ['/projects/permissions.json', null, '/projects/app', 'outside'],
  ['/PROJECTS/app', null, '/projects/app', 'outside holdsRoot'],
  ['/projects/App/permissions.json', null, '/projects/app', 'outside protected'],
  ['/projects/appx', null, '/projects/app', 'outside'],
  ['/projects/ap?/x', '/projects/ap?/x', '/projects/app', 'outside'],
  ['/projects/ap?', '/projects/ap?', '/projects/app', 'outside holdsRoot'],
  ['/projects/ap?/permissions.json', '/projects/ap?/permissions.json', '/projects/app', 'outside protected'],
  ['/projects/x?/permissions.json', '/projects/x?/permissions.json', '/projects/app', 'outside'],
  ['/pro*', '/pro*', '/projects/app', 'outside holdsRoot'],
  ['/x*', '/x*', '/projects/app', 'outside'],
  // permissions.json counts at the root only (anywhere when judged as written)
  ['permissions.json', null, '/projects/app', 'protected'],
  ['PERMISSIONS.JSON', null, '/projects/app', 'protected'],
  ['permissions.json', null, '/projects/app/sub', ''],
  ['permissions.json', null, '/projects/app/sub', 'protected', { asWritten: true }],
  ['../permissions.json', null, '/projects/app/sub', 'protected'],
  ['sub/permissions.json', null, '/projects/app', ''],
  ['perm*', 'perm*', '/projects/app', 'protected'],
  ['perm*', 'perm*', '/projects/app/sub', ''],
  // a .git folder, .git/config, anything in .git/hooks, anything else inside .git
  ['.git', null, '/projects/app', 'gitFolder'],
  ['.GIT', null, '/projects/app', 'gitFolder'],
  ['.git/', null, '/projects/app', 'gitFolder'],
  ['.git/config', null, '/projects/app', 'protected'],
  ['.git/Config', null, '/projects/app', 'protected'],
  ['a/.git/config', null, '/projects/app', 'protected'],
  ['.git/hooks', null, '/projects/app', 'protected'],
  ['.git/hooks/pre-commit', null, '/projects/app', 'protected'],
  ['a/.git/hooks/x', null, '/projects/app', 'protected'],
  ['.git/x', null, '/projects/app', 'protected'],
  ['.git/.git', null, '/projects/app', 'protected gitFolder'],
  ['x/.git', null, '/projects/app', 'gitFolder'],
  ['config', null, '/projects/app', ''],
  ['hooks', null, '/projects/app', ''],
  // the working directory inside .git (a command run there)
  ['config', null, '/projects/app/.git', 'protected'],
  ['hooks/x', null, '/projects/app/.git', 'protected'],
  ['x', null, '/projects/app/.git', 'protected'],
  ['.', null, '/projects/app/.git', 'gitFolder'],
  ['..', null, '/projects/app/.git', 'holdsRoot'],
  ['.', null, '/projects/app/.git/.git', 'protected gitFolder'],
  ['x', null, '/projects/app/.git/hooks', 'protected'],
  ['.', null, '/projects/app/.git/hooks', 'protected'],
  ['config', null, '/projects/app/x/.git', 'protected'],
  ['../.git/config', null, '/projects/app/sub', 'protected'],
  // issue 9 A.1 globs: a component that could be a protected name counts as it; one that could be .. is anything
  ['.gi?', '.gi?', '/projects/app', 'gitFolder'],
  ['.gi?/config', '.gi?/config', '/projects/app', 'protected'],
  ['.gi\\?/config', '.gi\\?/config', '/projects/app', ''],
  ['.git/hook?', '.git/hook?', '/projects/app', 'protected'],
  ['.g*/h*', '.g*/h*', '/projects/app', 'protected'],
  ['*/config', '*/config', '/projects/app', 'protected'],
  ['*/hooks', '*/hooks', '/projects/app', 'protected'],
  ['.?/x', '.?/x', '/projects/app', 'outside protected gitFolder uncertain'],
  ['x/.[.]', 'x/.[.]', '/projects/app', 'outside protected gitFolder uncertain'],
  // working directories at or above the root; one named permissions.json is the file itself
  ['.', null, '/projects/app/permissions.json', 'protected'],
  ['x', null, '/projects/app/permissions.json', ''],
  ['../x', null, '/', 'outside'],
  ['x', null, '/', 'outside'],
  ['projects/app/permissions.json', null, '/', 'protected'],
  ['app/permissions.json', null, '/projects', 'protected'],
  ['ap?/permissions.json', 'ap?/permissions.json', '/projects', 'outside protected'],
  // From the Stryker survivors at e962915 (81.82%). `*` may take a leading dot (bash's dotglob):
  ['*git', '*git', '/projects/app', 'gitFolder'],
  ['*git/config', '*git/config', '/projects/app', 'protected'],
  ['*it/hooks/x', '*it/hooks/x', '/projects/app', 'protected'],
  ['*permissions.json', '*permissions.json', '/projects/app', 'protected'],
  // `.` adds no segment
  ['./permissions.json', null, '/projects/app', 'protected'],
  ['././permissions.json', null, '/projects/app', 'protected'],
  ['./.', null, '/projects/app', 'holdsRoot'],
  ['./.git/./config', null, '/projects/app', 'protected'],
  // a directory off the root's path: the root's names below it are other folders
  ['app/x', null, '/tmp', 'outside'],
  ['app', null, '/tmp', 'outside'],
  ['app/permissions.json', null, '/tmp', 'outside'],
  ['projects/app/permissions.json', null, '/tmp', 'outside'],
  ['.', null, '/projects/other/permissions.json', 'outside'],
  ['.', null, '/projects/App/permissions.json', 'outside protected'],
  ['../../../..', null, '/projects/app', 'outside holdsRoot'],
  // `~` alone, and a `.git` folder in the home
  ['~', null, '/projects/app', 'outside', { home: true }],
  ['~/.git', null, '/projects/app', 'outside gitFolder', { home: true }],
  ['~/../../.git/hooks', null, '/projects/app', 'outside protected', { home: true }],
  // a root whose name holds glob characters: an unquoted one may match its siblings
  ['/srv/a?b/x', '/srv/a?b/x', '/srv/a?b', 'outside', { root: '/srv/a?b' }],
  ['/srv/a?b/x', null, '/srv/a?b', '', { root: '/srv/a?b' }],
  ['x', null, '/srv/a?b', '', { root: '/srv/a?b' }],
  // a root below a dot folder: `*` may match that folder
  [
    '/home/u/*work/app/permissions.json',
    '/home/u/*work/app/permissions.json',
    '/home/u/.work/app',
    'outside protected',
    { root: '/home/u/.work/app' },
  ],
  ['/home/u/*work', '/home/u/*work', '/home/u/.work/app', 'outside holdsRoot', { root: '/home/u/.work/app' }],
  ['/home/u/?work/app', '/home/u/?work/app', '/', 'outside holdsRoot', { root: '/home/u/.work/app' }],
  ['/home/u/.work/app/permissions.json', null, '/', 'protected', { root: '/home/u/.work/app' }],
];

/** The exact result: every flag false but those listed; holdsRoot is present only when it holds. */
function expected(flags: string): PathClass {
  const set = new Set(flags.split(' ').filter((f) => f !== ''));
  const out: PathClass = {
    outside: set.has('outside'),
    protected: set.has('protected'),
    gitFolder: set.has('gitFolder'),
    uncertain: set.has('uncertain'),
  };
  if (set.has('holdsRoot')) out.holdsRoot = true;
  return out;
}

describe('RN-075 issue 9 A.1 A.3 classifyPath: the exact class of a path word', () => {
  for (const [text, glob, cwd, flags, extra = {}] of ROWS) {
    const title = `${JSON.stringify(text)}${glob === null ? '' : ' (glob)'} in ${cwd ?? 'an unknown directory'}${
      extra.asWritten === true ? ' as written' : ''
    }${extra.expands === true ? ' (expands)' : ''}${extra.home === true ? ' (home)' : ''}${
      extra.root === undefined ? '' : ` (root ${extra.root})`
    } -> ${flags === '' ? 'nothing' : flags}`;
    it(title, () => {
      const word: PathWord = { text, glob, expands: extra.expands === true };
      if (extra.home === true) word.home = true;
      const top = extra.root === undefined ? TOP : DirNode.top(rootSpec(extra.root));
      const dir = cwd === null ? null : top.cd(cwd);
      expect(classifyPath(word, dir, extra.asWritten === true)).toStrictEqual(expected(flags));
    });
  }
});
