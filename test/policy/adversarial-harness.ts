// Table-driven harness for the adversarial suites: each case is a command, the setup it runs
// under and the exact decision /work/brief-policy.md prescribes. Cases read like a list; the
// harness turns every row into one vitest `it` whose name carries the RN and the command.
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import type {
  ActionType,
  Decision,
  DecisionInput,
  Permissions,
  Policy,
  ReasonCode,
  ResolvedAutonomy,
  Role,
} from '../../src/policy/types.ts';

export const ROOT = '/projects/app';

/** The DEV preset as the semantics file lists it (written out here, not imported from the engine). */
export const DEV_ALLOW: readonly string[] = [
  ...['ls', 'pwd', 'find', 'cat', 'head', 'tail', 'grep', 'wc', 'echo'],
  ...['git status', 'git diff', 'git log'],
  ...['git branch -a', 'git branch -r', 'git branch -v', 'git branch --list', 'git branch --show-current'],
  ...['git remote -v', 'git remote show', 'git worktree list', 'git show', 'git for-each-ref'],
  ...['git ls-tree', 'git rev-parse', 'git config --get'],
  ...['pnpm install', 'pnpm test', 'npm test', 'npm run', 'npx vitest', 'mix test', 'pytest'],
  ...['go test', 'cargo test', 'yarn test', 'make test'],
].map((c) => `Terminal(${c})`);

/** The permissions.json every suite starts from: DEV preset, a few denies, one ask. */
export const PROJECT_PERMISSIONS: Permissions = {
  allow: DEV_ALLOW,
  deny: ['Terminal(curl:*)', 'Terminal(wget:*)', 'Terminal(nc)'],
  ask: ['Terminal(git commit)', 'GitCommit()'],
};

export interface Setup {
  label: string;
  permissions: Permissions;
  role: Role;
  autonomy: ResolvedAutonomy | null;
  containerRunning: boolean;
  root: string;
  cwd: string;
  permissionsBroken?: boolean;
}

const base = { permissions: PROJECT_PERMISSIONS, role: 'maintainer', root: ROOT, cwd: ROOT } as const;
/** No autonomy, no container: only permissions.json can auto-approve. */
export const MANUAL: Setup = { ...base, label: 'manual', autonomy: null, containerRunning: false };
/** Auto mode (the `*` wildcard, RN-603): lifts path scope and compound, nothing else. */
export const AUTO: Setup = {
  ...base,
  label: 'auto mode (curinga)',
  autonomy: { mode: 'auto_approve', origin: 'curinga' },
  containerRunning: false,
};
/** A specific terminal rule: auto_approve but NOT auto mode. */
export const SPECIFIC: Setup = {
  ...base,
  label: 'specific auto_approve',
  autonomy: { mode: 'auto_approve', origin: 'especifica' },
  containerRunning: false,
};
/** Container floor (C0): base auto_approve, every ceiling still applies. */
export const FLOOR: Setup = { ...base, label: 'container floor', autonomy: null, containerRunning: true };

/** Marker for the few rows where the semantics allow deny OR require_approval, never auto. */
export const NEVER_AUTO = 'never auto_approve' as const;
export type Expected = { policy: Policy; reasonCode?: ReasonCode } | typeof NEVER_AUTO;

export const deny = (reasonCode?: ReasonCode): Expected => ({ policy: 'deny', ...(reasonCode ? { reasonCode } : {}) });
export const ask = (reasonCode?: ReasonCode): Expected => ({
  policy: 'require_approval',
  ...(reasonCode ? { reasonCode } : {}),
});
export const auto = (reasonCode?: ReasonCode): Expected => ({
  policy: 'auto_approve',
  ...(reasonCode ? { reasonCode } : {}),
});

export interface Case {
  command: string;
  expect: Expected;
  /** Overrides of the group's setup for this row only. */
  cwd?: string;
  root?: string;
  permissions?: Permissions;
  /** Why the row exists, when the command alone does not say it. */
  note?: string;
}

/** One row: `c('ls; rm -rf /', deny('builtin_deny'))`. */
export function c(command: string, expected: Expected, extra: Omit<Case, 'command' | 'expect'> = {}): Case {
  return { command, expect: expected, ...extra };
}

export function terminalInput(
  setup: Setup,
  row: Pick<Case, 'command' | 'cwd' | 'root' | 'permissions'>,
): DecisionInput {
  return {
    actionType: 'terminal',
    payload: { command: row.command, cwd: row.cwd ?? setup.cwd },
    role: setup.role,
    autonomy: setup.autonomy,
    permissions: row.permissions ?? setup.permissions,
    scopeRoot: row.root ?? setup.root,
    containerRunning: setup.containerRunning,
    ...(setup.permissionsBroken ? { permissionsBroken: true } : {}),
  };
}

/** decide() on a terminal command in the MANUAL setup with only `allow` (no deny, no ask rules). */
export function decideAllowing(allow: readonly string[], command: string): Decision {
  return decide(terminalInput({ ...MANUAL, permissions: { allow: [...allow], deny: [], ask: [] } }, { command }));
}

/** Printable, bounded form of a command for test names (control and invisible chars escaped). */
export function show(command: string): string {
  const escaped = JSON.stringify(command).replace(
    /[\u0080-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped.length > 90 ? `${escaped.slice(0, 70)}…(${command.length} chars)` : escaped;
}

function describeExpected(e: Expected): string {
  return e === NEVER_AUTO ? NEVER_AUTO : e.reasonCode ? `${e.policy} (${e.reasonCode})` : e.policy;
}

export function assertDecision(decision: Decision, expected: Expected, context: string): void {
  const seen = `${context}\n  got ${decision.policy} (${decision.reasonCode}): ${decision.reason}`;
  if (expected === NEVER_AUTO) {
    expect(decision.policy, seen).not.toBe('auto_approve');
    return;
  }
  expect(decision.policy, seen).toBe(expected.policy);
  if (expected.reasonCode) expect(decision.reasonCode, seen).toBe(expected.reasonCode);
}

/** Registers one `describe` with one `it` per row. */
export function runCases(title: string, setup: Setup, rows: readonly Case[]): void {
  describe(`${title} [${setup.label}]`, () => {
    for (const row of rows) {
      const name = `${show(row.command)}${row.cwd ? ` in ${show(row.cwd)}` : ''} -> ${describeExpected(row.expect)}`;
      it(name, () => {
        const decision = decide(terminalInput(setup, row));
        assertDecision(decision, row.expect, `${setup.label}: ${show(row.command)}${row.note ? ` (${row.note})` : ''}`);
      });
    }
  });
}

export interface TypedCase {
  actionType: ActionType;
  payload?: Record<string, unknown>;
  role?: Role;
  autonomy?: ResolvedAutonomy | null;
  permissions?: Permissions;
  expect: Expected;
  note: string;
}

/** Rows for non-terminal action types (the typed half of the ceilings). */
export function runTypedCases(title: string, rows: readonly TypedCase[]): void {
  describe(title, () => {
    for (const row of rows) {
      it(`${row.actionType} ${row.note} -> ${describeExpected(row.expect)}`, () => {
        const decision = decide({
          actionType: row.actionType,
          payload: row.payload ?? {},
          role: row.role ?? 'maintainer',
          autonomy: row.autonomy === undefined ? AUTO.autonomy : row.autonomy,
          permissions: row.permissions ?? PROJECT_PERMISSIONS,
          scopeRoot: ROOT,
          containerRunning: false,
        });
        assertDecision(decision, row.expect, `${row.actionType} ${row.note}`);
      });
    }
  });
}

/**
 * The "typical development permissions.json" issue 9 was attacked with: allow echo, cat, ls,
 * chmod, git log/diff/show and git status.
 */
export const ISSUE9_PERMISSIONS: Permissions = {
  allow: [
    'Terminal(echo:*)',
    'Terminal(cat:*)',
    'Terminal(ls:*)',
    'Terminal(chmod:*)',
    'Terminal(git log:*)',
    'Terminal(git diff:*)',
    'Terminal(git show:*)',
    'Terminal(git status)',
    'Terminal(cd)',
  ],
  deny: [],
  ask: [],
};
/** Issue 9's permissions, no autonomy: only the file can auto-approve. */
export const ISSUE9: Setup = { ...MANUAL, label: 'issue 9 dev permissions', permissions: ISSUE9_PERMISSIONS };
/** Issue 9's permissions under auto mode (scope and compound lifted, protected paths not). */
export const ISSUE9_AUTO: Setup = {
  ...AUTO,
  label: 'issue 9 dev permissions, auto mode',
  permissions: ISSUE9_PERMISSIONS,
};
