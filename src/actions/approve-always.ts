// "Always allow" (RN-642, RN-675, RN-509): approval, the pattern (or, for a module dev agent, an
// agent_autonomy row) and permission.granted in one transaction, the pattern written only after
// the transition out of pending took effect; a failed pattern write undoes the approval.
// permissions.json is a file and not part of the transaction: the remaining window is a commit
// failure after the file was written (stated in the spec).
import { mergePatterns, patternsForAction, TIPOS_SEM_SEMPRE_PERMITIR } from '../policy/index.ts';
import type { ProposedAction, Repositories } from '../store/types.ts';
import { PermissionsWriteError } from '../store/permissions-file.ts';
import { type ActionDeps, nowIso } from './deps.ts';
import { ActionError } from './errors.ts';
import { EVENT } from './events.ts';
import { permissionsFolder } from './project-root.ts';
import {
  alreadyDenied,
  announceApproval,
  type ApprovalOutcome,
  approveInTransaction,
  loadForReview,
  type ReviewContext,
} from './review.ts';

export interface ApproveAlwaysResult {
  action: ProposedAction;
  desfecho: ApprovalOutcome;
  /** Patterns this click wrote into allow (only the missing ones). */
  patterns: string[];
  /** Module dev agent: the agent_autonomy row this click wrote. */
  autonomy: { agentId: string; actionType: string; mode: 'auto_approve' } | null;
  /** Why nothing was written although the instance was approved (external effect, privileged...). */
  notWritten: { reason: string; message: string } | null;
  /**
   * Patterns written as the whole fragment, not verb + subcommand, because the fragment starts
   * with a wrapper or an interpreter (issue 9 A.6, a documented deviation from RN-675).
   */
  keptWhole: { patterns: string[]; message: string } | null;
}

function keptWholeNote(patterns: readonly string[], keptWhole: readonly string[]): ApproveAlwaysResult['keptWhole'] {
  const kept = keptWhole.filter((p) => patterns.includes(p));
  if (kept.length === 0) return null;
  return {
    patterns: kept,
    message: `${kept.join(', ')} ${kept.length === 1 ? 'was' : 'were'} written as the whole command: it starts with a wrapper or an interpreter, and a pattern of its first word alone would also allow whatever that runs (e.g. sh -c …).`,
  };
}

/** `dev-<module>` where <module> is a key of the project's module_map. */
export function isModuleDevAgent(agentId: string, moduleMap: Record<string, unknown>): boolean {
  return agentId.startsWith('dev-') && Object.hasOwn(moduleMap, agentId.slice(4));
}

export async function approveAlways(deps: ActionDeps, actionId: string, userId: string): Promise<ApproveAlwaysResult> {
  const result = await deps.store.transaction(async (tx) => {
    const ctx = await loadForReview(tx, actionId, userId);
    const { action } = ctx;
    // The type ceiling is checked before everything else, even for an approved action.
    if (TIPOS_SEM_SEMPRE_PERMITIR.includes(action.actionType)) throw alwaysAllowCeiling(action);
    if (action.status === 'denied') throw alreadyDenied(action);
    const plan = patternsForAction(action.actionType, action.payload);
    if (plan.kind === 'refused' && plan.reason === 'teto_do_sempre_permitir') throw alwaysAllowCeiling(action);

    const desfecho = await approveInTransaction(deps, tx, ctx, userId);
    const base = { action: (await tx.actions.get(actionId)) as ProposedAction, desfecho };
    if (plan.kind === 'refused') {
      return {
        ...base,
        patterns: [],
        autonomy: null,
        notWritten: { reason: plan.reason, message: plan.message },
        keptWhole: null,
      };
    }
    if (isModuleDevAgent(action.proposerId, ctx.project.moduleMap)) {
      return {
        ...base,
        patterns: [],
        autonomy: await grantAutonomy(deps, tx, ctx, userId),
        notWritten: null,
        keptWhole: null,
      };
    }
    const written = await grantPatterns(deps, tx, ctx, userId, plan.patterns);
    return {
      ...base,
      patterns: written,
      autonomy: null,
      notWritten: null,
      keptWhole: keptWholeNote(plan.patterns, plan.keptWhole ?? []),
    };
  });
  announceApproval(deps, actionId, result.desfecho);
  return result;
}

async function grantPatterns(
  deps: ActionDeps,
  tx: Repositories,
  ctx: ReviewContext,
  userId: string,
  patterns: string[],
): Promise<string[]> {
  const root = permissionsFolder(ctx.project, deps.roots);
  let written: string[] = [];
  try {
    await deps.permissionsFile.update(root, (current) => {
      written = patterns.filter((p) => !current.allow.includes(p));
      return written.length === 0 ? null : mergePatterns(current, 'allow', written);
    });
  } catch (error) {
    if (error instanceof PermissionsWriteError) {
      // Thrown inside the transaction: the approval is rolled back with it (RN-642).
      throw new ActionError(
        'conflict',
        error.code,
        `the pattern could not be written, so the approval was undone: ${error.message}`,
        {
          patterns,
        },
      );
    }
    throw error;
  }
  if (written.length > 0) {
    await tx.events.append({
      projectId: ctx.project.id,
      type: EVENT.permissionGranted,
      actorKind: 'user',
      actorId: userId,
      actionId: ctx.action.id,
      payload: { patterns: written, pattern: written.join(', ') },
      createdAt: nowIso(deps),
    });
  }
  return written;
}

async function grantAutonomy(
  deps: ActionDeps,
  tx: Repositories,
  ctx: ReviewContext,
  userId: string,
): Promise<ApproveAlwaysResult['autonomy']> {
  const { action, project } = ctx;
  const existing = await tx.autonomy.get(project.id, action.proposerId, action.actionType);
  if (existing?.mode === 'auto_approve') return null;
  const at = nowIso(deps);
  await tx.autonomy.set({
    projectId: project.id,
    agentId: action.proposerId,
    actionType: action.actionType,
    mode: 'auto_approve',
    updatedBy: userId,
    updatedAt: at,
  });
  await tx.events.append({
    projectId: project.id,
    type: EVENT.permissionGranted,
    actorKind: 'user',
    actorId: userId,
    actionId: action.id,
    payload: { agentId: action.proposerId, actionType: action.actionType, mode: 'auto_approve' },
    createdAt: at,
  });
  return { agentId: action.proposerId, actionType: action.actionType, mode: 'auto_approve' };
}

const alwaysAllowCeiling = (action: ProposedAction): ActionError =>
  new ActionError(
    'invalid',
    'teto_do_sempre_permitir',
    `"Always allow" is never offered for ${action.actionType}; approve this instance instead`,
    {
      reason: 'teto_do_sempre_permitir',
    },
  );
