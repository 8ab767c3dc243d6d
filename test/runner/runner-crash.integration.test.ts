// The window the in-transaction push opened, end to end: a real `brabo serve` dies before its claim
// commits (the dispatch stays `queued`), while the runner it pushed to has spawned the command and is
// killed with SIGKILL. After both restart, the runner's journal says "started, never finished": the
// action is settled `failed runner_interrupted` and the command never runs a second time.
// The push of the dying gateway comes from the runner test gateway (same hub code, same wire).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  countingRoot,
  createProject,
  events,
  killAllChildren,
  restartableServe,
  settled,
  startRunner,
  stopChild,
  tempDir,
  waitUntil,
} from '../e2e/support.ts';
import { alive } from './support/fixtures.ts';
import { startGatewayHarness } from './support/gateway-harness.ts';

const orphans: number[] = [];
afterAll(async () => {
  for (const pid of orphans) {
    try {
      process.kill(-pid, 'SIGKILL'); // the killed runner's command group outlives it
    } catch {
      // already gone
    }
  }
  await killAllChildren();
});

describe('runner killed mid-command while the gateway claim never committed (real brabo serve + brabo runner)', () => {
  it('the re-delivered dispatch is failed runner_interrupted and the command did not run again', async () => {
    const dir = tempDir('runner-crash');
    const { root, runs: counter } = countingRoot(dir);
    const journal = join(dir, 'runner.journal');
    const serve = await restartableServe(join(dir, 'data'), {
      BRABO_RUNNER_GRACE_MS: '1500',
      BRABO_RESUME_WAIT_MS: '60000',
    });

    // 1. The gateway dies after the approval commit, before its claim commits: the dispatch stays queued.
    let server = await serve({ BRABO_TEST_FAULT: 'kill_before_claim' });
    const project = await createProject(server, { executionMode: 'runner', root, name: 'crash' });
    const token = (await server.call('POST', `/api/projects/${project.id}/runner-tokens`)).body.token as string;
    let runner = startRunner({ url: server.wsUrl, token, root, projectId: project.id, journal });
    await waitUntil(() => runner.output().includes('connected'), 'the runner to join');
    const command = 'echo $$ > pid; sh count.sh; sleep 30';
    const proposed = await server.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command, cwd: root, timeoutMs: 60_000 },
    });
    expect(proposed.body.status).toBe('pending');
    const died = new Promise((resolve) => server.child.once('exit', resolve));
    await server.call('POST', `/api/actions/${proposed.body.id}/approve`, { userId: 'max' }).catch(() => null);
    await died;
    await stopChild(runner.child, 'SIGTERM');

    server = await serve();
    const queued = (await server.call('GET', `/api/actions/${proposed.body.id}`)).body.dispatch;
    expect(queued).toMatchObject({ state: 'queued', attempt: 0 });

    // 2. What the dying gateway had pushed: attempt 1 of that dispatch. The runner spawns it and is SIGKILLed.
    const dying = await startGatewayHarness();
    try {
      runner = startRunner({
        url: dying.url,
        token: dying.tokens.issue(project.id).token,
        root,
        projectId: project.id,
        journal,
      });
      await waitUntil(() => dying.current.runners.isConnected(project.id), 'the runner to join the dying gateway');
      await dying.current.runners.execute(project.id, {
        dispatchId: queued.dispatchId,
        attempt: 1,
        action: { type: 'terminal', command, cwd: root, timeoutMs: 60_000, approval: 'human' },
      });
      await waitUntil(() => counter() === 1 && existsSync(join(root, 'pid')), 'the command to start');
      await stopChild(runner.child, 'SIGKILL');
    } finally {
      await dying.close();
    }
    const pid = Number(readFileSync(join(root, 'pid'), 'utf8'));
    orphans.push(pid);
    // The runner's supervisor kills its commands when it dies (issue 10.2): nothing is left to kill.
    await waitUntil(() => !alive(pid), 'the orphaned command to be gone');

    // 3. The runner restarts against the restarted gateway: the action settles failed runner_interrupted.
    runner = startRunner({ url: server.wsUrl, token, root, projectId: project.id, journal });
    const view = await settled(server, proposed.body.id, 30_000);
    expect(view.settlement).toMatchObject({ status: 'failed' });
    const action = (await server.call('GET', `/api/actions/${proposed.body.id}`)).body;
    expect(action.dispatch).toMatchObject({
      state: 'failed',
      outcome: { code: 'runner_interrupted', origin: 'runner' },
    });
    expect(String(action.dispatch.outcome.message)).toContain('it was not run again');
    expect(runner.output()).toContain('runner_interrupted');

    // Whichever came first (the runner's outbox or the gateway's re-delivery), the command ran once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(counter()).toBe(1);
    const log = await events(server, project.id);
    expect(log.filter((e) => e.type === 'action.failed' && e.actionId === proposed.body.id)).toHaveLength(1);
    expect(log.filter((e) => e.type === 'action.executed')).toHaveLength(0);
    await stopChild(runner.child, 'SIGTERM');
    await stopChild(server.child, 'SIGTERM');
  }, 90_000);
});
