// Everything decide() needs to know about a terminal command, computed once: fragments, the
// readings behind wrappers, the commands hidden in `sh -c` strings and substitutions (bounded
// depth), and the unsafe constructs found anywhere.
import { dedupeFindings, fragmentOfWords, hasGlob, isAssignment, tokenize } from './tokenizer.ts';
import { FragmentPaths } from './path-words.ts';
import { passesInputOn, printedTexts, readsCommandsFromInput } from './piped-scripts.ts';
import { WrittenScripts, writesScriptItRuns } from './written-scripts.ts';
import type { Fragment, TokenizedCommand, UnsafeFinding } from './tokenizer.ts';
import { UNSAFE_WHAT } from './shell-scan.ts';
import { basename, unwrap } from './wrappers.ts';
import { scriptSideEffect } from './script-effects.ts';
import { MAX_NESTED_CHARACTERS } from './limits.ts';

/** `sh -c "sh -c '…'"` deeper than this is not read further: it is unsafe. */
export const MAX_NESTING = 3;

// Shared by every fragment without nested commands; frozen, so a push would throw, not leak.
const NO_COMMANDS: AnalyzedCommand[] = Object.freeze([]) as unknown as AnalyzedCommand[];

export interface AnalyzedFragment {
  fragment: Fragment;
  /** argv plus every reading behind wrappers (for deny and ceilings; never for allow). */
  views: readonly (readonly string[])[];
  /** A reading was cut short: deny matching then tries every position of argv. */
  truncated: boolean;
  /** Commands found in `sh -c STRING` / `env -S STRING`, analysed one level deeper. */
  nested: AnalyzedCommand[];
  /** Commands `find -exec` runs: judged like extra fragments (allow matching too). */
  execs: readonly Fragment[];
}

export interface AnalyzedCommand {
  tokenized: TokenizedCommand;
  fragments: AnalyzedFragment[];
  /** Commands inside `…` / "$(…)" that the tokens do not expose. */
  substitutions: AnalyzedCommand[];
  /** Unsafe constructs found here or at any depth below. */
  findings: UnsafeFinding[];
}

/**
 * Command lines analysed below the top one, in all (`sh -c`, `eval`, substitutions...). Each is
 * analysed in time linear in its length; the budget keeps their number constant, so wrappers
 * stacked on wrappers (`eval eval eval …`) cannot multiply the work. Past it: unsafe, never auto.
 */
export const MAX_NESTED_COMMANDS = 48;

export function analyzeCommand(
  command: string,
  depth = 0,
  budget = { left: MAX_NESTED_COMMANDS, characters: MAX_NESTED_CHARACTERS },
): AnalyzedCommand {
  const tokenized = tokenize(command);
  const findings: UnsafeFinding[] = [...tokenized.findings];
  const below = (text: string): AnalyzedCommand | null => {
    if (depth >= MAX_NESTING || budget.left <= 0 || text.length > budget.characters) {
      findings.push({ kind: 'nesting_too_deep', what: UNSAFE_WHAT.nesting_too_deep });
      return null;
    }
    budget.left--;
    budget.characters -= text.length;
    const nested = analyzeCommand(text, depth + 1, budget);
    findings.push(...nested.findings);
    return nested;
  };
  const done: AnalyzedFragment[] = [];
  const scripts = new WrittenScripts();
  const fragments = tokenized.fragments.map((fragment): AnalyzedFragment => {
    const unwrapped = unwrap(fragment.argv);
    // `echo 'git push' | sh`: the line the shell reads from the pipe is a command line too.
    const piped = pipedCommandLines(done, unwrapped.views);
    const written = scripts.linesRunBy(unwrapped.views);
    const imported = importedFunctions(fragment.argv);
    const lines =
      piped.length === 0 && written.length === 0 && imported.length === 0
        ? unwrapped.commandStrings
        : [...unwrapped.commandStrings, ...piped, ...written, ...imported];
    const nested: AnalyzedCommand[] = lines.length === 0 ? NO_COMMANDS : [];
    for (const text of lines) {
      const analysed = below(text);
      if (analysed !== null) nested.push(analysed);
    }
    if (unwrapped.truncated) findings.push({ kind: 'nesting_too_deep', what: UNSAFE_WHAT.nesting_too_deep });
    for (const view of unwrapped.views) {
      if (scriptSideEffect(view) === null) continue;
      findings.push({ kind: 'script_side_effect', what: UNSAFE_WHAT.script_side_effect });
      break;
    }
    // `alias ls='cat ../s'⏎ls`: dash (/bin/sh) expands an alias defined on an earlier line.
    for (const view of unwrapped.views) {
      // A reading is never empty (unwrap drops empty ones).
      if (basename(view[0]!) !== 'alias' || !view.slice(1).some((w) => w.includes('='))) continue;
      findings.push({ kind: 'alias_definition', what: UNSAFE_WHAT.alias_definition });
      break;
    }
    // `/usr/bin/g?t push`, `sudo gi[t] push`, `x=rm; $x -rf /`, `env "$X" url`: the shell makes
    // the name; we cannot know what runs, so no deny rule, ceiling or allow pattern can be checked.
    // (A literal `$` in a command name is read as an expansion too: fail closed.)
    let globVerb = false;
    let expansionVerb = false;
    for (const view of unwrapped.views) {
      const verb = view[0]!;
      if (isAssignment(verb)) continue;
      globVerb ||= hasGlob(verb);
      expansionVerb ||= verb.includes('$');
    }
    if (globVerb) findings.push({ kind: 'glob_verb', what: UNSAFE_WHAT.glob_verb });
    if (expansionVerb) findings.push({ kind: 'expansion_verb', what: UNSAFE_WHAT.expansion_verb });
    const execs = unwrapped.execs.map(fragmentOfWords);
    const analysed = { fragment, views: unwrapped.views, truncated: unwrapped.truncated, nested, execs };
    done.push(analysed);
    scripts.add(analysed);
    return analysed;
  });
  const substitutions: AnalyzedCommand[] = [];
  for (const text of tokenized.substitutions) {
    const analysed = below(text);
    if (analysed !== null) substitutions.push(analysed);
  }
  const whole: AnalyzedCommand = { tokenized, fragments, substitutions, findings };
  // Once, over the whole command: the write and the run may be at different depths.
  if (depth === 0 && writesScriptItRuns(whole))
    findings.push({ kind: 'script_written_and_run', what: UNSAFE_WHAT.script_written_and_run });
  return { ...whole, findings: dedupeFindings(findings) };
}

const NO_LINES: readonly string[] = Object.freeze([]);

/**
 * `env 'BASH_FUNC_true%%=() { rm -rf /; }' bash -c true`: bash imports a function from such a
 * variable and runs its body when the name is called, so the value is a command line too.
 */
function importedFunctions(argv: readonly string[]): readonly string[] {
  let found: string[] | null = null;
  for (const word of argv) {
    if (!word.startsWith('BASH_FUNC_')) continue;
    const eq = word.indexOf('=');
    if (eq !== -1) (found ??= []).push(word.slice(eq + 1));
  }
  return found ?? NO_LINES;
}

/**
 * The command lines the fragments before hand, through a pipe, a consumer that runs its input
 * (piped-scripts.ts): the producer's, past `cat` and `tee`, which pass their input on.
 */
function pipedCommandLines(
  before: readonly AnalyzedFragment[],
  consumerViews: readonly (readonly string[])[],
): readonly string[] {
  let k = before.length - 1;
  const pipes = (f: AnalyzedFragment | undefined): boolean => f?.fragment.sep === '|' || f?.fragment.sep === '|&';
  if (!pipes(before[k]) || !consumerViews.some(readsCommandsFromInput)) return NO_LINES;
  while (k > 0 && pipes(before[k - 1]) && before[k]!.views.some(passesInputOn)) k--;
  const producer = before[k]!;
  const words = new FragmentPaths(producer.fragment);
  const expands = (word: string): boolean => words.viewInfo(word)?.expands === true;
  const lines = new Set<string>();
  for (const view of producer.views) for (const text of printedTexts(view, expands)) lines.add(text);
  return [...lines];
}

/** Visits every reading of every fragment, at every depth (fragments, nested, substitutions). */
export function forEachView(
  command: AnalyzedCommand,
  visit: (view: readonly string[], fragment: AnalyzedFragment) => boolean | void,
): boolean {
  for (const fragment of command.fragments) {
    if (forEachViewOfFragment(fragment, visit)) return true;
  }
  for (const sub of command.substitutions) if (forEachView(sub, visit)) return true;
  return false;
}

/** The first non-null answer of `find` over every reading at every depth, or null. */
export function firstInViews<T>(command: AnalyzedCommand, find: (view: readonly string[]) => T | null): T | null {
  let found: T | null = null;
  forEachView(command, (view) => (found = find(view)) !== null);
  return found;
}

/** Visits the readings of one top-level fragment and of the commands nested in it. Stops on true. */
export function forEachViewOfFragment(
  fragment: AnalyzedFragment,
  visit: (view: readonly string[], fragment: AnalyzedFragment) => boolean | void,
): boolean {
  for (const view of fragment.views) if (visit(view, fragment) === true) return true;
  for (const nested of fragment.nested) if (forEachView(nested, visit)) return true;
  return false;
}

/** Every fragment at every depth (for redirect and scope checks of nested commands). */
export function allFragments(command: AnalyzedCommand, out: Fragment[] = []): Fragment[] {
  for (const f of command.fragments) {
    out.push(f.fragment);
    for (const nested of f.nested) allFragments(nested, out);
  }
  for (const sub of command.substitutions) allFragments(sub, out);
  return out;
}
