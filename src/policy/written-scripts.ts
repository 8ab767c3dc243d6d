// A script the command writes and then runs (`echo 'rm -rf /' > x.sh; sh x.sh`, `… | tee x.sh; sh
// x.sh`, `cp a x.sh; . ./x.sh`, `sh < x.sh`): what it holds is only known when it runs, so the
// command asks (writesScriptItRuns). What echo and printf print into it is read as a command line
// too (WrittenScripts), so a deny rule or a ceiling inside still counts.
import type { AnalyzedCommand, AnalyzedFragment } from './analysis.ts';
import { MAX_NESTED_CHARACTERS } from './limits.ts';
import { FragmentPaths } from './path-words.ts';
import { printedTexts, readsCommandsFromInput, scriptFileRun, SHELL_FILE_OPTIONS } from './piped-scripts.ts';
import { printsInto, readsInputFrom, targetIsPath, writesTarget } from './redirections.ts';
import { hasGlob, isAssignment } from './tokenizer.ts';
import { writeTargets } from './write-targets.ts';
import type { Fragment } from './tokenizer.ts';

/** Variables whose value is a file a shell runs first (`BASH_ENV=x.sh bash -c ls`). */
const SOURCED_BY_VARIABLE = /^(BASH_ENV|ENV)=/;
/**
 * Variables naming the folder of the files a shell or a tool reads at start (`env HOME=. bash -lc
 * true` runs ./.bash_profile, `env ZDOTDIR=. zsh` ./.zshenv, `env HOME=. git status` ./.gitconfig):
 * any file written may be one of them, a run nobody can name.
 */
const STARTUP_FOLDER_VARIABLE = /^(HOME|ZDOTDIR|XDG_CONFIG_HOME)=/;

/**
 * The file's name, whatever path leads to it (`./x.sh`, `/projects/app/x.sh`, `d/../x.sh`), in
 * lower case: a case-insensitive file system (macOS) reads `X.SH` as `x.sh`.
 */
function fileName(path: string): string {
  const parts = path.split('/').filter((p) => p !== '');
  // macOS file systems also ignore Unicode normalization (é written as one code point or two).
  return (parts[parts.length - 1] ?? path).normalize('NFC').toLowerCase();
}

/**
 * The lines echo and printf print into each file, kept as the fragments are read: a later `sh x.sh`
 * reads them as command lines (one look-up per run). A file's lines stop at the nested budget.
 */
export class WrittenScripts {
  private readonly written = new Map<string, Set<string>>();
  private characters = 0;

  /** Records what `fragment` prints into files. */
  add(fragment: AnalyzedFragment): void {
    const targets = fragment.fragment.redirects.filter((r) => targetIsPath(r) && printsInto(r));
    if (targets.length === 0) return;
    const words = new FragmentPaths(fragment.fragment);
    const expands = (word: string): boolean => words.viewInfo(word)?.expands === true;
    const texts: string[] = [];
    for (const view of fragment.views) texts.push(...printedTexts(view, expands));
    for (const text of texts) this.characters += text.length;
    if (texts.length === 0 || this.characters > MAX_NESTED_CHARACTERS) return; // past the budget it asks anyway
    for (const r of targets) {
      const name = fileName(r.target!);
      const lines = this.written.get(name) ?? new Set<string>();
      for (const text of texts) lines.add(text);
      this.written.set(name, lines);
    }
  }

  /** The lines in the files the readings run. */
  linesRunBy(views: readonly (readonly string[])[]): readonly string[] {
    if (this.written.size === 0) return [];
    const lines = new Set<string>();
    for (const view of views) {
      const file = scriptFileRun(view);
      if (file !== null) for (const text of this.written.get(fileName(file)) ?? []) lines.add(text);
    }
    return [...lines];
  }
}

interface Seen {
  /** The readings of every fragment, for what they write: read only when something runs a script. */
  writers: Array<{ fragment: Fragment; views: readonly (readonly string[])[] }>;
  /** Names of the files it runs as scripts (a glob may be any of them). */
  run: string[];
  /** It runs a script nobody can name: from a descriptor, or a start-up file in a folder a variable names. */
  unnamedRun: boolean;
}

/** Whether the command, at any depth, runs a script file it may also write. */
export function writesScriptItRuns(command: AnalyzedCommand): boolean {
  const seen: Seen = { writers: [], run: [], unnamedRun: false };
  visitCommand(command, seen);
  if (seen.run.length === 0 && !seen.unnamedRun) return false; // most commands run no script
  const written = writtenNames(seen.writers);
  if (written.size === 0) return false;
  if (seen.unnamedRun) return true;
  // A glob on either side (`> buil[d].sh`, `sh x.s?`) may be any file, and so may the file find
  // hands to `-exec sh {} ;`.
  if ([...written].some(hasGlob)) return true;
  return seen.run.some((file) => hasGlob(file) || file.includes('{}') || written.has(fileName(file)));
}

/** The names of the files the fragments may write: redirect targets and what known writers write (write-targets.ts). */
function writtenNames(writers: Seen['writers']): Set<string> {
  const written = new Set<string>();
  for (const { fragment, views } of writers) {
    for (const r of fragment.redirects) if (targetIsPath(r) && writesTarget(r)) written.add(fileName(r.target));
    for (const view of views) {
      const targets = writeTargets(view);
      for (const path of targets.paths) written.add(fileName(path));
      for (const name of targets.into?.names ?? []) written.add(fileName(name));
    }
  }
  return written;
}

function visitCommand(command: AnalyzedCommand, seen: Seen): void {
  command.fragments.forEach((f, i) => {
    visitFragment(f.fragment, f.views, () => producers(command, i), seen);
    for (const exec of f.execs) visitFragment(exec, [exec.argv], () => [], seen);
    for (const nested of f.nested) visitCommand(nested, seen);
  });
  for (const sub of command.substitutions) visitCommand(sub, seen);
}

/** The fragments that pipe, one into the next, into fragment i. */
function producers(command: AnalyzedCommand, i: number): Fragment[] {
  const found: Fragment[] = [];
  for (let k = i - 1; k >= 0; k--) {
    const f = command.fragments[k]!.fragment;
    if (f.sep !== '|' && f.sep !== '|&') break;
    found.push(f);
  }
  return found;
}

function visitFragment(
  fragment: Fragment,
  views: readonly (readonly string[])[],
  /** The fragments piping into this one (walked back only for a shell that reads its input). */
  before: () => readonly Fragment[],
  seen: Seen,
): void {
  seen.writers.push({ fragment, views });
  let shell = false;
  let readsInput = false;
  for (const view of views) {
    const file = scriptFileRun(view);
    if (file !== null) seen.run.push(file);
    for (let i = 1; i < view.length - 1; i++) if (SHELL_FILE_OPTIONS.has(view[i]!)) seen.run.push(view[i + 1]!);
    const input = readsCommandsFromInput(view);
    shell ||= input || file !== null;
    readsInput ||= input;
  }
  // `sh < x.sh`, `sh 0<x.sh`, `sh /dev/stdin < x.sh`; `sh <&3`: a descriptor nobody here names.
  if (shell)
    for (const r of fragment.redirects) {
      if (targetIsPath(r) && readsInputFrom(r)) seen.run.push(r.target);
      if (r.op === '<&') seen.unnamedRun = true;
    }
  // `cat x.sh | sh`, `sort y | uniq | sh`: what any fragment of the pipeline names or reads.
  if (readsInput)
    for (const producer of before()) {
      for (const word of producer.argv.slice(1)) seen.run.push(word);
      for (const r of producer.redirects) if (r.target !== null) seen.run.push(r.target);
    }
  for (const word of fragment.argv) {
    if (!isAssignment(word)) continue;
    if (SOURCED_BY_VARIABLE.test(word)) seen.run.push(word.slice(word.indexOf('=') + 1));
    if (STARTUP_FOLDER_VARIABLE.test(word)) seen.unnamedRun = true;
  }
}
