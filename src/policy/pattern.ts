// Patterns `Label(content)`: parsing one entry, compiling a Permissions object once (cached by
// identity), and token-prefix matching (spec "How patterns match commands").
import { CLI_GLOBAL_OPTIONS, subcommandStarts } from './cli-options.ts';
import { actionTypeForLabel, LABELS } from './labels.ts';
import { normalFormOf } from './normal-form.ts';
import type { NormalForm } from './normal-form.ts';
import { tokenize } from './tokenizer.ts';
import type { Fragment, Item } from './tokenizer.ts';
import type { ActionType, Permissions } from './types.ts';

/**
 * `inert` is set on an entry that is valid but matches nothing (spec "Pattern format": `GitPush(algo)`
 * matches nothing): it is kept in the file, never matched, and the sentence is the warning shown.
 */
export type PatternParse =
  { ok: true; type: ActionType; content: string; inert?: string } | { ok: false; problem: string };

/** Parses one entry. The content keeps its quotes; non-Terminal content makes the entry inert. */
export function parsePattern(text: string): PatternParse {
  const open = text.indexOf('(');
  if (open <= 0 || !text.endsWith(')')) {
    return { ok: false, problem: 'not of the form Label(content), e.g. Terminal(pnpm test) or GitPush()' };
  }
  const label = text.slice(0, open);
  const type = actionTypeForLabel(label);
  if (type === undefined) return { ok: false, problem: `unknown label ${label}` };
  const content = text.slice(open + 1, -1);
  if (!parenthesesBalanced(content)) return { ok: false, problem: 'unbalanced parentheses' };
  if (type !== 'terminal') {
    if (content !== '')
      return {
        ok: true,
        type,
        content,
        inert: `only Terminal takes content, so ${text} matches nothing; ${label}() matches any ${describe(type)}`,
      };
    return { ok: true, type, content };
  }
  if (content.trim() === '') return { ok: false, problem: 'Terminal() needs a command, e.g. Terminal(pnpm test)' };
  const fragments = tokenize(content).fragments;
  if (fragments.length !== 1)
    return {
      ok: false,
      problem: 'Terminal content must be one command (no &&, ||, ;, |, & or newline): write one pattern per command',
    };
  return { ok: true, type, content };
}

function describe(type: ActionType): string {
  return type === 'git_push' ? 'push' : type.replaceAll('_', ' ');
}

/** Quote-aware balance of ( and ) in a pattern's content: one scan. */
function parenthesesBalanced(content: string): boolean {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < content.length; i++) {
    const c = content[i]!;
    if (quote !== '') {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === '\\') i++;
    else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0 && quote === '';
}

export interface TerminalPattern {
  source: string;
  argv: string[];
  items: Item[];
  hasRedirects: boolean;
  /** How a CLI reads the pattern (deny and ask matching, issue 9 A.4); null for a bare verb. */
  form: NormalForm | null;
}

export interface CompiledList {
  terminal: TerminalPattern[];
  /** Non-terminal types named by `Label()`, with the entry that named them. */
  types: Map<ActionType, string>;
}

export interface CompiledPermissions {
  allow: CompiledList;
  deny: CompiledList;
  ask: CompiledList;
}

const cache = new WeakMap<Permissions, CompiledPermissions>();

/** Compiled once per Permissions object; entries that do not parse are ignored (they never match). */
export function compilePermissions(perms: Permissions): CompiledPermissions {
  const hit = cache.get(perms);
  if (hit !== undefined) return hit;
  const compiled = {
    allow: compileList(perms.allow),
    deny: compileList(perms.deny),
    ask: compileList(perms.ask),
  };
  cache.set(perms, compiled);
  return compiled;
}

function compileList(entries: readonly unknown[] | undefined): CompiledList {
  const list: CompiledList = { terminal: [], types: new Map() };
  if (!Array.isArray(entries)) return list;
  for (const entry of entries) {
    if (typeof entry !== 'string') continue;
    const parsed = parsePattern(entry);
    if (!parsed.ok || parsed.inert !== undefined) continue;
    if (parsed.type !== 'terminal') {
      if (!list.types.has(parsed.type)) list.types.set(parsed.type, entry);
      continue;
    }
    const fragment = tokenize(parsed.content).fragments[0];
    if (fragment === undefined) continue;
    list.terminal.push({
      source: entry,
      argv: fragment.argv,
      items: fragment.items,
      hasRedirects: fragment.redirects.length > 0,
      form: fragment.redirects.length > 0 ? null : normalFormOf(fragment.argv),
    });
  }
  return list;
}

/** One pattern token against one command token; a LAST `name:*` matches `name` and `name:…`. */
function tokenMatches(patternToken: string, token: string, last: boolean): boolean {
  if (last && patternToken.length > 2 && patternToken.endsWith(':*')) {
    const name = patternToken.slice(0, -2);
    return token === name || token.startsWith(name + ':');
  }
  return patternToken === token;
}

/** Token prefix match of a pattern's argv against argv starting at `from`. */
export function argvMatches(pattern: readonly string[], argv: readonly string[], from = 0): boolean {
  return tailMatches(pattern, 0, argv, from);
}

/** Token prefix match of pattern[skip..] against argv[from..]. */
function tailMatches(pattern: readonly string[], skip: number, argv: readonly string[], from: number): boolean {
  const length = pattern.length - skip;
  if (length <= 0 || length > argv.length - from) return false;
  for (let k = 0; k < length; k++) {
    if (!tokenMatches(pattern[skip + k]!, argv[from + k]!, k === length - 1)) return false;
  }
  return true;
}

/**
 * Where a CLI's subcommand may start past its global options (`git -C . reset`), or null when
 * argv has no global options to skip. Compute once per argv and hand to matchesPastGlobals.
 */
export function globalOptionStarts(argv: readonly string[]): number[] | null {
  const cli = argv[0];
  if (cli === undefined || argv[1] === undefined || !argv[1].startsWith('-')) return null;
  const table = CLI_GLOBAL_OPTIONS.get(cli);
  return table === undefined ? null : subcommandStarts(argv, table);
}

/**
 * Issue 9 A.4: deny (and ask) patterns match a CLI's command past its global options, read from
 * the same tables the ceilings use: `git --no-pager reset --hard` is `git reset --hard`.
 */
export function matchesPastGlobals(
  pattern: readonly string[],
  argv: readonly string[],
  starts: readonly number[] | null,
): boolean {
  if (starts === null || pattern.length < 2 || pattern[0] !== argv[0]) return false;
  for (const at of starts) if (tailMatches(pattern, 1, argv, at)) return true;
  return false;
}

function itemsMatch(pattern: readonly Item[], items: readonly Item[]): boolean {
  if (pattern.length === 0 || pattern.length > items.length) return false;
  for (let k = 0; k < pattern.length; k++) {
    const p = pattern[k]!;
    const t = items[k]!;
    if ('op' in p) {
      if (!('op' in t) || t.op !== p.op) return false;
    } else if (!('word' in t) || !tokenMatches(p.word, t.word, k === pattern.length - 1)) {
      return false;
    }
  }
  return true;
}

/** Allow/ask matching on the fragment as written: no look-through. */
export function patternMatchesFragment(pattern: TerminalPattern, fragment: Fragment): boolean {
  if (pattern.hasRedirects) return itemsMatch(pattern.items, fragment.items);
  return argvMatches(pattern.argv, fragment.argv);
}

/** The label of a type as a bare pattern: `GitCommit()`. */
export function typePattern(type: ActionType): string {
  return `${LABELS[type]}()`;
}
