// Labels, minimum roles and the fixed lists of the specification ("Pattern format", "Ceilings",
// "Always allow"), derived from the one table of action types (action-types.ts).
import { ACTION_TYPE_FACTS, typesWhere } from './action-types.ts';
import type { ActionTypeFacts } from './action-types.ts';
import { ACTION_TYPES, ROLES } from './types.ts';
import type { ActionType, Role } from './types.ts';

/** PascalCase label of each action type, as written in permissions.json patterns. */
export const LABELS: Readonly<Record<ActionType, string>> = Object.freeze(mapFacts((facts) => facts.label));

/** The minimum proposer role per type (RN-005/RN-083); checked before permissions.json. */
export const MIN_ROLE: Readonly<Record<ActionType, Role>> = Object.freeze(mapFacts((facts) => facts.minRole));

function mapFacts<V>(pick: (facts: ActionTypeFacts) => V): Record<ActionType, V> {
  return Object.fromEntries(ACTION_TYPES.map((type) => [type, pick(ACTION_TYPE_FACTS[type])])) as Record<ActionType, V>;
}

const LABEL_TO_TYPE: ReadonlyMap<string, ActionType> = new Map(
  ACTION_TYPES.map((type) => [LABELS[type], type] as const),
);

/** The action type a pattern label names, or undefined for an unknown label. */
export function actionTypeForLabel(label: string): ActionType | undefined {
  return LABEL_TO_TYPE.get(label);
}

// includes() is false for anything that is not one of the strings, so no typeof check is needed.
export function isActionType(x: unknown): x is ActionType {
  return (ACTION_TYPES as readonly unknown[]).includes(x);
}

export function isRole(x: unknown): x is Role {
  return (ROLES as readonly unknown[]).includes(x);
}

/** developer < maintainer < owner. */
export function roleAtLeast(role: Role, min: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(min);
}

/**
 * Types whose "Always allow" click never writes anything (RN-689, `teto_do_sempre_permitir`).
 * The approval card hides the button for exactly this list.
 */
export const TIPOS_SEM_SEMPRE_PERMITIR: readonly ActionType[] = Object.freeze(typesWhere('alwaysAllow', 'refused'));

/**
 * Merge targets that are always a human decision (RN-006). `rc` stays although the tier was
 * removed: old repositories still have it, and unprotecting a live branch is the costly mistake.
 */
export const PROTECTED_BRANCHES: readonly string[] = Object.freeze(['dev', 'qa', 'rc', 'main']);

/**
 * Whether a merge target is protected. Spellings git accepts for the same branch count too:
 * `refs/heads/main`, a remote-tracking name (`origin/main`, `remotes/upstream/main`,
 * `refs/remotes/origin/main`), a revision suffix (`main^{}`, `main~0`, `main@{u}`), a refspec
 * (`+main`, `HEAD:main`), surrounding blanks and other letter case (case-insensitive disks).
 * Any name whose last path segment is protected is protected: a local branch that happens to be
 * called `fix/main` then costs a click; protecting too little costs production.
 */
export function isProtectedBranch(branch: string): boolean {
  let name = branch.trim().toLowerCase();
  // `src:dst` pushes into dst; `main:` (no destination) names main.
  const colon = name.lastIndexOf(':');
  if (colon >= 0) name = name.slice(colon + 1).trim() || name.slice(0, colon);
  name = name.replace(/^\++/, '');
  const suffix = name.search(/[\^~]|@\{/);
  if (suffix >= 0) name = name.slice(0, suffix);
  const segments = name.split('/').filter((segment) => segment !== '');
  const last = segments[segments.length - 1];
  return last !== undefined && PROTECTED_BRANCHES.includes(last.trim());
}
