// Read side: an action with its execution hand-off, lists, the event log.
import type { ActionStatus, Handoff, ProposedAction, SessionEvent } from '../store/types.ts';
import { requireProject } from './access.ts';
import type { ActionDeps } from './deps.ts';
import { notFound } from './errors.ts';

export interface ActionView {
  action: ProposedAction;
  execution: Pick<Handoff, 'status' | 'outcome' | 'updatedAt'> | null;
}

export async function getAction(deps: ActionDeps, actionId: string): Promise<ActionView> {
  const action = await deps.store.read.actions.get(actionId);
  if (!action) throw notFound('action', actionId);
  const handoff = await deps.store.read.handoffs.getByAction(actionId);
  return {
    action,
    execution: handoff ? { status: handoff.status, outcome: handoff.outcome, updatedAt: handoff.updatedAt } : null,
  };
}

export async function listActions(
  deps: ActionDeps,
  projectId: string,
  status: ActionStatus | undefined,
  limit: number,
): Promise<ProposedAction[]> {
  await requireProject(deps.store.read, projectId);
  return deps.store.read.actions.list(projectId, { ...(status ? { status } : {}), limit });
}

export async function listEvents(
  deps: ActionDeps,
  projectId: string,
  after: number,
  limit: number,
): Promise<{ events: SessionEvent[]; cursor: number }> {
  await requireProject(deps.store.read, projectId);
  const events = await deps.store.read.events.listAfter(projectId, after, limit);
  return { events, cursor: events.length > 0 ? (events[events.length - 1] as SessionEvent).id : after };
}
