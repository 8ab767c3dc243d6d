// What a redirection does with its target, for the path scope (scope.ts) and for the scripts a
// command writes and runs (written-scripts.ts): a path read or written, or a descriptor.
import type { Redirect } from './tokenizer.ts';

const FD_DUPLICATIONS: ReadonlySet<string> = new Set(['>&', '<&']);
const NOT_PATHS: ReadonlySet<string> = new Set(['<<', '<<<', '<<-']);
/** `>&word` is `&>word` in bash unless word is a descriptor. */
const WRITES: ReadonlySet<string> = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);
/** Standard input from a file: `<`, `<>` (with no descriptor, or 0). */
const READS: ReadonlySet<string> = new Set(['<', '<>']);
/** Standard output into a file (with no descriptor, or 1). */
const PRINTS: ReadonlySet<string> = new Set(['>', '>>', '>|', '&>', '&>>']);

function isFdNumber(word: string): boolean {
  if (word === '-') return true;
  if (word === '') return false;
  for (const c of word) if (c < '0' || c > '9') return false;
  return true;
}

/** Whether a redirect's target may name a path: not a here-doc word, not a descriptor after `>&`/`<&` (`> 2` writes a file named 2). */
export function targetIsPath(r: Redirect): r is Redirect & { target: string } {
  if (r.target === null || NOT_PATHS.has(r.op)) return false;
  return !(FD_DUPLICATIONS.has(r.op) && isFdNumber(r.target));
}

/** Whether the redirect (with a path target) writes it. */
export function writesTarget(r: Redirect): boolean {
  return WRITES.has(r.op);
}

/** Whether the redirect (with a path target) is the command's standard input. */
export function readsInputFrom(r: Redirect): boolean {
  return READS.has(r.op) && (r.fd === undefined || r.fd === '0');
}

/** Whether the redirect (with a path target) sends the command's standard output into it. */
export function printsInto(r: Redirect): boolean {
  return PRINTS.has(r.op) && (r.fd === undefined || r.fd === '1');
}
