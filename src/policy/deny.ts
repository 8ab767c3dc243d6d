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

/** The first pattern that denies this fragment (any reading, any depth), or null. */
export function denyingPattern(fragment: AnalyzedFragment, patterns: readonly TerminalPattern[]): string | null {
  if (patterns.length === 0) return null;
  let found: string | null = null;
  for (const p of patterns) {
    if (p.hasRedirects && patternMatchesFragment(p, fragment.fragment)) return p.source;
  }
  forEachViewOfFragment(fragment, (view, owner) => {
    const starts = globalOptionStarts(view);
    for (const p of patterns) {
      if (argvMatches(p.argv, view) || matchesPastGlobals(p.argv, view, starts)) {
        found = p.source;
        return true;
      }
      // A reading cut short: try every position of the words (linear in words x patterns).
      if (owner.truncated) {
        for (let from = 1; from < view.length; from++) {
          if (argvMatches(p.argv, view, from)) {
            found = p.source;
            return true;
          }
        }
      }
    }
    return false;
  });
  return found;
}

/** A deny over the substitutions of a command (they belong to no single fragment). */
function denyInSubstitutions(command: AnalyzedCommand, patterns: readonly TerminalPattern[]): string | null {
  for (const sub of command.substitutions) {
    const hit = firstDeny(sub, patterns);
    if (hit !== null) return hit.pattern;
  }
  return null;
}

export interface DenyHit {
  pattern: string;
  /** Index of the top-level fragment, -1 for a substitution. */
  fragmentIndex: number;
}

export function firstDeny(command: AnalyzedCommand, patterns: readonly TerminalPattern[]): DenyHit | null {
  for (let i = 0; i < command.fragments.length; i++) {
    const hit = denyingPattern(command.fragments[i]!, patterns);
    if (hit !== null) return { pattern: hit, fragmentIndex: i };
  }
  const sub = denyInSubstitutions(command, patterns);
  return sub === null ? null : { pattern: sub, fragmentIndex: -1 };
}

export function builtinDeny(command: AnalyzedCommand): DenyHit | null {
  return firstDeny(command, builtinPatterns());
}
