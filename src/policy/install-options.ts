// How installers spell their options (global-installs.ts): `--` ends the options, npm's and pip's
// Booleans, a destination the path scope can judge as written, long options optparse and nopt take
// abbreviated, and every spelling of npm's global flag.
import { PIP_EXACT } from './global-install-tables.ts';
/** No word after `--` is an option (`npm i -- -g` installs a package named -g). */
export function optionWords(words: readonly string[]): readonly string[] {
  const end = words.indexOf('--');
  return end === -1 ? words : words.slice(0, end);
}
export const valueOf = (word: string): string => word.slice(word.indexOf('=') + 1);
/** npm's Boolean: false for `false`, `null`, empty or a zero number; anything else is true. */
export const npmTrue = (v: string): boolean => !(v === '' || v === 'false' || v === 'null' || Number(v) === 0);
/** pip's and uv's strtobool. */
export const pipTrue = (v: string): boolean => !['', '0', 'false', 'no', 'off', 'n', 'f'].includes(v.toLowerCase());
/** A destination the path scope judges as written: relative, with no `..`, `~` or expansion. */
export const plainRelative = (v: string | undefined): boolean =>
  v !== undefined && v !== '' && !/^[/~-]/.test(v) && !/[$`]/.test(v) && !v.split('/').includes('..');

export interface Found {
  word: string;
  value: string | undefined;
}
/**
 * The first of `names` in `words`, as `--name value`, `--name=value` or `-xVALUE`; with
 * `abbreviated`, a unique prefix of a long name too (optparse's `--us`, `--targ=x`).
 */
export function option(words: readonly string[], names: Iterable<string>, abbreviated = false): Found | undefined {
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const eq = word.indexOf('=');
    const key = eq === -1 ? word : word.slice(0, eq);
    for (const n of names) {
      const prefix = abbreviated && key.length >= 4 && key.startsWith('--') && n.startsWith(key);
      if (key === n || (prefix && !PIP_EXACT.has(key)))
        return { word, value: eq === -1 ? words[i + 1] : word.slice(eq + 1) };
      if (n.length === 2 && !n.startsWith('--') && key.startsWith(n)) return { word, value: word.slice(2) };
    }
  }
  return undefined;
}

/** `-g`, a cluster with g (`-gAf`), `--global[=true]`, `--location[=] global|user` (npm's `--loca` too). */
export function globalFlag(words: readonly string[]): string | null {
  const opts = optionWords(words);
  for (let i = 0; i < opts.length; i++) {
    const w = opts[i]!;
    const key = w.split('=')[0]!;
    if (/^-[a-zA-Z]+$/.test(w) && w.includes('g')) return w;
    if ((key === '-g' || key === '--global') && (w === key || npmTrue(valueOf(w)))) return w;
    const value = locationAt(opts, i);
    if (value === 'global' || value === 'user') return w === key ? `${w} ${value}` : w;
  }
  return null;
}

/** The value of npm's `--location[=]x` (or an abbreviation down to `--loca`) at opts[i]; undefined for another word. */
export function locationAt(opts: readonly string[], i: number): string | undefined {
  const w = opts[i]!;
  const key = w.split('=')[0]!;
  if (key.length < 6 || !key.startsWith('--') || !'location'.startsWith(key.slice(2))) return undefined;
  return w === key ? opts[i + 1] : valueOf(w);
}
