// RN-284: the Dev Lead is conversational and has no task. When the gateway restarts while its
// turn waits for a decision, agent.turn_lost must say so, and must not claim that "the task went
// back to the blocked queue" (there is no task). A dev agent's turn with a task still says it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActions } from '../../src/actions/index.ts';
import { AgentTurns, TURN_LOST_NO_TASK_REASON, TURN_LOST_REASON } from '../../src/agents/index.ts';
import { SettlementWaiters } from '../../src/agents/waiters.ts';
import { createLogger } from '../../src/logger.ts';
import { PermissionsFile } from '../../src/store/permissions-file.ts';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/store.ts';

const logger = createLogger('silent');
let dir: string;
let store: SqliteStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'brabo-turn-lost-'));
  store = openSqliteStore(join(dir, 'data'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function waitingTurns() {
  const turns = new AgentTurns({ store, logger, waiters: new SettlementWaiters() });
  const actions = createActions({
    store,
    permissionsFile: new PermissionsFile(),
    roots: { projectWorkspacesRoot: join(dir, 'ws'), projectsBase: join(dir, 'pb'), gatewayCheckout: join(dir, 'gw') },
    execution: { notify() {} },
    observer: { proposed() {}, decided() {} },
    logger,
    proposalHook: turns,
  });
  const project = await actions.createProject({ name: 'Lost', executionMode: 'container', ownerId: 'olivia' });
  await actions.setMember(project.id, 'dev-lead', 'maintainer', 'agent');
  await actions.setMember(project.id, 'dev-api', 'developer', 'agent');
  const task = await actions.createTask(project.id, 'Build the API', null);
  const plan = await actions.propose({
    projectId: project.id,
    proposerId: 'dev-lead',
    actionType: 'propose_execution_plan',
    payload: { agents: { api: 2 } },
  });
  const build = await actions.propose({
    projectId: project.id,
    proposerId: 'dev-api',
    actionType: 'terminal',
    payload: { command: 'make build', cwd: project.root, taskId: task.id },
  });
  expect([plan.action.status, build.action.status]).toEqual(['pending', 'pending']);
  // The restart: a new process finds both turns waiting.
  const after = new AgentTurns({ store, logger, waiters: new SettlementWaiters() });
  expect(await after.recoverAfterRestart()).toBe(2);
  const lost = (await store.read.events.listAfter(project.id, 0, 100)).filter((e) => e.type === 'agent.turn_lost');
  const byAction = (id: string) => lost.find((e) => e.actionId === id)!;
  return { after, plan: plan.action, build: build.action, byAction };
}

describe('RN-284 the Dev Lead turn_lost names no task', () => {
  it('RN-284 the Dev Lead turn_lost says it has no task to go back to; never "the task went back"', async () => {
    const { after, plan, byAction } = await waitingTurns();
    const event = byAction(plan.id);
    expect(event.payload).toMatchObject({ agentId: 'dev-lead', taskId: null, taskBlocked: false });
    expect(event.payload.reason).toBe(TURN_LOST_NO_TASK_REASON);
    expect(String(event.payload.reason)).not.toMatch(/the task|blocked queue/);
    const view = await after.view(plan.id);
    expect(view?.turn?.message).not.toMatch(/the task|blocked queue/);
    expect(view?.turn?.message).toContain('RN-284');
  });

  it('RN-284 a dev agent turn with a task still says the task went back to the blocked queue', async () => {
    const { build, byAction } = await waitingTurns();
    expect(byAction(build.id).payload).toMatchObject({
      agentId: 'dev-api',
      taskBlocked: true,
      reason: TURN_LOST_REASON,
    });
  });
});
