// A real `brabo serve` killed (SIGKILL, via the kill_before_claim fault point) between committing
// an approval and delivering it: after a restart on the same port the dispatch is delivered once
// to the runner that reconnected. The agent turn that was waiting goes back to the blocked queue
// (source infra), and a later decision is recorded with no turn waiting for it.
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
} from './support.ts';

afterAll(async () => {
  await killAllChildren();
});

describe('restart (real brabo serve)', () => {
  it('approved but undelivered when the server died -> delivered once after restart; the waiting turn went back to the blocked queue', async () => {
    const dir = tempDir('restart');
    const { root, runs } = countingRoot(dir);
    // A fixed free port: the runner reconnects to the same URL after the restart.
    const serve = await restartableServe(join(dir, 'data'), {
      BRABO_RUNNER_GRACE_MS: '1500',
      BRABO_RESUME_WAIT_MS: '20000',
    });

    let server = await serve({ BRABO_TEST_FAULT: 'kill_before_claim' });
    const project = await createProject(server, { executionMode: 'runner', root, name: 'restart' });
    const task = await server.call('POST', `/api/projects/${project.id}/tasks`, { title: 'count things' });
    const token = (await server.call('POST', `/api/projects/${project.id}/runner-tokens`)).body.token;
    const runner = startRunner({
      url: server.wsUrl,
      token,
      root,
      projectId: project.id,
      journal: join(dir, 'runner.journal'),
    });
    await waitUntil(() => runner.output().includes('connected'), 'the runner to join');

    const undelivered = await server.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: 'sh count.sh', cwd: root },
    });
    const waiting = await server.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: 'sh count.sh --again', cwd: root, taskId: task.body.id },
    });
    expect([undelivered.body.status, waiting.body.status]).toEqual(['pending', 'pending']);
    const died = new Promise((resolve) => server.child.once('exit', resolve));
    await server.call('POST', `/api/actions/${undelivered.body.id}/approve`, { userId: 'max' }).catch(() => null); // the server kills itself before claiming
    await died;
    expect(runs()).toBe(0);

    server = await serve();
    const view = await settled(server, undelivered.body.id, 30_000);
    expect(view.settlement).toMatchObject({ status: 'executed', result: { exitCode: 0 } });
    expect(runs()).toBe(1);
    const log = await events(server, project.id);
    expect(log.filter((e) => e.type === 'action.executed')).toHaveLength(1);

    // The turn waiting on `waiting` died with the first process.
    expect((await server.call('GET', `/api/tasks/${task.body.id}`)).body).toMatchObject({
      status: 'blocked',
      blockedSource: 'infra',
    });
    // Both turns died with the process (the approved one had not been answered yet either).
    expect(
      log
        .filter((e) => e.type === 'agent.turn_lost')
        .map((e) => e.actionId)
        .sort(),
    ).toEqual([undelivered.body.id, waiting.body.id].sort());
    expect(log.find((e) => e.type === 'agent.turn_lost' && e.actionId === waiting.body.id)).toMatchObject({
      actorKind: 'system',
      actorId: 'infra',
      payload: { source: 'infra', taskBlocked: true },
    });
    expect(log.find((e) => e.type === 'backlog.task_status_changed')).toMatchObject({
      payload: { to: 'blocked', source: 'infra' },
    });
    // A later decision is recorded; the API says no turn is waiting for it.
    expect(
      (await server.call('POST', `/api/actions/${waiting.body.id}/approve`, { userId: 'max' })).body.desfecho,
    ).toBe('aprovada');
    await settled(server, waiting.body.id);
    const after = (await server.call('GET', `/api/actions/${waiting.body.id}`)).body;
    expect(after).toMatchObject({ status: 'approved', decidedBy: 'max', turn: { state: 'lost' } });
    expect(after.turn.message).toContain('no turn is waiting');
    await stopChild(runner.child, 'SIGTERM');
    await stopChild(server.child, 'SIGTERM');
  }, 90_000);
});
