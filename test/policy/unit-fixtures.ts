// Shared builders for the policy tests: one terminal or typed decision with sensible defaults.
import { decide, EMPTY_PERMISSIONS } from '../../src/policy/index.ts';
import type {
  ActionType,
  Decision,
  DecisionInput,
  Permissions,
  ResolvedAutonomy,
  Role,
} from '../../src/policy/index.ts';

export const ROOT = '/srv/workspaces/shop-1a2b3c4d';

export interface Options {
  permissions?: Partial<Permissions>;
  role?: Role;
  autonomy?: ResolvedAutonomy | null;
  cwd?: string;
  root?: string;
  containerRunning?: boolean;
  permissionsBroken?: boolean;
}

export function perms(p: Partial<Permissions> = {}): Permissions {
  return { allow: p.allow ?? [], deny: p.deny ?? [], ask: p.ask ?? [] };
}

export function inputFor(actionType: ActionType, payload: Record<string, unknown>, o: Options = {}): DecisionInput {
  return {
    actionType,
    payload,
    role: o.role ?? 'maintainer',
    autonomy: o.autonomy ?? null,
    permissions: o.permissions ? perms(o.permissions) : EMPTY_PERMISSIONS,
    scopeRoot: o.root ?? ROOT,
    containerRunning: o.containerRunning ?? false,
    permissionsBroken: o.permissionsBroken ?? false,
  };
}

export function term(command: string, o: Options = {}): Decision {
  return decide(inputFor('terminal', { command, cwd: o.cwd ?? o.root ?? ROOT }, o));
}

export function typed(actionType: ActionType, payload: Record<string, unknown> = {}, o: Options = {}): Decision {
  return decide(inputFor(actionType, payload, o));
}

export const AUTO_MODE: ResolvedAutonomy = { mode: 'auto_approve', origin: 'curinga' };
export const SPECIFIC_AUTO: ResolvedAutonomy = { mode: 'auto_approve', origin: 'especifica' };

/** Allows a command's verb outright, so a test isolates the ceiling it is about. */
export function allowing(...patterns: string[]): Options {
  return { permissions: { allow: patterns } };
}
