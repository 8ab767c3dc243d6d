// walkDirs() (cwd-flow.ts, issue 9 A.2): every directory each fragment of a command may run in,
// starting in /r. A row lists every visited fragment (nested sh -c lines, find -exec commands and
// substitutions too) as "argv @ directories", `?` for a directory nobody can know, and for a
// directory change "-> where it may lead". These are the directories scope and protected-path
// checks judge a fragment in (bash's and-or and pipeline rules; zsh runs a pipeline's last part
// in the current shell).
import { describe, expect, it } from 'vitest';
import { MAX_DIRS, walkDirs } from '../../src/policy/cwd-flow.ts';
import type { Dirs } from '../../src/policy/cwd-flow.ts';
import { analyzeCommand } from '../../src/policy/analysis.ts';
import { DirNode, rootSpec } from '../../src/policy/dir-node.ts';

const names = (dirs: Dirs): string => dirs.map((d) => (d === null ? '?' : d.toString())).join(' ');

function visits(command: string, cdPathSet = false): string[] {
  const start = DirNode.top(rootSpec('/r')).cd('/r');
  const seen: string[] = [];
  walkDirs(
    analyzeCommand(command),
    [start],
    (fragment, dirs, analysed, moved) => {
      const kind = analysed === null ? ' (find -exec)' : '';
      seen.push(`${fragment.argv.join(' ')}${kind} @ ${names(dirs)}${moved === null ? '' : ` -> ${names(moved)}`}`);
    },
    cdPathSet,
  );
  return seen;
}

const rows = (title: string, table: Array<[string, string[]]>): void => {
  describe(title, () => {
    it.each(table)('%s', (command, want) => expect(visits(command)).toEqual(want));
  });
};

rows('issue 9 A.2 and-or lists: && runs only after success, || only after failure', [
  ['cd a && ls', ['cd a @ /r -> /r/a', 'ls @ /r/a']],
  ['cd a || ls', ['cd a @ /r -> /r/a', 'ls @ /r']],
  ['cd a && cd b || ls', ['cd a @ /r -> /r/a', 'cd b @ /r/a -> /r/a/b', 'ls @ /r/a /r']],
  ['cd a || cd b && ls', ['cd a @ /r -> /r/a', 'cd b @ /r -> /r/b', 'ls @ /r/b /r/a']],
  ['ls || cd a && ls', ['ls @ /r', 'cd a @ /r -> /r/a', 'ls @ /r/a /r']],
  ['ls && cd a', ['ls @ /r', 'cd a @ /r -> /r/a']],
  ['cd a || ls; ls', ['cd a @ /r -> /r/a', 'ls @ /r', 'ls @ /r /r/a']],
  ['cd /abs && ls', ['cd /abs @ /r -> /abs', 'ls @ /abs']],
  ['cd ../.. && ls', ['cd ../.. @ /r -> /', 'ls @ /']],
]);

rows('issue 9 A.2 a list after ; or & starts from every outcome of the one before', [
  ['cd a; ls', ['cd a @ /r -> /r/a', 'ls @ /r/a /r']],
  ['cd a & ls', ['cd a @ /r -> /r/a', 'ls @ /r/a /r']],
  ['( cd a ); ls', ['cd a @ /r -> /r/a', 'ls @ /r/a /r']],
  ['cd a\nls', ['cd a @ /r -> /r/a', 'ls @ /r/a /r']],
  ['cd a; cd b; ls', ['cd a @ /r -> /r/a', 'cd b @ /r/a /r -> /r/a/b /r/b', 'ls @ /r/a/b /r/b /r/a /r']],
]);

rows('issue 9 A.2 pipelines: each part starts where the pipeline does; what follows may see any', [
  ['cd a | ls', ['cd a @ /r -> /r/a', 'ls @ /r']],
  ['cd a |& ls', ['cd a @ /r -> /r/a', 'ls @ /r']],
  ['ls | cd a; ls', ['ls @ /r', 'cd a @ /r -> /r/a', 'ls @ /r /r/a']],
  ['cd a | cd b && ls', ['cd a @ /r -> /r/a', 'cd b @ /r -> /r/b', 'ls @ /r /r/a /r/b']],
  ['ls | cd a || ls', ['ls @ /r', 'cd a @ /r -> /r/a', 'ls @ /r /r/a']],
]);

rows('issue 9 A.2 source, . and eval may move anywhere; an unknown target is unknown', [
  ['source x; ls', ['source x @ /r -> ?', 'ls @ /r ?']],
  ['cd a && source x && ls', ['cd a @ /r -> /r/a', 'source x @ /r/a -> ?', 'ls @ /r/a ?']],
  ['eval x | ls', ['eval x @ /r -> ?', 'x @ /r', 'ls @ /r']],
  ['cd && ls', ['cd @ /r -> ?', 'ls @ ?']],
  ['cd && cd a && ls', ['cd @ /r -> ?', 'cd a @ ? -> ?', 'ls @ ?']],
  ['CDPATH=/x; cd a && ls', ['CDPATH=/x @ /r', 'cd a @ /r -> ?', 'ls @ ?']],
  ['X=CDPATH cd a', ['X=CDPATH cd a @ /r -> ?']],
  ['cd ./a; CDPATH=/x', ['cd ./a @ /r -> /r/a', 'CDPATH=/x @ /r/a /r']],
]);

rows('issue 9 A.2 nested lines, find -exec and substitutions run where their fragment may', [
  ["sh -c 'cd a; ls'; ls", ['sh -c cd a; ls @ /r', 'cd a @ /r -> /r/a', 'ls @ /r/a /r', 'ls @ /r']],
  [
    "cd a && sh -c 'cd b && ls'",
    ['cd a @ /r -> /r/a', 'sh -c cd b && ls @ /r/a', 'cd b @ /r/a -> /r/a/b', 'ls @ /r/a/b'],
  ],
  ["CDPATH=/x sh -c 'cd b'", ['CDPATH=/x sh -c cd b @ /r', 'cd b @ /r -> ?']],
  ['cd a && find . -exec rm {} ;', ['cd a @ /r -> /r/a', 'find . -exec rm {} @ /r/a', 'rm {} (find -exec) @ /r/a']],
  ['cd a && echo $(ls)', ['cd a @ /r -> /r/a', 'echo @ /r/a', 'ls @ /r/a /r']],
  ['echo $(cd b; ls)', ['echo @ /r', 'cd b @ /r -> /r/b', 'ls @ /r/b /r']],
  // Inside double quotes: a substitution of the command, run somewhere along the whole chain.
  [
    'cd a && echo "$(cd b; ls)"',
    ['cd a @ /r -> /r/a', 'echo $(cd b; ls) @ /r/a', 'cd b @ /r /r/a -> /r/b /r/a/b', 'ls @ /r/b /r/a/b /r /r/a'],
  ],
]);

describe('issue 9 A.2 more than MAX_DIRS possibilities: the directory is unknown', () => {
  it('MAX_DIRS is 8', () => expect(MAX_DIRS).toBe(8));
  it('three uncertain cds leave 8 directories, a fourth leaves one nobody can know', () => {
    expect(visits('cd a; cd b; cd c; ls').at(-1)).toBe('ls @ /r/a/b/c /r/b/c /r/a/c /r/c /r/a/b /r/b /r/a /r');
    expect(visits('cd a; cd b; cd c; cd d; ls').at(-1)).toBe('ls @ ?');
  });
  it('the same directory reached on two paths counts once', () => {
    expect(visits('cd a || cd a && ls')).toEqual(['cd a @ /r -> /r/a', 'cd a @ /r -> /r/a', 'ls @ /r/a']);
  });
});

describe('walkDirs: per top-level fragment, where it runs and where a directory change leads', () => {
  const start = DirNode.top(rootSpec('/r')).cd('/r');
  const flow = (command: string, cdPathSet = false) => {
    const got = walkDirs(analyzeCommand(command), [start], () => undefined, cdPathSet);
    return { runIn: got.runIn.map(names), moved: got.moved.map((m) => (m === null ? null : names(m))) };
  };
  it('cd a && ls; cd b', () =>
    expect(flow('cd a && ls; cd b')).toEqual({
      runIn: ['/r', '/r/a', '/r/a /r'],
      moved: ['/r/a', null, '/r/a/b /r/b'],
    }));
  it('nested fragments are not top-level ones', () =>
    expect(flow("sh -c 'cd a'; ls")).toEqual({ runIn: ['/r', '/r'], moved: [null, null] }));
  it('a CDPATH set by the caller makes a relative cd unknown, not an absolute or ./ one', () => {
    expect(flow('cd a', true)).toEqual({ runIn: ['/r'], moved: ['?'] });
    expect(flow('cd ./a && cd /b', true)).toEqual({ runIn: ['/r', '/r/a'], moved: ['/r/a', '/b'] });
    expect(flow('cd a', false)).toEqual({ runIn: ['/r'], moved: ['/r/a'] });
  });
});
