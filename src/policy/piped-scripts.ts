// A command line a shell reads from a pipe (`echo 'git push' | sh`, `printf 'rm -rf x' | bash -s`,
// `echo 'cmd' | at now`): when the text comes from the command line itself (echo, printf or yes
// with literal words), it is a command line like `sh -c TEXT`'s and is analysed one level deeper,
// so deny rules, ceilings and the path scope hold for it. Any other producer (`cat x.sh | sh`)
// is a script nobody can read here, as `sh x.sh` is. Reading more than the shell runs can only
// add checks: when in doubt, a consumer counts as reading its input.
import { MAX_COMMAND_LENGTH } from './limits.ts';
import { basename } from './wrappers.ts';

const SHELLS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'ksh93',
  'mksh',
  'lksh',
  'oksh',
  'pdksh',
  'ash',
  'yash',
  'posh',
  'rbash',
  'rzsh',
  'busybox',
]);
/** Options of the shells above that take the next word as their value. */
/** bash's options whose value is a file it runs first (`bash --rcfile x.sh -i`). */
export const SHELL_FILE_OPTIONS: ReadonlySet<string> = new Set(['--rcfile', '--init-file']);
const SHELL_VALUE_OPTIONS: ReadonlySet<string> = new Set(['-o', '+o', '-O', '+O', ...SHELL_FILE_OPTIONS]);

/** The reading runs its standard input as shell commands. */
export function readsCommandsFromInput(view: readonly string[]): boolean {
  const verb = view[0];
  if (verb === undefined) return false;
  const name = basename(verb);
  // `at TIME`, `batch`: the job is read from standard input unless `-f FILE` names it.
  if (name === 'at' || name === 'batch') return !view.slice(1).some((w) => /^-[^-]*f/.test(w));
  return shellRuns(view) === INPUT;
}

/**
 * The script file a reading runs (`sh x.sh`, `bash -e x.sh`, `. ./x.sh`, `source x.sh`, `./x.sh`),
 * or null: the file's text is what the shell reads.
 */
export function scriptFileRun(view: readonly string[]): string | null {
  const verb = view[0];
  if (verb === undefined) return null;
  if (verb === '.' || verb === 'source') return view[view[1] === '--' ? 2 : 1] ?? null;
  if (!SHELLS.has(basename(verb))) return verb.includes('/') ? verb : null;
  const runs = shellRuns(view);
  return runs === INPUT ? null : runs;
}

const INPUT = Symbol('standard input');

/** What a shell reading runs: its input, a script file (the first operand), or neither (`-c`, no shell). */
function shellRuns(view: readonly string[]): typeof INPUT | string | null {
  const name = basename(view[0]!);
  if (!SHELLS.has(name)) return null;
  let i = 1;
  // `busybox sh`, `busybox ash`: the applet's words follow.
  if (name === 'busybox') {
    if (!SHELLS.has(view[1] ?? '') || view[1] === 'busybox') return null;
    i = 2;
  }
  for (; i < view.length; i++) {
    const word = view[i]!;
    if (word === '-') return INPUT;
    // `sh -- script`: a script file; `sh --` or `sh -- -`: the input.
    if (word === '--') return view[i + 1] === undefined || view[i + 1] === '-' ? INPUT : view[i + 1]!;
    if (SHELL_VALUE_OPTIONS.has(word)) {
      i++;
      continue;
    }
    const cluster = /^[-+][A-Za-z]+$/.test(word);
    // `-c`: the command is an argument (read through the wrappers table), not the input.
    if (cluster && word.includes('c')) return null;
    if (cluster && word.includes('s')) return INPUT;
    // Each o or O of a cluster takes the next word (`bash -euo pipefail x.sh`).
    if (cluster) i += word.replace(/[^oO]/g, '').length;
    if (word.startsWith('-') || word.startsWith('+')) continue;
    return word; // a script file: it is run, the input is its data
  }
  return INPUT;
}

/** `cat` without files and `tee`: what they read is what they print. */
export function passesInputOn(view: readonly string[]): boolean {
  const verb = view[0];
  if (verb === undefined) return false;
  const name = basename(verb);
  if (name === 'tee') return true;
  return name === 'cat' && view.slice(1).every((w) => w === '-' || (w.startsWith('-') && w.length > 1));
}

const ECHO_FLAGS = /^-[neE]+$/;

/**
 * What a reading prints when that is on the command line: echo's and yes's words, printf's format
 * applied to its words; empty when it is not one of them or prints what only the shell knows.
 * Both texts when they differ: as printed with the escapes read (dash's echo, printf) and as
 * written (bash's echo).
 */
export function printedTexts(view: readonly string[], expands: (word: string) => boolean): string[] {
  const text = printed(view, expands);
  if (text === null) return [];
  const read = unescapeText(text);
  return read === text ? [text] : [text, read];
}

function printed(view: readonly string[], expands: (word: string) => boolean): string | null {
  const verb = view[0];
  if (verb === undefined) return null;
  const name = basename(verb);
  if (name !== 'echo' && name !== 'yes' && name !== 'printf') return null;
  const words = view.slice(1);
  if (words.some(expands)) return null;
  if (name === 'echo') {
    let k = 0;
    while (k < words.length && ECHO_FLAGS.test(words[k]!)) k++;
    return words.slice(k).join(' ');
  }
  if (name === 'yes') return words.length === 0 ? null : words.join(' ');
  let k = 0;
  if (words[k] === '--') k++;
  if (words[k] === '-v') return null; // prints into a variable
  const format = words[k];
  return format === undefined ? null : formatted(format, words.slice(k + 1));
}

/**
 * printf's format over its arguments (reused while arguments remain): %s %b %c %d %i %u %%, with
 * flags, width and precision (`%-4s` pads, `%.3s` cuts: both change the words), `*` read from
 * the arguments. null for another conversion.
 */
function formatted(format: string, args: readonly string[]): string | null {
  let out = '';
  let next = 0;
  const take = (): string => args[next++] ?? '';
  do {
    let used = false;
    for (let i = 0; i < format.length; i++) {
      const c = format[i]!;
      if (c !== '%') {
        out += c;
        continue;
      }
      const spec = /^([-+ #0]*)(\*|[0-9]*)(?:\.(\*|[0-9]*))?([a-zA-Z%])?/.exec(format.slice(i + 1))!;
      const [whole, flags, widthSpec, precisionSpec, conversion] = spec;
      i += whole.length;
      if (conversion === '%') {
        out += '%';
        continue;
      }
      if (conversion === undefined || !'sbcdiu'.includes(conversion)) return null;
      const signed = widthSpec === '*' ? Number.parseInt(take(), 10) || 0 : Number(widthSpec || '0');
      // A negative width from the arguments left-justifies, as the `-` flag does.
      const left = (flags ?? '').includes('-') || signed < 0;
      const width = Math.abs(signed);
      const precision =
        precisionSpec === undefined
          ? null
          : precisionSpec === '*'
            ? Number.parseInt(take(), 10) || 0
            : Number(precisionSpec || '0');
      let value = take();
      used = true;
      if (conversion === 'c') value = value.slice(0, 1);
      else if (precision !== null && (conversion === 's' || conversion === 'b')) value = value.slice(0, precision);
      // Past the command cap nothing is parsed: a width bigger than that pads nothing it could not.
      const pad = ' '.repeat(Math.max(0, Math.min(width, MAX_COMMAND_LENGTH) - value.length));
      out += left ? value + pad : pad + value;
    }
    if (!used) break;
  } while (next < args.length);
  return out;
}

const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\n',
  v: '\n',
  f: '\n',
  a: ' ',
  b: ' ',
  e: ' ',
  c: ' ',
  '\\': '\\',
};

/**
 * Backslash escapes as dash's echo and printf read them: `\n` starts another command, `\040` is a
 * space. bash's echo prints them as they are: the caller reads both texts.
 */
function unescapeText(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(0?[0-7]{1,3}|x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|[\\ntrvfabec])/g, (m, e: string) => {
    if (e[0] === 'x' || e[0] === 'u') return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    return ESCAPES[e] ?? m;
  });
}
