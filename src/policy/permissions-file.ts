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

export type PermissionsParse =
  | { ok: true; value: Permissions }
  | { ok: false; error: PermissionsError; salvaged: Permissions };

/** Validates a JSON.parse'd permissions.json. Missing lists are empty; other keys are ignored. */
export function parsePermissions(raw: unknown): PermissionsParse {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const issue = { list: null, index: null, problem: 'permissions.json must be a JSON object with "allow", "deny" and "ask" arrays of strings' };
    return { ok: false, error: new PermissionsError('permissions_invalid', [issue]), salvaged: EMPTY_PERMISSIONS };
  }
  const record = raw as Record<string, unknown>;
  const issues: PermissionsIssue[] = [];
  const lists: Record<PermissionList, string[]> = { allow: [], deny: [], ask: [] };
  for (const list of PERMISSION_LISTS) {
    const value = record[list];
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      issues.push({ list, index: null, problem: 'must be an array of strings' });
      continue;
    }
    value.forEach((entry: unknown, index: number) => {
      if (typeof entry !== 'string') {
        issues.push({ list, index, problem: `must be a string, got ${entry === null ? 'null' : typeof entry}` });
        return;
      }
      const parsed = parsePattern(entry);
      if (!parsed.ok) {
        issues.push({ list, index, entry, problem: parsed.problem });
        return;
      }
      lists[list].push(entry);
    });
  }
  if (issues.length === 0) return { ok: true, value: lists };
  return {
    ok: false,
    error: new PermissionsError('permissions_invalid', issues),
    salvaged: { allow: [], deny: lists.deny, ask: lists.ask },
  };
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
