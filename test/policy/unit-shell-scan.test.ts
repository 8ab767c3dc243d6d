// The pre-pass (shell-scan.ts) for a concrete line: the lines it hands to the line reader, the
// unsafe constructs it names (in the order the reason shows the first one) and the substitution
// bodies deny looks through. Issue 9 A.5: a quoted or escaped `$` is literal, an expansion still
// counts; unsafe constructs keep a command from being auto-approved (unsafe_shell_construct).
import { describe, expect, it } from 'vitest';
import { EXPAND_MARK, FD_MARK, GLOB_MARK, scanCommand, UNSAFE_WHAT } from '../../src/policy/shell-scan.ts';
import type { UnsafeKind } from '../../src/policy/shell-scan.ts';
import { AUTO_MODE, term } from './unit-fixtures.ts';

// Short names for the marks, so the expected lines read like the text the tokenizer gets.
const EX = EXPAND_MARK;
const FD = FD_MARK;
const GL = GLOB_MARK;

type Row = [command: string, lines: string[], kinds: UnsafeKind[], substitutions?: string[]];

function check([command, lines, kinds, substitutions = []]: Row): void {
  const scan = scanCommand(command);
  expect(scan.lines).toEqual(lines);
  expect(scan.findings).toEqual(kinds.map((kind) => ({ kind, what: UNSAFE_WHAT[kind] })));
  expect(scan.substitutions).toEqual(substitutions);
}

describe('shell-scan: plain words and lines', () => {
  it.each<Row>([
    ['git status', ['git status'], []],
    ['', [''], []],
    ['a\tb', ['a\tb'], []],
    // Unquoted newlines split lines (shell-quote would read them as blanks).
    ['a\nb', ['a', 'b'], []],
    ['a\n\nb', ['a', '', 'b'], []],
    // issue 9 A.5 backslash-newline joins two lines into one command.
    ['git add a \\\nb', ['git add a b'], []],
    ['a\\ b', ['a\\ b'], []],
    ['a \\', ['a '], ['line_continuation']],
    // A `#` inside a word is a literal character; at a word start it hides the rest of the line.
    ['a#b', ['a\\#b'], []],
    ['git log --format=%H#x', ['git log --format=%H\\#x'], []],
    ['a #b\nc', ['a ', 'c'], ['comment']],
    ['a;#b', ['a;'], ['comment']],
    ['#x', [''], ['comment']],
    ['a|#b', ['a|'], ['comment']],
    ['a;b', ['a;b'], []],
    // A new line starts a word: an fd number or a comment right after the newline is one.
    ['a\n2>x', ['a', `${FD}2 >x`], []],
    ['a\n#b', ['a', ''], ['comment']],
  ])('%j -> %j %j', (...row) => check(row));
});

describe('shell-scan: issue 9 A.5 an expansion is marked, a quoted or escaped $ is literal', () => {
  it.each<Row>([
    ['echo $HOME', [`echo ${EX}\\$HOME`], []],
    ['echo "$HOME"', [`echo "${EX}\\$HOME"`], []],
    ["echo '$HOME'", ["echo '$HOME'"], []],
    ['echo \\$HOME', ['echo \\$HOME'], []],
    ['echo "\\$HOME"', ['echo "\\$HOME"'], []],
    // Names, digits, $@, $* and `{` expand; the numeric parameters $? $# $$ $! $- are literal
    // words (they name no path); anything else keeps the `$` literal.
    ['$a $Z $_ $0 $9 $@', [`${EX}\\$a ${EX}\\$Z ${EX}\\$_ ${EX}\\$0 ${EX}\\$9 ${EX}\\$@`], []],
    ['$! $- $$', ['\\$\\! \\$\\- \\$\\$'], []],
    ['$# $?', ['\\$\\# \\$\\?'], []],
    ['$* x', [`${EX}\\$${GL}* x`], []],
    ['$ $% $/ $', ['\\$ \\$% \\$/ \\$'], []],
    // The edges of the name ranges: z, A expand; ~ ^ : = (just past z, Z, 9) do not.
    ['$z $A $~ $^ $: $=', [`${EX}\\$z ${EX}\\$A \\$~ \\$^ \\$: \\$=`], []],
    ['"$z" "$A" "$~" "$^" "$:"', [`"${EX}\\$z" "${EX}\\$A" "\\$~" "\\$^" "\\$:"`], []],
    [
      '"$a" "$Z" "$_" "$0" "$@" "$*" "$#" "$?" "$$" "$!" "$-"',
      [`"${EX}\\$a" "${EX}\\$Z" "${EX}\\$_" "${EX}\\$0" "${EX}\\$@" "${EX}\\$*" "\\$#" "\\$?" "\\$\\$" "\\$!" "\\$-"`],
      [],
    ],
    ['"$" "$ " "$%" "$/"', ['"\\$" "\\$ " "\\$%" "\\$/"'], []],
    ['"a$"', ['"a\\$"'], []],
    ['echo ${X} ${Y:-z}', [`echo ${EX}\\\${X} ${EX}\\\${Y:-z}`], []],
    // Inside ${…} the closing brace is the expansion's, not a brace group's.
    ['${a}}', [`${EX}\\\${a}\\}`], ['brace_group']],
    ['"${X}"', [`"${EX}\\\${X}"`], []],
    // An unquoted `~` at a word start or after `=` / `:` is the home directory; elsewhere a letter.
    ['ls ~ a=~ b:~ c~ ~/x', [`ls ${EX}~ a=${EX}~ b:${EX}~ c${'~'} ${EX}~/x`], []],
    ['ls "~" \\~ x/~', ['ls "~" \\~ x/~'], []],
    ['a;~', [`a;${EX}~`], []],
  ])('%j -> %j %j', (...row) => check(row));
});

describe('shell-scan: issue 9 A.5 pure arithmetic $((…)) is a number, not a substitution', () => {
  it.each<Row>([
    ['echo $((1+2))', ['echo \\$\\(\\(1+2\\)\\)'], []],
    ['echo $((3*4)) x', ['echo \\$\\(\\(3\\*4\\)\\) x'], []],
    ['echo $(( (1+2) * 3 ))', ['echo \\$\\(\\(\\ \\(1+2\\)\\ \\*\\ 3\\ \\)\\)'], []],
    ['echo "$((1+2))"x', ['echo "\\$((1+2))"x'], []],
    ['echo "$(( (1) ))"', ['echo "\\$(( (1) ))"'], []],
    // A name may be evaluated indirectly (`x='a[$(id)]'; $((x))` runs id): a substitution.
    ['echo $((x))', ['echo  ((x))'], ['command_substitution', 'subshell']],
    ['echo "$((x))"', [`echo "${EX}\\$((x))"`], ['command_substitution'], ['(x']],
    ['echo $((1+2)', ['echo  ((1+2)'], ['command_substitution', 'subshell']],
    ['echo $((1+2)x', ['echo  ((1+2)x'], ['command_substitution', 'subshell']],
    ['echo $((1+2', ['echo  ((1+2'], ['command_substitution', 'subshell']],
    ['echo $(1)', ['echo  (1)'], ['command_substitution']],
    // Both `(` must follow the `$`: `$(1))` and `$x(1))` are not arithmetic.
    ['echo $(1))', ['echo  (1))'], ['command_substitution', 'subshell']],
    ['echo $x(1))', [`echo ${EX}\\$x(1))`], ['subshell']],
    ['echo $((1é))', ['echo  ((1é))'], ['command_substitution', 'subshell']],
    ['echo $(($))', ['echo  ((\\$))'], ['command_substitution', 'subshell']],
  ])('%j -> %j %j', (...row) => check(row));
});

describe('shell-scan: substitutions are named and their bodies kept for deny', () => {
  it.each<Row>([
    ['echo $(id)', ['echo  (id)'], ['command_substitution']],
    ['echo $(id', ['echo  (id'], ['command_substitution', 'subshell']],
    ['echo "$(id)"', [`echo "${EX}\\$(id)"`], ['command_substitution'], ['id']],
    ['echo "$(a) $(b)"', [`echo "${EX}\\$(a) ${EX}\\$(b)"`], ['command_substitution'], ['a', 'b']],
    ['"$($(x))"', [`"${EX}\\$(${EX}\\$(x))"`], ['command_substitution'], ['$(x', 'x']],
    ['"$(a" "$(b"', [`"${EX}\\$(a" "${EX}\\$(b"`], ['command_substitution'], ['a" "$(b"', 'b"']],
    ['echo `id` b', ['echo  ; id ;  b'], ['backtick_substitution'], ['id']],
    ['`a` `b`', [' ; a ;   ; b ; '], ['backtick_substitution'], ['a', 'b']],
    ['echo `rm -rf /', ['echo  ; rm -rf /'], ['backtick_substitution'], ['rm -rf /']],
    ['diff <(a) >(b)', ['diff <(a) >(b)'], ['process_substitution']],
    ['cat <(a', ['cat <(a'], ['process_substitution', 'subshell']],
    ["echo $'\\x41'", ["echo \\$'\\x41'"], ['ansi_c_quoting']],
    ['echo $"x"', ['echo \\$"x"'], ['ansi_c_quoting']],
  ])('%j -> %j %j', (...row) => check(row));
});

describe('shell-scan: backticks inside double quotes', () => {
  // The body of the first `…` is kept for deny (what follows the closing backtick is not pinned).
  it.each([
    ['echo "`id`"', 'id'],
    ['echo "a `rm -rf /` b"', 'rm -rf /'],
    ['echo "x`rm -rf /', 'rm -rf /'],
  ])('%j names a backtick substitution with body %j', (command, body) => {
    const scan = scanCommand(command);
    expect(scan.lines).toEqual([command.endsWith('/') ? command + '"' : command]);
    expect(scan.findings[0]).toEqual({ kind: 'backtick_substitution', what: UNSAFE_WHAT.backtick_substitution });
    expect(scan.substitutions[0]).toBe(body);
  });
});

describe('shell-scan: grouping, here-documents, case terminators', () => {
  it.each<Row>([
    ['(cd x; ls)', ['(cd x; ls)'], ['subshell']],
    ['a)', ['a)'], ['subshell']],
    ['(a', ['(a'], ['subshell']],
    ['$(a))', [' (a))'], ['command_substitution', 'subshell']],
    ['{ ls; }', ['\\{ ls; \\}'], ['brace_group']],
    ['echo }', ['echo \\}'], ['brace_group']],
    ['echo a{b,c}', ['echo a\\{b,c\\}'], ['brace_group']],
    // `{}` (find's placeholder) is a plain word.
    ['find . -exec ls {} ;', ['find . -exec ls {} ;'], []],
    ['cat <<EOF', ['cat <<EOF'], ['here_document']],
    ['cat <<<x', ['cat <<<x'], ['here_document']],
    ['cat < x > y >> z', ['cat < x > y >> z'], []],
    ['cat <x <y', ['cat <x <y'], []],
    ['a >>b', ['a >>b'], []],
    ['a;;', ['a;;'], ['case_terminator']],
    ['a;&', ['a;&'], ['case_terminator']],
    ['a; b', ['a; b'], []],
    // Only an unquoted, unescaped `;` right before `;` or `&` is a case terminator.
    ['find . -exec ls {} \\;; ls', ['find . -exec ls {} \\;; ls'], []],
    ["find . -exec ls {} ';'; ls", ["find . -exec ls {} ';'; ls"], []],
    // `<<` is a here-document, `><` is not.
    ['cat ><x', ['cat ><x'], []],
  ])('%j -> %j %j', (...row) => check(row));
});

describe('shell-scan: fd numbers of redirections and glob characters are marked', () => {
  it.each<Row>([
    ['2>x', [`${FD}2 >x`], []],
    ['cmd 2>/dev/null', [`cmd ${FD}2 >/dev/null`], []],
    ['cmd 12>x a', [`cmd ${FD}12 >x a`], []],
    ['cmd 0<x', [`cmd ${FD}0 <x`], []],
    ['cmd 9>x', [`cmd ${FD}9 >x`], []],
    ['a;2>x', [`a;${FD}2 >x`], []],
    ['a|3<x', [`a|${FD}3 <x`], []],
    // Not at a word start, or not before a redirection: part of a word.
    ['cmd 2x 34', ['cmd 2x 34'], []],
    ['cmd 2', ['cmd 2'], []],
    ['a=2>x', ['a=2>x'], []],
    ['a2>x', ['a2>x'], []],
    ['ls *.ts ?a [b]', [`ls ${GL}*.ts ${GL}?a ${GL}[b${GL}]`], []],
    ['ls "*" \\? \'[x]\'', ['ls "*" \\? \'[x]\''], []],
  ])('%j -> %j %j', (...row) => check(row));
});

describe('shell-scan: quotes', () => {
  it.each<Row>([
    ['echo \'a b\' "c d"', ['echo \'a b\' "c d"'], []],
    ["echo 'a;b|c'", ["echo 'a;b|c'"], []],
    ["'a''b'", ["'a''b'"], []],
    ["''", ["''"], []],
    ["'' x", ["'' x"], []],
    ['"a\\"b"', ['"a\\"b"'], []],
    // Backslash-newline joins the lines inside double quotes too; a newline in quotes is kept.
    ['"a\\\nb"', ['"ab"'], []],
    ['"a\nb"', ['"a\nb"'], []],
    ["'a\nb'", ["'a\nb'"], []],
    ['"a;b|c(d)&<e>"', ['"a;b|c(d)&<e>"'], []],
    ['"#x" "{y}" "*" "~"', ['"#x" "{y}" "*" "~"'], []],
    // Inside double quotes only `$((` starts arithmetic: `a((1))` is text.
    ['echo "a((1))"', ['echo "a((1))"'], []],
    // An unbalanced quote is closed, so the tokens deny needs still come out whole.
    ["echo 'abc", ["echo 'abc'"], ['unbalanced_quotes']],
    ['echo "abc', ['echo "abc"'], ['unbalanced_quotes']],
    ['echo "a\\', ['echo "a"'], ['unbalanced_quotes']],
  ])('%j -> %j %j', (...row) => check(row));
});

describe('shell-scan: control characters and Unicode spaces', () => {
  it.each<Row>([
    ['ls\u0007', ['ls\u0007'], ['control_character']],
    ['ls\u007f', ['ls\u007f'], ['control_character']],
    ['ls\u001f', ['ls\u001f'], ['control_character']],
    ['ls\u0000x', ['ls\u0000x'], ['control_character']],
    ['ls\r', ['ls\r'], ['control_character']],
    ["echo 'a\u0007b'", ["echo 'a\u0007b'"], ['control_character']],
    ["echo 'ab\u001b'", ["echo 'ab\u001b'"], ['control_character']],
    ['echo "a\u0007b"', ['echo "a\u0007b"'], ['control_character']],
    ['ls\u00a0-la', ['ls\u00a0-la'], ['unicode_space']],
    ['ls\u3000x', ['ls\u3000x'], ['unicode_space']],
    ['ls\u0085x', ['ls\u0085x'], ['unicode_space']],
    // Quoted, a Unicode space is part of the word, as the shell keeps it.
    ['echo "a\u00a0b"', ['echo "a\u00a0b"'], []],
    ["echo 'a\u00a0b'", ["echo 'a\u00a0b'"], []],
    ['echo é~', ['echo é~'], []],
    // Several findings come in the order they occur; each kind once.
    ['a\u0007 $(b) \u0007 $(c)', [`a\u0007  (b) \u0007  (c)`], ['control_character', 'command_substitution']],
  ])('%j -> %j %j', (...row) => check(row));
});

describe('shell-scan: the reason names the construct (unsafe_shell_construct, in auto mode too)', () => {
  it.each([
    ['a;;', 'unsafe shell construct: case terminator ;; or ;&'],
    ['*s x', 'unsafe shell construct: glob * ? [ … ] in a command name (the shell picks what runs)'],
    [
      "sed 'w /tmp/x' f",
      'unsafe shell construct: a sed or awk program that writes, reads or runs other files or commands (w, r, e, system, |, >, getline, -f)',
    ],
    [
      'alias ls=rm',
      'unsafe shell construct: an alias definition (/bin/sh expands it in the lines that follow, so the words judged are not what runs)',
    ],
    [
      `sh -c "sh -c 'sh -c \\"sh -c ls\\"'"`,
      'unsafe shell construct: commands nested too deeply (sh -c, eval, substitutions, wrappers)',
    ],
  ])('%j asks: %s', (command, reason) => {
    const d = term(command, { autonomy: AUTO_MODE });
    expect(d.policy).toBe('require_approval');
    expect(d.reasonCode).toBe('unsafe_shell_construct');
    expect(d.reason).toBe(reason);
  });
});
