// The tokenizer's exported helpers for concrete inputs: fragments with their argv, redirections
// and rendered text, what the shell does to each word (issue 9 A.5: expansion, globs, home), the
// assignment and verb rules, and the rendering the approval card shows.
import { describe, expect, it } from 'vitest';
import {
  dedupeFindings,
  fragmentOfWords,
  hasGlob,
  isAssignment,
  renderWord,
  simpleEntries,
  tokenize,
  verbOf,
  wordInfo,
} from '../../src/policy/tokenizer.ts';
import type { UnsafeFinding } from '../../src/policy/tokenizer.ts';
import { allowing, AUTO_MODE, term } from './unit-fixtures.ts';

const fragment = (command: string, index = 0) => tokenize(command).fragments[index]!;

describe('tokenizer: fragments split on separators and keep their redirections', () => {
  it.each([
    ['a && b || c ; d | e |& f & g', ['&&', '||', ';', '|', '|&', '&', '\n']],
    ['a\nb', ['\n', '\n']],
    ['(a) ; b', [')', '\n']],
    ['a;;b;&c', [';;', ';&', '\n']],
    ['a;;&b', [';;&', '\n']],
    ['diff <(a) b', ['<(', ')', '\n']],
    ['tee >(a) b', ['>(', ')', '\n']],
  ])('%j ends its fragments with %j', (command, seps) => {
    expect(tokenize(command).fragments.map((f) => f.sep)).toEqual(seps);
  });
  it('parentheses and process substitutions split, and never stay as items of a fragment', () => {
    expect(tokenize('(a) ; b').fragments.map((f) => f.items)).toEqual([[{ word: 'a' }], [{ word: 'b' }]]);
    expect(tokenize('diff <(a) >(b) c').fragments.map((f) => f.items)).toEqual([
      [{ word: 'diff' }],
      [{ word: 'a' }],
      [{ word: 'b' }],
      [{ word: 'c' }],
    ]);
  });
  it('an empty fragment between separators is dropped', () => {
    expect(tokenize('a ;; ; b').fragments.map((f) => f.argv)).toEqual([['a'], ['b']]);
    expect(tokenize('').fragments).toEqual([]);
  });
  it('every redirection keeps its operator, fd and target, and leaves argv', () => {
    const f = fragment('cmd 2>x 3>>y 4<z 5<>w 6>|v 7<&0 8>&1 9<<<s a');
    expect(f.argv).toEqual(['cmd', 'a']);
    expect(f.redirects).toEqual([
      { op: '>', fd: '2', target: 'x' },
      { op: '>>', fd: '3', target: 'y' },
      { op: '<', fd: '4', target: 'z' },
      { op: '<>', fd: '5', target: 'w' },
      { op: '>|', fd: '6', target: 'v' },
      { op: '<&', fd: '7', target: '0' },
      { op: '>&', fd: '8', target: '1' },
      { op: '<<<', fd: '9', target: 's' },
    ]);
    expect(f.text).toBe('cmd 2> x 3>> y 4< z 5<> w 6>| v 7<& 0 8>& 1 9<<< s a');
  });
  it('here-documents keep their fd too (and are unsafe)', () => {
    expect(fragment('cat 0<<EOF').redirects).toEqual([{ op: '<<', fd: '0', target: 'EOF' }]);
    expect(fragment('cat 0<<-EOF').redirects).toEqual([{ op: '<<-', fd: '0', target: 'EOF' }]);
    expect(tokenize('cat 0<<-EOF').findings.map((f) => f.kind)).toEqual(['here_document']);
  });
  it('a redirection without a word after it has no target', () => {
    expect(fragment('echo >').redirects).toEqual([{ op: '>', target: null }]);
    expect(fragment('echo > >x').redirects).toEqual([
      { op: '>', target: null },
      { op: '>', target: 'x' },
    ]);
    expect(fragment('echo &> a').redirects).toEqual([{ op: '&>', target: 'a' }]);
    expect(fragment('echo &>> a b').argv).toEqual(['echo', 'b']);
  });
  it('a redirection target keeps what the shell does to it', () => {
    expect(fragment('cat > $HOME').redirects).toEqual([
      { op: '>', target: '$HOME', targetInfo: { expands: true, glob: null } },
    ]);
    expect(fragment('cat > ~/x').redirects).toEqual([
      { op: '>', target: '~/x', targetInfo: { expands: false, glob: null, home: true } },
    ]);
    expect(fragment('cat > *.log').redirects[0]).toEqual({
      op: '>',
      target: '*.log',
      targetInfo: { expands: false, glob: '*.log' },
    });
    expect(fragment("cat > '$HOME'").redirects[0]).toEqual({ op: '>', target: '$HOME' });
  });
  it('a separator operator after an fd number does not become a redirection', () => {
    // `2<(x)`: process substitution, a separator here; the fd is dropped.
    const t = tokenize('cat 2<(x)');
    expect(t.fragments.map((f) => f.items)).toEqual([[{ word: 'cat' }], [{ word: 'x' }]]);
  });
  it('quoted and escaped words come out whole, quotes removed', () => {
    expect(fragment(`echo "a b" 'c d' e\\ f c'u'rl ""`).argv).toEqual(['echo', 'a b', 'c d', 'e f', 'curl', '']);
    expect(fragment('echo a\\#b "#" x#').argv).toEqual(['echo', 'a#b', '#', 'x#']);
    expect(fragment('echo $((1+2)) "$((3*4))"').argv).toEqual(['echo', '$((1+2))', '$((3*4))']);
  });
});

describe('tokenizer: issue 9 A.5 what the shell does to each word', () => {
  it.each([
    ['ls x', undefined],
    ['ls *.ts', { expands: false, glob: '*.ts' }],
    ['ls ?', { expands: false, glob: '?' }],
    ['ls [ab]', { expands: false, glob: '[ab]' }],
    // A quoted glob character is literal in the pattern (escaped), the word keeps it bare.
    ['ls "a*"*', { expands: false, glob: 'a\\**' }],
    ['ls a\\\\b*', { expands: false, glob: 'a\\\\b*' }],
    ["ls '[x]'?", { expands: false, glob: '\\[x\\]?' }],
    // Only quoted glob characters, or a lone `]`: no pattern.
    ['ls "*"', undefined],
    ['ls a]', { expands: false, glob: null }],
    ['echo $HOME', { expands: true, glob: null }],
    ['echo "$HOME"', { expands: true, glob: null }],
    ['echo x$HOME*', { expands: true, glob: 'x$HOME*' }],
    ["echo '$HOME'", undefined],
    ['echo \\$HOME', undefined],
    ['ls ~', { expands: false, glob: null, home: true }],
    ['ls ~/*.ts', { expands: false, glob: '~/*.ts', home: true }],
    ['ls a=~/x', { expands: false, glob: null, home: true }],
    ['ls ~$X', { expands: true, glob: null, home: true }],
    ['ls "~"', undefined],
  ])('%j: the last word is %j', (command, info) => {
    const f = fragment(command);
    expect(f.argvInfo?.[f.argvInfo.length - 1]).toEqual(info);
  });
  it('the decoded word drops the marks', () => {
    expect(fragment('ls ~/*.ts $A "[$B]" a]').argv).toEqual(['ls', '~/*.ts', '$A', '[$B]', 'a]']);
  });
  it.each([
    // Without knowledge from the line, any `$`, glob character or home `~` counts.
    ['plain', undefined],
    ['$X', { expands: true, glob: null, home: false }],
    ['*.ts', { expands: false, glob: '*.ts', home: false }],
    ['~/x', { expands: false, glob: null, home: true }],
    ['a=~/x', { expands: false, glob: null, home: true }],
    ['PATH=/a:~/b', { expands: false, glob: null, home: true }],
    ['a~b', undefined],
    ['a[b', undefined],
  ])('wordInfo(%j) without line knowledge is %j', (word, info) => {
    expect(wordInfo(word, undefined, false)).toEqual(info);
  });
  it('wordInfo with line knowledge returns what the line said, even for $ and globs', () => {
    expect(wordInfo('$X*', undefined, true)).toBeUndefined();
    const info = { expands: false, glob: null };
    expect(wordInfo('$X', info, true)).toBe(info);
  });
  it.each([
    ['*', true],
    ['a?b', true],
    ['[ab]', true],
    ['[]', true],
    ['x[a]y', true],
    [']', false],
    ['[', false],
    ['a]b[', false],
    ['abc', false],
    ['', false],
  ])('hasGlob(%j) is %j', (word, glob) => {
    expect(hasGlob(word)).toBe(glob);
  });
});

describe('tokenizer: leading assignments and the command name', () => {
  it.each([
    ['A=1', true],
    ['_=x', true],
    ['a_b9=', true],
    ['Zz=1', true],
    ['A1=1', true],
    ['=1', false],
    ['1A=1', false],
    ['a-b=1', false],
    ['a.b=1', false],
    ['a', false],
    ['@=1', false],
    ['[=1', false],
    ['`=1', false],
    ['{=1', false],
    ['a/=1', false],
    ['a:=1', false],
    ['--opt=1', false],
  ])('isAssignment(%j) is %j', (word, assignment) => {
    expect(isAssignment(word)).toBe(assignment);
  });
  it.each([
    [['FOO=1', 'BAR=2', 'pnpm', 'X=3'], 'pnpm'],
    [['ls', '-la'], 'ls'],
    [['A=1'], undefined],
    [[], undefined],
  ])('verbOf(%j) is %j', (argv, verb) => {
    expect(verbOf(argv)).toBe(verb);
  });
  it.each([
    ['l\u0455 x', true],
    ['A=1 l\u0455', true],
    ['ls && caf\u00e9', true],
    ['ls\u007f', true],
    ['l\u0455=1 ls', true], // not an assignment (a non-ASCII name): the command name
    ['A=caf\u00e9 ls', false],
    ['ls caf\u00e9', false],
    ['"l s" x', false],
    ['"~x" y', false],
    ['" x"', false],
  ])('%j names a non-ASCII command name: %j', (command, named) => {
    const kinds = tokenize(command).findings.map((f) => f.kind);
    expect(kinds.includes('non_ascii_verb')).toBe(named);
  });
  it('the non-ASCII finding is named once however many fragments have one', () => {
    const kinds = tokenize('l\u0455; caf\u00e9; ls').findings.map((f) => f.kind);
    expect(kinds).toEqual(['non_ascii_verb']);
  });
  it('dedupeFindings keeps the first finding of each kind, in order', () => {
    const f = (kind: UnsafeFinding['kind'], what: string): UnsafeFinding => ({ kind, what });
    expect(dedupeFindings([f('comment', '1'), f('subshell', '2'), f('comment', '3'), f('subshell', '4')])).toEqual([
      f('comment', '1'),
      f('subshell', '2'),
    ]);
  });
});

describe('tokenizer: rendering for people (the approval card shows it)', () => {
  it.each([
    ['', "''"],
    ['{}', '{}'],
    ['src/a_b.ts', 'src/a_b.ts'],
    ['--x=@1%2+3,4:5', '--x=@1%2+3,4:5'],
    ['AZaz09', 'AZaz09'],
    ['a b', "'a b'"],
    ['*.ts', '\\*.ts'],
    ['$HOME', '\\$HOME'],
    ["it's", '"it\'s"'],
    ['{x}', '\\{x\\}'],
    ['~', '\\~'],
  ])('renderWord(%j) is %j', (word, text) => {
    expect(renderWord(word)).toBe(text);
  });
  it("a long word is single-quoted past 1024 characters, each quote written as '\\''", () => {
    const at = "'" + 'a'.repeat(1023);
    expect(renderWord(at)).toBe(`"${at}"`);
    const past = "'" + 'a'.repeat(1024);
    expect(renderWord(past)).toBe(`''\\''${'a'.repeat(1024)}'`);
    expect(renderWord('a'.repeat(5000))).toBe('a'.repeat(5000));
  });
  it('fragmentOfWords is what find -exec runs: plain words, no redirections', () => {
    expect(fragmentOfWords(['rm', 'a b', '{}'])).toEqual({
      items: [{ word: 'rm' }, { word: 'a b' }, { word: '{}' }],
      argv: ['rm', 'a b', '{}'],
      redirects: [],
      text: "rm 'a b' {}",
      sep: '\n',
    });
  });
  it('a fragment renders its items back, fd numbers on their operators', () => {
    expect(fragment('cat "a b" 2>&1 >x').text).toBe("cat 'a b' 2>& 1 > x");
  });
});

describe('tokenizer: the fast path reads simple lines, anything else goes to the line reader', () => {
  it.each([
    ['a  b', ['a', 'b']],
    ['a\tb ', ['a', 'b']],
    ['a&&b|c;d', ['a', { op: '&&' }, 'b', { op: '|' }, 'c', { op: ';' }, 'd']],
    ['a >>b <c', ['a', { op: '>>' }, 'b', { op: '<' }, 'c']],
    ['ls *.ts x?', ['ls', '*.ts', 'x?']],
    ['-_./:=@%+,', ['-_./:=@%+,']],
    ['', []],
  ])('simpleEntries(%j) is %j', (line, entries) => {
    expect(simpleEntries(line)).toEqual(entries);
  });
  it.each(['a"b"', "a'b'", 'a\\ b', 'a(b)', 'a{b}', 'caf\u00e9', 'a\nb', 'a#b', 'a$b', 'a[b]', 'a~'])(
    'simpleEntries(%j) is null',
    (line) => {
      expect(simpleEntries(line)).toBeNull();
    },
  );
});

describe('tokenizer: a mark forged in the input never helps a command (it is a control character)', () => {
  it.each(['ls a\u0003', 'ls \u0003', 'ls \u0002x', 'ls \u0002~', 'cat \u00012>x', 'cat \u0001 x'])(
    '%j asks in auto mode with ls and cat allowed',
    (command) => {
      const d = term(command, { ...allowing('Terminal(ls)', 'Terminal(cat)'), autonomy: AUTO_MODE });
      expect(d.policy).toBe('require_approval');
      expect(d.reasonCode).toBe('unsafe_shell_construct');
      expect(d.reason).toContain('control character');
    },
  );
  it('a glob mark with nothing after it stays in the word, no pattern', () => {
    const f = fragment('ls a\u0003');
    expect(f.argv).toEqual(['ls', 'a\u0003']);
    expect(f.argvInfo).toEqual([undefined, { expands: false, glob: null }]);
  });
});
