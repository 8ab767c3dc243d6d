// Whether an awk program reaches past its input: a pipe (`print | "cmd"`, `"cmd" | getline`,
// gawk's `|&`), an output redirection of print/printf (`>`, `>>`), `getline < file`, system(),
// and what reads the environment or changes the files read (ENVIRON, ARGV, PROCINFO, @load,
// @include). The program is read as awk reads it, so a `>` in a pattern or in parentheses
// (`NR > 1`, `print (a > b)`), `>=`, `||`, and anything inside a string or a regex literal is
// not taken for one: gawk --sandbox, which refuses these at run time, is the tests' oracle. Linear.

/** Keywords and names that reach, read from the program with its strings and regexes blanked out. */
const REACHING_NAMES =
  /\bsystem\s*\(|\bgetline\b[^;}\n]*<|\bARGV\b|\bclose\s*\(|\bfflush\b|\bENVIRON\b|\bPROCINFO\b|@load|@include/;

/** Characters after which awk reads `/` as the start of a regex (elsewhere it divides: `a / 2`, `../f`). */
const OPERAND_FOLLOWS = '(,{};!~&=+-*%^<?:\n[';

export function awkProgramReaches(program: string): boolean {
  const blanked: string[] = [];
  let depth = 0;
  /** The parenthesis depth a print/printf statement started at; -1 outside one. */
  let printDepth = -1;
  /** Whether a `/` here would start a regex (an operand is expected) rather than divide. */
  let operandExpected = true;
  let from = 0; // start of the run of program text not yet copied to `blanked`
  let i = 0;
  const n = program.length;
  /** Skips a string or regex literal opened at `i`; false when it never closes. */
  const literal = (close: string): boolean => {
    blanked.push(program.slice(from, i), close, close);
    for (i++; i < n; i++) {
      const c = program[i]!;
      if (c === '\\') i++;
      else if (c === close) break;
      else if (c === '\n') return false;
      else if (close === '/' && c === '[') {
        // A bracket expression hides the slash: `/[/]/`, `/[]/]/`, `/[^]/]/`.
        let k = i + 1;
        if (program[k] === '^') k++;
        if (program[k] === ']') k++;
        while (k < n && program[k] !== ']' && program[k] !== '\n') k++;
        i = k;
      }
    }
    if (i >= n) return false;
    i++;
    from = i;
    operandExpected = false;
    return true;
  };
  while (i < n) {
    const c = program[i]!;
    if (c === '"' || (c === '/' && operandExpected)) {
      if (!literal(c)) return true; // unterminated: read as reaching rather than guess
      continue;
    }
    if (c === '#') {
      blanked.push(program.slice(from, i));
      while (i < n && program[i] !== '\n') i++;
      from = i;
      continue;
    }
    if (c === '\\' && program[i + 1] === '\n') {
      i += 2; // a continued line: the statement goes on
      continue;
    }
    if (c === '|') {
      if (program[i + 1] !== '|') return true; // a pipe, or gawk's |& coprocess
      i += 2;
      operandExpected = true;
      continue;
    }
    if (c === '>') {
      if (program[i + 1] === '>') return true; // only a redirection is spelled >>
      if (program[i + 1] !== '=' && printDepth >= 0 && depth === printDepth) return true;
      i += program[i + 1] === '=' ? 2 : 1;
      operandExpected = true;
      continue;
    }
    if (isWordStart(c)) {
      let k = i + 1;
      while (k < n && isWordPart(program[k]!)) k++;
      const word = program.slice(i, k);
      if (word === 'print' || word === 'printf') printDepth = depth;
      // After these a regex may follow; after a name or a number, `/` divides.
      operandExpected = word === 'print' || word === 'printf' || word === 'return' || word === 'in';
      i = k;
      continue;
    }
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') {
      depth--;
      if (depth < printDepth) printDepth = -1;
    } else if (c === ';' || c === '\n' || c === '{' || c === '}') printDepth = -1;
    if ((c === '+' || c === '-') && program[i + 1] === c) {
      i += 2; // `x++ / 2` divides
      operandExpected = false;
      continue;
    }
    if (c !== ' ' && c !== '\t') operandExpected = OPERAND_FOLLOWS.includes(c);
    i++;
  }
  blanked.push(program.slice(from));
  return REACHING_NAMES.test(blanked.join(''));
}

function isWordStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '@';
}

/** `@` only starts a word (`@load`): gawk reads `print@f(x)` as print and an indirect call. */
function isWordPart(c: string): boolean {
  return (isWordStart(c) && c !== '@') || isDigit(c);
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}
