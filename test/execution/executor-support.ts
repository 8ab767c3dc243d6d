// Shared scaffolding of the external-executor suites: an app with the execution side, a project,
// an executor token, and the calls an executor makes (claim, report, extend).
import { loadExecutionConfig } from '../../src/config.ts';
import { eventsOf, seedProject, startTestApp, type TestApp } from '../http/helpers.ts';

export interface ExecutorFixture {
  t: TestApp;
  projectId: string;
  /** An executor token for every project, named git-bot. */
  executor: { token: string; id: string };
  /** agent-lead (maintainer) proposes `actionType`; max (maintainer, not the owner) approves it. */
  approved(actionType: string, payload?: Record<string, unknown>): Promise<string>;
  claim(type: string, token?: string, query?: string): Promise<{ status: number; body: any }>;
  report(type: string, dispatchId: string, body: unknown, token?: string): Promise<{ status: number; body: any }>;
  events(type: string, actionId?: string): Promise<Array<{ type: string; actionId: string | null; payload: any }>>;
}

/** `runnerGraceMs`: the start-up grace before leases are expired (default: the configuration's). */
export async function executorFixture(options: { runnerGraceMs?: number } = {}): Promise<ExecutorFixture> {
  const t = await startTestApp({
    execution: loadExecutionConfig(
      options.runnerGraceMs === undefined ? {} : { runnerGraceMs: options.runnerGraceMs },
      {},
    ),
  });
  await t.app.start();
  const { id: projectId } = await seedProject(t);
  const executor = await t.mint({ kind: 'executor', name: 'git-bot' });
  return {
    t,
    projectId,
    executor,
    async approved(actionType, payload = {}) {
      const proposed = await t.call('POST', `/api/projects/${projectId}/actions`, {
        agentId: 'agent-lead',
        actionType,
        payload,
      });
      if (proposed.body.status !== 'pending') throw new Error(`not pending: ${JSON.stringify(proposed.body)}`);
      const approved = await t.call('POST', `/api/actions/${proposed.body.id}/approve`, { userId: 'max' });
      if (approved.status !== 200) throw new Error(`not approved: ${JSON.stringify(approved.body)}`);
      return proposed.body.id as string;
    },
    claim: (type, token = executor.token, query = 'wait=0') =>
      t.callAs(token, 'POST', `/api/executors/${type}/claim?${query}`),
    report: (type, dispatchId, body, token = executor.token) =>
      t.callAs(token, 'POST', `/api/executors/${type}/dispatches/${dispatchId}/report`, body),
    async events(type, actionId) {
      return (await eventsOf(t, projectId)).filter(
        (e) => e.type === type && (actionId === undefined || e.actionId === actionId),
      );
    },
  };
}

/** Later than any lease a claim can ask for (1 hour) ends. */
export const AFTER_EVERY_LEASE = (): Date => new Date(Date.now() + 3600_000 + 60_000);
