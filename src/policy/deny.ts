// Deny matching: the built-in floor and the file's deny list, looking through wrappers, `sh -c`
// strings and substitutions. More deny is always safe.
import { forEachViewOfFragment } from './analysis.ts';
import type { AnalyzedCommand, AnalyzedFragment } from './analysis.ts';
import {
  argvMatches,
  compilePermissions,
  globalOptionStarts,
  matchesPastGlobals,
  patternMatchesFragment,
} from './pattern.ts';
import type { TerminalPattern } from './pattern.ts';
import { EMPTY_PERMISSIONS } from './permissions-file.ts';
import { matchNormalForm } from './normal-form.ts';
import type { FormMatch } from './normal-form.ts';

/** Always denied, even when absent from the file (a floor, not a security list). */
export const BUILTIN_DENY_PATTERNS: readonly string[] = Object.freeze([
  'Terminal(rm -rf /)',
  'Terminal(rm -rf /*)',
  'Terminal(rm -fr /)',
]);

let builtinCompiled: TerminalPattern[] | undefined;

function builtinPatterns(): TerminalPattern[] {
  builtinCompiled ??= compilePermissions({ ...EMPTY_PERMISSIONS, deny: BUILTIN_DENY_PATTERNS }).deny.terminal;
  return builtinCompiled;
}

/** A pattern that denies a fragment; `certain` is false when it rests on an ambiguous abbreviation. */
export interface DenyMatch {
  pattern: string;
  certain: boolean;
}

/**
 * The first pattern that denies this fragment (any reading, any depth), or null. A certain match
 * wins over an uncertain one found earlier.
 */
export function denyingPattern(fragment: AnalyzedFragment, patterns: readonly TerminalPattern[]): DenyMatch | null {
  if (patterns.length === 0) return null;
  for (const p of patterns) {
    if (p.hasRedirects && patternMatchesFragment(p, fragment.fragment)) return { pattern: p.source, certain: true };
  }
  let found: DenyMatch | null = null;
  forEachViewOfFragment(fragment, (view, owner) => {
    const starts = globalOptionStarts(view);
    for (const p of patterns) {
      const hit = viewMatch(p, view, starts, owner.truncated);
      if (hit === 'certain') {
        found = { pattern: p.source, certain: true };
        return true;
      }
      if (hit === 'uncertain') found ??= { pattern: p.source, certain: false };
    }
    return false;
  });
  return found;
}

/** One pattern against one reading: as written, past global options, or as the CLI reads it. */
function viewMatch(
  p: TerminalPattern,
  view: readonly string[],
  starts: readonly number[] | null,
  truncated: boolean,
): FormMatch {
  if (argvMatches(p.argv, view) || matchesPastGlobals(p.argv, view, starts)) return 'certain';
  // A reading cut short: try every position of the words (linear in words x patterns).
  if (truncated) {
    for (let from = 1; from < view.length; from++) if (argvMatches(p.argv, view, from)) return 'certain';
  }
  return p.form === null ? null : matchNormalForm(p.form, view);
}

/** A deny over the substitutions of a command (they belong to no single fragment). */
function denyInSubstitutions(command: AnalyzedCommand, patterns: readonly TerminalPattern[]): DenyHit | null {
  for (const sub of command.substitutions) {
    const hit = firstDeny(sub, patterns);
    if (hit !== null) return hit;
  }
  return null;
}

export interface DenyHit {
  pattern: string;
  /** Index of the top-level fragment, -1 for a substitution. */
  fragmentIndex: number;
  /** False when the only match rests on an ambiguous abbreviation (`npm p`): ask, do not deny. */
  certain: boolean;
}

/** The first certain deny over every fragment and substitution, else the first uncertain one. */
export function firstDeny(command: AnalyzedCommand, patterns: readonly TerminalPattern[]): DenyHit | null {
  let uncertain: DenyHit | null = null;
  for (let i = 0; i < command.fragments.length; i++) {
    const hit = denyingPattern(command.fragments[i]!, patterns);
    if (hit === null) continue;
    if (hit.certain) return { pattern: hit.pattern, fragmentIndex: i, certain: true };
    uncertain ??= { pattern: hit.pattern, fragmentIndex: i, certain: false };
  }
  const sub = denyInSubstitutions(command, patterns);
  if (sub !== null && sub.certain) return { ...sub, fragmentIndex: -1 };
  return uncertain ?? (sub === null ? null : { ...sub, fragmentIndex: -1 });
}

export function builtinDeny(command: AnalyzedCommand): DenyHit | null {
  return firstDeny(command, builtinPatterns());
}
