// A linear, quote-aware pre-pass over a command line, before shell-quote sees it. It finds what
// shell-quote cannot represent faithfully (substitutions, subshells, here-docs, comments...),
// splits on unquoted newlines (shell-quote reads a newline as a blank), and rewrites the line so
// that the line reader's reading is the shell's: `$` is escaped (no expansion ever happens, `$HOME`
// stays literal; one the shell would expand is marked), unquoted glob characters are marked, a word-leading fd number of a redirection (`2>`) is marked for the tokenizer, a `#` inside a
// word is escaped, backticks become separators. One pass, no regular expressions, no recursion.

export type UnsafeKind =
  | 'command_substitution'
  | 'backtick_substitution'
  | 'process_substitution'
  | 'subshell'
  | 'brace_group'
  | 'here_document'
  | 'line_continuation'
  | 'comment'
  | 'unbalanced_quotes'
  | 'control_character'
  | 'ansi_c_quoting'
  | 'case_terminator'
  | 'non_ascii_verb'
  | 'glob_verb'
  | 'expansion_verb'
  | 'unicode_space'
  | 'tokenizer_error'
  | 'nesting_too_deep'
  | 'tokenizer_self_test_failed'
  | 'script_side_effect'
  | 'alias_definition'
  | 'script_written_and_run';

/** One construct that keeps a command from being auto-approved; `what` is for people. */
export interface UnsafeFinding {
  kind: UnsafeKind;
  what: string;
}

export const UNSAFE_WHAT: Readonly<Record<UnsafeKind, string>> = Object.freeze({
  command_substitution: 'command substitution $(…)',
  backtick_substitution: 'command substitution `…`',
  process_substitution: 'process substitution <(…) or >(…)',
  subshell: 'subshell ( … )',
  brace_group: 'brace group or brace expansion { … }',
  here_document: 'here-document or here-string <<',
  line_continuation: 'line continuation (backslash-newline)',
  comment: 'comment # that hides the rest of the line',
  unbalanced_quotes: 'unbalanced quotes',
  control_character: 'control character',
  ansi_c_quoting: 'ANSI-C or locale quoting $\'…\' / $"…"',
  case_terminator: 'case terminator ;; or ;&',
  non_ascii_verb: 'non-ASCII character in a command name',
  glob_verb: 'glob * ? [ … ] in a command name (the shell picks what runs)',
  expansion_verb: 'a $variable in a command name (what runs is only known when the shell expands it)',
  unicode_space: 'Unicode space the shell does not split words on',
  tokenizer_error: 'text the tokenizer could not read',
  nesting_too_deep: 'commands nested too deeply (sh -c, eval, substitutions, wrappers)',
  tokenizer_self_test_failed: 'the tokenizer self-test failed (shell-quote does not behave as expected)',
  script_side_effect:
    'a sed or awk program that writes, reads or runs other files or commands (w, r, e, system, |, >, getline, -f)',
  alias_definition:
    'an alias definition (/bin/sh expands it in the lines that follow, so the words judged are not what runs)',
  script_written_and_run:
    'a script the same command writes and then runs (what it holds is only known when it runs: approve it after reading it)',
});

export interface ScanResult {
  /** Rewritten lines, each safe to hand to shell-quote. */
  lines: string[];
  findings: UnsafeFinding[];
  /** Bodies of `…` and "$(…)" that the token stream does not expose (for deny look-through). */
  substitutions: string[];
}

const WORD_BREAK = ' \t\r;&|()<>';

/**
 * Marks the fd number of a redirection (`2>`) as a word of its own for the tokenizer. A control
 * character: input that contains one is unsafe anyway, so a forged mark can never help a command.
 */
export const FD_MARK = '\u0001';
/** Marks a `$` the shell expands (unquoted or inside double quotes), or an unquoted leading `~`: quoted or escaped ones are literal. */
export const EXPAND_MARK = '\u0002';
/** Marks an unquoted glob character (`*`, `?`, `[`, `]`): quoted or escaped ones are literal. */
export const GLOB_MARK = '\u0003';

/** What may follow a `$` for the shell to expand it: a name, a digit, a special parameter, `{`. */
/**
 * `$?`, `$#`, `$$`, `$!`, `$-`: parameters whose value is only digits or option letters. They name
 * no path, so the pair is one literal word part (`echo "exit: $?"` stays a plain echo).
 */
function isNumericParameter(c: string | undefined): boolean {
  return c !== undefined && '?#$!-'.includes(c);
}

function startsExpansion(c: string | undefined): boolean {
  if (c === undefined) return false;
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || '_@*#?$!-{'.includes(c);
}

function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x0a && code !== 0x09) || code === 0x7f;
}

// Characters JavaScript's \s matches (and so shell-quote splits on) that a shell keeps in a word.
const UNICODE_SPACES =
  '\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u0085';

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

/** Characters copied as they are when unquoted (word characters with no meaning to the shell). */
const RUN = new Uint8Array(128);
// No blank: a digit after one starts a word (an fd number, `2>`), which the slow path reads.
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./,+%@-=:') RUN[c.charCodeAt(0)] = 1;

/** Characters of an arithmetic expansion made only of numbers and operators. */
const ARITHMETIC = new Uint8Array(128);
for (const c of '0123456789 \t+-*/%()<>=!~^&|?:,') ARITHMETIC[c.charCodeAt(0)] = 1;

/**
 * Where `$((…))` at command[at] ends (the index after its `))`), when its body holds only numbers,
 * blanks and operators: a number, never a path nor a command. -1 otherwise (a name in it may be
 * evaluated indirectly, `x='a[$(id)]'; $((x))` runs id in bash), and the `$(` is read as before.
 */
function pureArithmeticEnd(command: string, at: number): number {
  if (command[at + 1] !== '(' || command[at + 2] !== '(') return -1;
  let depth = 0;
  for (let k = at + 3; k < command.length; k++) {
    const c = command[k]!;
    const code = c.charCodeAt(0);
    if (ARITHMETIC[code] !== 1) return -1; // past the table (code >= 128) is undefined too
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth > 0) depth--;
      else return command[k + 1] === ')' ? k + 2 : -1;
    }
  }
  return -1;
}

export function scanCommand(command: string): ScanResult {
  const lines: string[] = [];
  const found = new Set<UnsafeKind>();
  const substitutions: string[] = [];
  const flag = (kind: UnsafeKind): void => {
    found.add(kind);
  };

  // The line being rewritten, as chunks, and its last character: reading the end of a string
  // built with += flattens it, which made `A=1 A=1 …` and `a####…` quadratic.
  let parts: string[] = [];
  let last = '';
  const emit = (text: string): void => {
    parts.push(text);
    last = text[text.length - 1]!;
  };
  const endLine = (): void => {
    lines.push(parts.join(''));
    parts = [];
    last = '';
  };
  let quote: '' | "'" | '"' = '';
  const parenKinds: Array<'sub' | 'group'> = [];
  let paramDepth = 0; // inside ${…}
  let backtickStart = -1; // raw index after an unquoted opening backtick
  let closeParen = 0; // the next `)` after a `$(` in double quotes (-1: none left; 0: not searched)
  const n = command.length;

  // At a line start `last` is '', which includes() finds in any string.
  const atWordStart = (): boolean => WORD_BREAK.includes(last);

  for (let i = 0; i < n; i++) {
    const c = command[i]!;
    const code = c.charCodeAt(0);
    if (isControl(code)) flag('control_character');
    else if (quote === '' && UNICODE_SPACES.includes(c)) flag('unicode_space');

    if (quote === "'") {
      // The whole quoted run at once (one chunk, not one per character); controls still flagged.
      const close = command.indexOf("'", i); // -1: never closed
      const end = close === -1 ? n : close + 1;
      // Stryker disable next-line ArithmeticOperator: k = i - 1 only re-reads the opening quote, never a control character
      for (let k = i + 1; k < end; k++) if (isControl(command.charCodeAt(k))) flag('control_character');
      emit(command.slice(i, end));
      if (close !== -1) quote = '';
      i = end - 1;
      continue;
    }

    if (quote === '' && RUN[code] === 1 && !(isDigit(c) && atWordStart())) {
      // A run of characters that mean nothing to the shell here: one chunk.
      let j = i + 1;
      while (j < n && RUN[command.charCodeAt(j)] === 1) j++;
      emit(command.slice(i, j));
      i = j - 1;
      continue;
    }

    if (quote === '"') {
      if (c === '"') {
        quote = '';
        emit(c);
      } else if (c === '\\') {
        const next = command[i + 1];
        if (next === '\n') {
          i++; // backslash-newline joins the lines, inside double quotes too
        } else if (next !== undefined) {
          emit(c + next);
          i++;
        }
      } else if (c === '$' && pureArithmeticEnd(command, i) > 0) {
        // `"$((1+2))"`: inside double quotes the operators are literal to the tokenizer.
        const end = pureArithmeticEnd(command, i);
        emit('\\$' + command.slice(i + 1, end));
        i = end - 1;
      } else if (c === '$') {
        if (command[i + 1] === '(') {
          flag('command_substitution');
          // One search per run of `$(`: `"$($($(…"` must not rescan the rest of the line each time.
          if (closeParen !== -1 && closeParen < i + 2) closeParen = command.indexOf(')', i + 2);
          substitutions.push(command.slice(i + 2, closeParen < 0 ? n : closeParen));
        }
        if (isNumericParameter(command[i + 1])) {
          // Inside double quotes only `$` of these needs its backslash (`\?` would stay two characters).
          emit(command[i + 1] === '$' ? '\\$\\$' : '\\$' + command[i + 1]);
          i++;
        } else emit(startsExpansion(command[i + 1]) || command[i + 1] === '(' ? EXPAND_MARK + '\\$' : '\\$');
      } else if (c === '`') {
        flag('backtick_substitution');
        const close = command.indexOf('`', i + 1);
        substitutions.push(command.slice(i + 1, close < 0 ? n : close));
        emit(c);
      } else {
        emit(c);
      }
      continue;
    }

    // Unquoted.
    switch (c) {
      case '\n':
        endLine();
        break;
      case '\\': {
        const next = command[i + 1];
        if (next === '\n') {
          // Backslash-newline: the shell joins the two lines into one (`git add a \⏎ b`).
        } else if (next === undefined) {
          flag('line_continuation');
        } else {
          emit(c + next);
        }
        i++;
        break;
      }
      case "'":
        quote = "'";
        emit(c);
        break;
      case '"':
        quote = '"';
        emit(c);
        break;
      case '$': {
        const next = command[i + 1];
        const arithmetic = pureArithmeticEnd(command, i);
        if (arithmetic > 0) {
          // `$((1+2))`: one word, every operator escaped so the tokenizer keeps it whole.
          let text = '\\$';
          for (let k = i + 1; k < arithmetic; k++)
            text += RUN[command.charCodeAt(k)] === 1 ? command[k] : '\\' + command[k];
          emit(text);
          i = arithmetic - 1;
        } else if (next === '(') {
          flag('command_substitution');
          parenKinds.push('sub');
          emit(' (');
          i++;
        } else if (next === "'" || next === '"') {
          flag('ansi_c_quoting');
          emit('\\$');
        } else if (next === '{') {
          paramDepth++;
          emit(EXPAND_MARK + '\\${');
          i++;
        } else if (isNumericParameter(next)) {
          emit('\\$\\' + next);
          i++;
        } else {
          emit(startsExpansion(next) ? EXPAND_MARK + '\\$' : '\\$');
        }
        break;
      }
      case '`':
        flag('backtick_substitution');
        if (backtickStart < 0) {
          backtickStart = i + 1;
        } else {
          substitutions.push(command.slice(backtickStart, i));
          backtickStart = -1;
        }
        emit(' ; ');
        break;
      case '(':
        flag('subshell');
        parenKinds.push('group');
        emit(c);
        break;
      case ')':
        if (parenKinds.length === 0) flag('subshell');
        else parenKinds.pop();
        emit(c);
        break;
      case '<':
      case '>': {
        const next = command[i + 1];
        if (next === '(') {
          flag('process_substitution');
          parenKinds.push('sub');
          emit(c + next);
          i++;
          break;
        } else if (c === '<' && next === '<') {
          flag('here_document');
        }
        emit(c);
        break;
      }
      case '{':
        if (command[i + 1] === '}') {
          emit('{}');
          i++;
        } else {
          flag('brace_group');
          emit('\\{');
        }
        break;
      case '}':
        if (paramDepth > 0) {
          paramDepth--;
          emit(c);
        } else {
          flag('brace_group');
          emit('\\}');
        }
        break;
      case '#':
        if (atWordStart()) {
          flag('comment');
          // The shell ignores the rest of the line: so do we (the finding keeps it from passing).
          const newline = command.indexOf('\n', i);
          i = newline < 0 ? n : newline - 1;
        } else {
          emit('\\#');
        }
        break;
      case ';':
        if (command[i + 1] === ';' || command[i + 1] === '&') flag('case_terminator');
        emit(c);
        break;
      default:
        if (isDigit(c) && atWordStart()) {
          let j = i;
          while (j < n && isDigit(command[j]!)) j++;
          if (command[j] === '>' || command[j] === '<') {
            // `2>file`: the fd number is part of the redirection, not a word of the command. It
            // travels as a marked word the tokenizer folds into the operator (for the text).
            emit(FD_MARK + command.slice(i, j) + ' ');
            i = j - 1;
            break;
          }
          emit(command.slice(i, j));
          i = j - 1;
          break;
        }
        if (c === '*' || c === '?' || c === '[' || c === ']') emit(GLOB_MARK);
        // An unquoted `~` at a word start, or after `=` or `:` (assignments), is the home directory.
        else if (c === '~' && (atWordStart() || last === '=' || last === ':')) emit(EXPAND_MARK);
        emit(c);
    }
  }
  if (backtickStart >= 0) substitutions.push(command.slice(backtickStart));
  if (quote !== '') {
    flag('unbalanced_quotes');
    emit(quote); // close it so the tokens we still need for deny matching come out whole
  }
  if (parenKinds.length > 0) flag('subshell');
  endLine();

  const findings = [...found].map((kind) => ({ kind, what: UNSAFE_WHAT[kind] }));
  return { lines, findings, substitutions };
}
