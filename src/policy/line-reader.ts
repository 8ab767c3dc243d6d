// Splits one pre-scanned line (shell-scan.ts output) into words and operators, the way
// shell-quote 1.12.0 reads such lines, in one linear pass. shell-quote's own chunking regex is
// super-linear on long runs of escapes (`a\#\#\#…` took 155 ms for 32 KB), and decide() must stay
// linear for any input: this reader replaces it. The pre-pass has already escaped every `$`,
// `#`, `{` and `}` that means something, so only quotes, backslashes, blanks and operators remain.
// A property test compares both readings on the alphabet the pre-pass emits.

export type Entry = string | { op: string };

/** Characters JavaScript's \s matches: shell-quote splits words on all of them. */
function isBlank(code: number): boolean {
  if (code < 0xa0) return code === 32 || (code >= 9 && code <= 13);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

function isOperatorChar(c: string): boolean {
  return c === '&' || c === '|' || c === ';' || c === '<' || c === '>' || c === '(' || c === ')';
}

/** The operator starting at line[i], longest first, as shell-quote's alternation picks it. */
export function operatorAt(line: string, i: number): string {
  const c = line[i]!;
  const next = line[i + 1];
  switch (c) {
    case '|':
      return next === '|' ? '||' : next === '&' ? '|&' : '|';
    case '&':
      if (next === '&') return '&&';
      if (next === '>') return line[i + 2] === '>' ? '&>>' : '&>';
      return '&';
    case ';':
      if (next === ';') return line[i + 2] === '&' ? ';;&' : ';;';
      return next === '&' ? ';&' : ';';
    case '>':
      return next === '>' ? '>>' : next === '&' ? '>&' : next === '|' ? '>|' : next === '(' ? '>(' : '>';
    case '<':
      if (next === '(') return '<(';
      if (next === '<') {
        const third = line[i + 2];
        if (third === '<') return '<<<';
        if (third === '-') return '<<-';
        return third === '(' ? '<' : '<<'; // `<<(` is `<` then `<(`
      }
      return next === '&' ? '<&' : next === '>' ? '<>' : '<';
    default: // ( )
      return c;
  }
}

/** Reads a pre-scanned line: words (quotes removed, escapes applied) and operators. */
export function readLine(line: string): Entry[] {
  const entries: Entry[] = [];
  const n = line.length;
  let word = '';
  let inWord = false;
  let i = 0;
  const flush = (): void => {
    if (inWord) entries.push(word);
    word = '';
    inWord = false;
  };
  while (i < n) {
    const c = line[i]!;
    const code = line.charCodeAt(i);
    if (isBlank(code)) {
      flush();
      i++;
      continue;
    }
    if (isOperatorChar(c)) {
      flush();
      const op = operatorAt(line, i);
      entries.push({ op });
      i += op.length;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const close = line.indexOf("'", i + 1); // -1: never closed
      const end = close === -1 ? n : close;
      word += line.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '"') {
      i++;
      let start = i;
      while (i < n && line[i] !== '"') {
        if (line[i] !== '\\') {
          i++;
          continue;
        }
        // Inside double quotes a backslash escapes only `"`, `\` and `$`; before anything else it stays.
        word += line.slice(start, i);
        const next = line[i + 1];
        if (next === undefined) {
          i++;
        } else {
          word += next === '"' || next === '\\' || next === '$' ? next : '\\' + next;
          i += 2;
        }
        start = i;
      }
      word += line.slice(start, i);
      i++; // the closing quote (or past the end)
      continue;
    }
    if (c === '\\') {
      const next = line[i + 1];
      // At the end, or before a blank other than space or tab, the backslash is dropped (the blank splits).
      if (next === undefined || isBlankEscapeEnd(line.charCodeAt(i + 1))) {
        i++;
        continue;
      }
      word += next;
      i += 2;
      continue;
    }
    let j = i + 1;
    while (j < n) {
      const d = line[j]!;
      if (d === "'" || d === '"' || d === '\\' || isOperatorChar(d) || isBlank(line.charCodeAt(j))) break;
      j++;
    }
    word += line.slice(i, j);
    i = j;
  }
  flush();
  return entries;
}

/** A backslash before a blank other than space or tab is dropped and the blank splits (as shell-quote does). */
function isBlankEscapeEnd(code: number): boolean {
  return code !== 32 && code !== 9 && isBlank(code);
}
