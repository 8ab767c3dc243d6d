// Turns a command line into fragments the policy can judge: the pre-pass (shell-scan.ts) makes
// the reading faithful, the line reader (line-reader.ts, shell-quote's reading in one linear
// pass) splits words and operators, and this file groups them into fragments (split on && || ; |
// |& & and newlines; redirections stay in their fragment). Behaviours we rely on are checked by
// tokenizerSelfTest(); decide() fails closed when it does not pass.
import { quote } from 'shell-quote';
import { operatorAt, readLine } from './line-reader.ts';
import type { Entry } from './line-reader.ts';
import { EXPAND_MARK, FD_MARK, GLOB_MARK, scanCommand, UNSAFE_WHAT } from './shell-scan.ts';
import type { UnsafeFinding } from './shell-scan.ts';

export type { UnsafeFinding, UnsafeKind } from './shell-scan.ts';

/** What the shell does to a word beyond removing its quotes; known only for words read from a command line. */
export interface WordInfo {
  /** The word has a `$` the shell expands (unquoted or in double quotes); quoted or escaped ones are literal. */
  expands: boolean;
  /** The word has an unquoted `~` the shell replaces with a home directory (at its start, or after `=` / `:`). */
  home?: boolean;
  /**
   * The word as a shell pattern when it has unquoted glob characters (quoted ones are escaped
   * with `\` here, as they are literal), null otherwise.
   */
  glob: string | null;
}

/** A word or an operator, in source order. `info` is absent for a plain word. */
export type Item = { word: string; info?: WordInfo } | { op: string; fd?: string };

export interface Redirect {
  op: string;
  /** The fd number written before the operator (`2>`), when there was one. */
  fd?: string;
  /** The word after the operator (a path, or an fd for `>&`), null when missing. */
  target: string | null;
  /** What the shell does to the target (absent: a plain word). */
  targetInfo?: WordInfo;
}

export interface Fragment {
  /** Every word and operator of the fragment, in order. */
  items: Item[];
  /** The words that are not redirections nor their targets: the command and its arguments. */
  argv: string[];
  /**
   * Per argv word, what the shell does to it (undefined: a plain word). Absent when the fragment
   * was built from words (`find -exec`): then wordInfo() judges by the characters.
   */
  argvInfo?: (WordInfo | undefined)[];
  redirects: Redirect[];
  /** For people: the fragment rendered back to shell text. */
  text: string;
  /** The operator that ended the fragment (`&&`, `||`, `;`, `|`, `|&`, `&`, `(`, `)`), `\n` at a line end. */
  sep: string;
}

/** What the shell does to one word; without knowledge from the line, any `$` or glob character counts. */
export function wordInfo(word: string, info: WordInfo | undefined, known: boolean): WordInfo | undefined {
  if (known) return info;
  const expands = word.includes('$');
  const glob = hasGlob(word) ? word : null;
  const home = word.startsWith('~') || word.includes('=~') || word.includes(':~');
  return expands || glob !== null || home ? { expands, glob, home } : undefined;
}

/** Strips the pre-pass's marks from a word and says what they marked. One scan, built from slices. */
function decodeWord(raw: string): { word: string; info?: WordInfo } {
  if (raw.indexOf(EXPAND_MARK) < 0 && raw.indexOf(GLOB_MARK) < 0) return { word: raw };
  const word: string[] = [];
  const glob: string[] = [];
  let expands = false;
  let home = false;
  let globbing = false;
  let from = 0; // start of the run of ordinary characters not yet copied
  const copy = (to: number): void => {
    word.push(raw.slice(from, to)); // empty when nothing is pending: join() drops it
    glob.push(raw.slice(from, to));
  };
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === EXPAND_MARK) {
      copy(i);
      from = i + 1;
      if (raw[i + 1] === '~') home = true;
      else expands = true;
    } else if (c === GLOB_MARK && i + 1 < raw.length) {
      copy(i);
      const g = raw[++i]!;
      word.push(g);
      glob.push(g);
      if (g !== ']') globbing = true;
      from = i + 1;
    } else if (c === '*' || c === '?' || c === '[' || c === ']' || c === '\\') {
      // A quoted or escaped glob character (or a backslash) is literal in the pattern.
      copy(i);
      word.push(c);
      glob.push('\\' + c);
      from = i + 1;
    }
  }
  copy(raw.length);
  const info: WordInfo = { expands, glob: globbing ? glob.join('') : null };
  if (home) info.home = true;
  return { word: word.join(''), info };
}

export interface TokenizedCommand {
  fragments: Fragment[];
  findings: UnsafeFinding[];
  /** Bodies of substitutions hidden inside one word (deny look-through tokenizes them too). */
  substitutions: string[];
}

const SEPARATORS = new Set(['&&', '||', ';', '|', '|&', '&', ';;', ';&', ';;&', '(', ')', '<(', '>(']);
const REDIRECTIONS = new Set(['>', '>>', '<', '>|', '&>', '&>>', '>&', '<&', '<>', '<<', '<<<', '<<-']);

// The fast path. A line made only of characters that mean nothing inside an unquoted word
// (globs `*` `?` stay literal tokens either way), blanks, and the operator characters & | ; < >
// is read here exactly as shell-quote reads it (its operators, longest first); anything else
// (quotes, backslashes, $, parentheses...) goes to shell-quote. Most agent commands take this
// path, and shell-quote is most of decide()'s cost. A property test compares both readings.
const PLAIN = new Uint8Array(128);
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,*?' +
  FD_MARK +
  EXPAND_MARK +
  GLOB_MARK)
  PLAIN[c.charCodeAt(0)] = 1;

/** shell-quote's reading of a simple line, or null when the line needs shell-quote. One scan. */
export function simpleEntries(line: string): Entry[] | null {
  const entries: Entry[] = [];
  let start = -1;
  for (let i = 0; i <= line.length; i++) {
    const code = i === line.length ? 32 : line.charCodeAt(i);
    // Past the table (code >= 128) the lookup is undefined, not 1.
    if (PLAIN[code] === 1) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) entries.push(line.slice(start, i));
    start = -1;
    if (code === 32 || code === 9) continue;
    if (code === 38 || code === 124 || code === 59 || code === 60 || code === 62) {
      const op = operatorAt(line, i);
      entries.push({ op });
      i += op.length - 1;
      continue;
    }
    return null;
  }
  return entries;
}

/** The fast path's reading, else the line reader's. */
function readEntries(line: string): Entry[] {
  return simpleEntries(line) ?? readLine(line);
}

function parseLine(line: string): Item[] {
  const items: Item[] = [];
  let fd: string | undefined;
  for (const entry of readEntries(line)) {
    if (typeof entry === 'string') {
      if (entry.startsWith(FD_MARK)) fd = entry.slice(FD_MARK.length);
      else items.push(decodeWord(entry));
      continue;
    }
    const op = entry.op;
    if (fd !== undefined && REDIRECTIONS.has(op)) items.push({ op, fd });
    else items.push(entry);
    fd = undefined;
  }
  return items;
}

/**
 * shell-quote's quote() is super-linear in the length of a word (20x the time for 10x the
 * length): past this length a word is rendered by singleQuoted(), which is linear.
 */
const QUOTE_LIMIT = 1024;

/** `'…'` with each `'` written as `'\''`: the shell reads it back as the same word. */
function singleQuoted(word: string): string {
  return `'${word.split("'").join("'\\''")}'`;
}

/** A word as shell text: bare when it only has characters no shell treats specially. */
export function renderWord(word: string): string {
  if (word === '') return "''";
  if (word === '{}') return word; // find's placeholder: no shell expands it
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    const plain =
      (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || '_./:=@%+,-'.includes(c);
    if (!plain) return word.length <= QUOTE_LIMIT ? quote([word]) : singleQuoted(word);
  }
  return word;
}

function renderItems(items: readonly Item[]): string {
  let text = '';
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (i > 0) text += ' ';
    text += 'op' in item ? (item.fd ?? '') + item.op : renderWord(item.word);
  }
  return text;
}

function buildFragment(items: Item[], sep: string): Fragment {
  const argv: string[] = [];
  const argvInfo: (WordInfo | undefined)[] = [];
  const redirects: Redirect[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if ('word' in item) {
      argv.push(item.word);
      argvInfo.push(item.info);
      continue;
    }
    const next = items[i + 1];
    const target = next !== undefined && 'word' in next ? next.word : null;
    const redirect: Redirect = item.fd !== undefined ? { op: item.op, fd: item.fd, target } : { op: item.op, target };
    if (next !== undefined && 'word' in next && next.info !== undefined) redirect.targetInfo = next.info;
    redirects.push(redirect);
    if (target !== null) i++;
  }
  return { items, argv, argvInfo, redirects, text: renderItems(items), sep };
}

/** A fragment of plain words (no redirections): what `find -exec` runs. */
export function fragmentOfWords(words: readonly string[]): Fragment {
  return {
    items: words.map((word) => ({ word })),
    argv: [...words],
    redirects: [],
    text: words.map(renderWord).join(' '),
    sep: '\n',
  };
}

/** Whether a word has glob characters the shell would expand: `*`, `?`, or `[` … `]`. One scan. */
export function hasGlob(word: string): boolean {
  let open = false;
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (c === '*' || c === '?' || (open && c === ']')) return true;
    if (c === '[') open = true;
  }
  return false;
}

function isAsciiPrintable(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

/** `NAME=value` as a leading environment assignment (a scan, no regex). */
export function isAssignment(word: string): boolean {
  const eq = word.indexOf('=');
  if (eq <= 0) return false;
  for (let i = 0; i < eq; i++) {
    const c = word[i]!;
    const ok = c === '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

/** The command name: the first word that is not a leading assignment. */
export function verbOf(argv: readonly string[]): string | undefined {
  for (const word of argv) if (!isAssignment(word)) return word;
  return undefined;
}

export function tokenize(command: string): TokenizedCommand {
  const scan = scanCommand(command);
  const findings = [...scan.findings];
  const fragments: Fragment[] = [];
  for (const line of scan.lines) {
    let current: Item[] = [];
    const flush = (sep: string): void => {
      if (current.length > 0) fragments.push(buildFragment(current, sep));
      current = [];
    };
    for (const item of parseLine(line)) {
      if ('op' in item && SEPARATORS.has(item.op)) flush(item.op);
      else current.push(item);
    }
    flush('\n');
  }
  for (const fragment of fragments) {
    const verb = verbOf(fragment.argv);
    if (verb !== undefined && !isAsciiPrintable(verb)) {
      findings.push({ kind: 'non_ascii_verb', what: UNSAFE_WHAT.non_ascii_verb });
      break;
    }
  }
  return { fragments, findings: dedupeFindings(findings), substitutions: scan.substitutions };
}

/** One finding per kind, the first of each kept. */
export function dedupeFindings(findings: UnsafeFinding[]): UnsafeFinding[] {
  const seen = new Set<string>();
  return findings.filter((f) => (seen.has(f.kind) ? false : (seen.add(f.kind), true)));
}

interface SelfTestCase {
  command: string;
  argvs: string[][];
}

// Each case pins one behaviour the engine relies on (fragments as argv lists).
const SELF_TEST_CASES: readonly SelfTestCase[] = [
  { command: 'echo $HOME ${HOME} "$HOME"', argvs: [['echo', '$HOME', '${HOME}', '$HOME']] },
  { command: 'a && b || c ; d | e |& f & g', argvs: [['a'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g']] },
  { command: 'a\nb', argvs: [['a'], ['b']] },
  { command: 'ls *.ts /x/*', argvs: [['ls', '*.ts', '/x/*']] },
  { command: `echo "a b" 'c d' e\\ f c'u'rl`, argvs: [['echo', 'a b', 'c d', 'e f', 'curl']] },
  { command: '2>/dev/null cat x >>y <z', argvs: [['cat', 'x']] },
  { command: 'cmd >|a &>b >&2', argvs: [['cmd']] },
  { command: 'git log --format=%H a#b', argvs: [['git', 'log', '--format=%H', 'a#b']] },
  { command: 'find . -exec ls {} ;', argvs: [['find', '.', '-exec', 'ls', '{}']] },
  { command: 'FOO=1 pnpm test:unit', argvs: [['FOO=1', 'pnpm', 'test:unit']] },
];

function sameArgvs(actual: string[][], expected: string[][]): boolean {
  return JSON.stringify(actual) === JSON.stringify(expected);
}

/** Checks the shell-quote behaviours we rely on. */
export function tokenizerSelfTest(): { ok: true } | { ok: false; failures: string[] } {
  const failures: string[] = [];
  for (const c of SELF_TEST_CASES) {
    try {
      const result = tokenize(c.command);
      const argvs = result.fragments.map((f) => f.argv);
      if (!sameArgvs(argvs, c.argvs) || result.findings.length > 0) {
        failures.push(
          `${JSON.stringify(c.command)} gave ${JSON.stringify(argvs)}, expected ${JSON.stringify(c.argvs)}`,
        );
      }
    } catch (error) {
      failures.push(`${JSON.stringify(c.command)} threw ${String(error)}`);
    }
  }
  // Redirection targets stay in their fragment.
  try {
    const redirect = tokenize('echo x > /etc/passwd').fragments[0]?.redirects[0];
    if (redirect?.op !== '>' || redirect.target !== '/etc/passwd') failures.push('redirect target not kept');
  } catch (error) {
    failures.push(`redirect case threw ${String(error)}`);
  }
  return failures.length === 0 ? { ok: true } : { ok: false, failures };
}

let selfTestVerdict: ReturnType<typeof tokenizerSelfTest> | undefined;

/** The self-test, run once per process. */
export function tokenizerHealthy(): boolean {
  selfTestVerdict ??= tokenizerSelfTest();
  return selfTestVerdict.ok;
}
