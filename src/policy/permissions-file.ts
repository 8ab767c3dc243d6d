// permissions.json: validation with errors that name the list, the index and the problem. A
// broken file never loosens anything: what can be salvaged is the valid deny and ask entries,
// never allow.
import { z } from 'zod';
import { parsePattern } from './pattern.ts';
import type { Permissions } from './types.ts';

export const PERMISSION_LISTS = ['allow', 'deny', 'ask'] as const;
export type PermissionList = (typeof PERMISSION_LISTS)[number];

/** The file's shape, for HTTP schemas and OpenAPI (entries are validated by parsePermissions). */
export const PermissionsFileSchema = z.object({
  allow: z.array(z.string()).default([]),
  deny: z.array(z.string()).default([]),
  ask: z.array(z.string()).default([]),
});

export const EMPTY_PERMISSIONS: Permissions = Object.freeze({
  allow: Object.freeze([]) as readonly string[],
  deny: Object.freeze([]) as readonly string[],
  ask: Object.freeze([]) as readonly string[],
});

export interface PermissionsIssue {
  list: PermissionList | null;
  index: number | null;
  entry?: string;
  problem: string;
}

export type PermissionsErrorCode = 'permissions_invalid_json' | 'permissions_invalid';

export class PermissionsError extends Error {
  override name = 'PermissionsError';
  readonly code: PermissionsErrorCode;
  readonly issues: PermissionsIssue[];

  constructor(code: PermissionsErrorCode, issues: PermissionsIssue[]) {
    super(issues.map(describeIssue).join('; '));
    this.code = code;
    this.issues = issues;
  }
}

/** `deny[2] "GitPush(algo)": only Terminal takes content; GitPush() matches any push`. */
export function describeIssue(issue: PermissionsIssue): string {
  if (issue.list === null) return issue.problem;
  if (issue.index === null) return `${issue.list}: ${issue.problem}`;
  const entry = issue.entry !== undefined ? ` ${JSON.stringify(issue.entry)}` : '';
  return `${issue.list}[${issue.index}]${entry}: ${issue.problem}`;
}

/**
 * `warnings` name the entries that are kept but match nothing (`GitPush(algo)`, spec "Pattern
 * format"): the file is valid, and whoever wrote it is told.
 */
export type PermissionsParse =
  | { ok: true; value: Permissions; warnings: PermissionsIssue[] }
  | { ok: false; error: PermissionsError; salvaged: Permissions };

/**
 * Validates a JSON.parse'd permissions.json. Missing lists are empty. Any other key is an error
 * that names it (a typo such as "alow" would otherwise silently mean zero rules), with a
 * suggestion; Claude Code's settings shape {"permissions": {...}} is named as such.
 */
export function parsePermissions(raw: unknown): PermissionsParse {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const issue = {
      list: null,
      index: null,
      problem: 'permissions.json must be a JSON object with "allow", "deny" and "ask" arrays of strings',
    };
    return { ok: false, error: new PermissionsError('permissions_invalid', [issue]), salvaged: EMPTY_PERMISSIONS };
  }
  const record = raw as Record<string, unknown>;
  const issues: PermissionsIssue[] = [];
  const warnings: PermissionsIssue[] = [];
  const lists: Record<PermissionList, string[]> = { allow: [], deny: [], ask: [] };
  for (const key of Object.keys(record)) {
    if (!(PERMISSION_LISTS as readonly string[]).includes(key))
      issues.push({ list: null, index: null, problem: unknownKeyProblem(key, record[key]) });
  }
  for (const list of PERMISSION_LISTS) readList(list, record[list], lists, issues, warnings);
  // Claude Code's shape: its deny/ask entries still count while the file is broken (never allow).
  const nested = record['permissions'];
  if (typeof nested === 'object' && nested !== null && !Array.isArray(nested)) {
    for (const list of ['deny', 'ask'] as const)
      readList(list, (nested as Record<string, unknown>)[list], lists, [], []);
  }
  if (issues.length === 0) return { ok: true, value: lists, warnings };
  return {
    ok: false,
    error: new PermissionsError('permissions_invalid', issues),
    salvaged: { allow: [], deny: lists.deny, ask: lists.ask },
  };
}

function readList(
  list: PermissionList,
  value: unknown,
  lists: Record<PermissionList, string[]>,
  issues: PermissionsIssue[],
  warnings: PermissionsIssue[],
): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    const hint =
      typeof value === 'string'
        ? `; did you mean [${JSON.stringify(value)}]?`
        : `, got ${value === null ? 'null' : typeof value}`;
    issues.push({ list, index: null, problem: `must be an array of strings${hint}` });
    return;
  }
  value.forEach((entry: unknown, index: number) => {
    if (typeof entry !== 'string') {
      issues.push({ list, index, problem: `must be a string, got ${entry === null ? 'null' : typeof entry}` });
      return;
    }
    const bash = /^\s*bash\s*\((.*)\)\s*$/is.exec(entry);
    if (bash) {
      issues.push({
        list,
        index,
        entry,
        problem: `Claude Code's Bash(...) is Terminal(...) here; write ${JSON.stringify(`Terminal(${bash[1] ?? ''})`)}`,
      });
      return;
    }
    const parsed = parsePattern(entry);
    if (!parsed.ok) {
      issues.push({ list, index, entry, problem: parsed.problem });
      return;
    }
    if (parsed.inert !== undefined) warnings.push({ list, index, entry, problem: parsed.inert });
    lists[list].push(entry);
  });
}

const KEY_SHOWN_CHARS = 40;

function unknownKeyProblem(key: string, value: unknown): string {
  const shown = JSON.stringify(key.length > KEY_SHOWN_CHARS ? `${key.slice(0, KEY_SHOWN_CHARS)}…` : key);
  if (key === 'permissions' && typeof value === 'object' && value !== null) {
    return `unknown key "permissions": this is Claude Code's settings shape {"permissions": {"allow": [...]}}; in permissions.json put "allow", "deny" and "ask" at the top level`;
  }
  const suggestion = closestList(key);
  const hint =
    suggestion === null ? 'permissions.json has only "allow", "deny" and "ask"' : `did you mean "${suggestion}"?`;
  return `unknown key ${shown}: ${hint}`;
}

/** The list name a typo most likely meant: same letters ignoring case, or at most 2 edits away. */
function closestList(key: string): PermissionList | null {
  const lower = key.trim().toLowerCase();
  let best: { list: PermissionList; distance: number } | null = null;
  for (const list of PERMISSION_LISTS) {
    const distance = editDistance(lower, list, 2);
    if (distance <= 2 && (best === null || distance < best.distance)) best = { list, distance };
  }
  return best?.list ?? null;
}

/** Levenshtein distance, giving up (returning limit + 1) once it exceeds `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    if (Math.min(...current) > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

/**
 * Where a JSON syntax error is, without quoting the text: V8's messages echo a slice of the input,
 * and the file's content must not travel into errors that reach agents and logs.
 */
function jsonErrorWhere(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const lineColumn = /\(line (\d{1,9}) column (\d{1,9})\)/.exec(message);
  if (lineColumn) return ` (line ${lineColumn[1]}, column ${lineColumn[2]})`;
  const position = /at position (\d{1,9})/.exec(message);
  if (position) return ` (at character ${position[1]})`;
  if (/Unexpected end of JSON input/.test(message)) return ' (it ends too early)';
  return '';
}

/** Validates a file's text; text that is not JSON is a named error (nothing salvaged). */
export function parsePermissionsText(text: string): PermissionsParse {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const issue = { list: null, index: null, problem: `permissions.json is not valid JSON${jsonErrorWhere(error)}` };
    return { ok: false, error: new PermissionsError('permissions_invalid_json', [issue]), salvaged: EMPTY_PERMISSIONS };
  }
  return parsePermissions(raw);
}

/** Adds patterns to one list, without duplicates, keeping order. Returns a new object. */
export function mergePatterns(perms: Permissions, list: PermissionList, patterns: readonly string[]): Permissions {
  const merged = [...perms[list]];
  for (const pattern of patterns) if (!merged.includes(pattern)) merged.push(pattern);
  return { allow: [...perms.allow], deny: [...perms.deny], ask: [...perms.ask], [list]: merged };
}
