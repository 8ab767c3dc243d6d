// Minimal backlog: enough for merge -> done (RN-628) and the blocked queue.
import { randomUUID } from 'node:crypto';
import type { Task } from '../store/types.ts';
import { requireProject } from './access.ts';
import { type ActionDeps, nowIso } from './deps.ts';
import { notFound } from './errors.ts';

export async function createTask(
  deps: ActionDeps,
  projectId: string,
  title: string,
  prNumber: number | null,
): Promise<Task> {
  return deps.store.transaction(async (tx) => {
    await requireProject(tx, projectId);
    const task = {
      id: randomUUID(),
      projectId,
      title,
      status: 'in_progress' as const,
      prNumber,
      updatedAt: nowIso(deps),
    };
    await tx.tasks.insert(task);
    return { ...task, blockedReason: null, blockedSource: null };
  });
}

export async function getTask(deps: ActionDeps, taskId: string): Promise<Task> {
  const task = await deps.store.read.tasks.get(taskId);
  if (!task) throw notFound('task', taskId);
  return task;
}
