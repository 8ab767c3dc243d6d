// Chaos: a real `brabo runner` SIGKILLed between spawning a command and sending its ack (the
// deterministic BRABO_RUNNER_FAULT=kill_after_spawn:N hook), six times over, with commands in
// flight; then a runner that stays. Every action ends with a true outcome: outcome_unknown (never
// "not run") for the killed spawns, replaced by the restarted runner's journal report
// (runner_interrupted); no command runs twice; no event is duplicated.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  allowCommands,
  createProject,
  events,
  killAllChildren,
  startRunner,
  startServer,
  tempDir,
  waitUntil,
  type RunnerProcess,
  type Server,
} from '../e2e/support.ts';
import { markingRoot, type Tracked, verdict } from './support.ts';

let server: Server | null = null;
afterAll(async () => {
  await killAllChildren();
  await server?.close();
});

const runnerWithFault = (options: Parameters<typeof startRunner>[0], fault: string | null): RunnerProcess =>
  startRunner({ ...options, ...(fault ? { fault } : {}) });

describe('chaos: runner SIGKILL between spawn and ack', () => {
  it('six kills with commands in flight: outcomes true, resolved from the journal, nothing twice', async () => {
    server = await startServer({ limits: { runnerGraceMs: 4_000, deliveryTimeoutMs: 5_000 } });
    const root = tempDir('chaos-rk-root');
    const home = tempDir('chaos-rk-home');
    const { runs } = markingRoot(root);
    const project = await createProject(server, { executionMode: 'runner', root, name: 'chaos-rk' });
    await allowCommands(server, project.id, ['Terminal(sh mark.sh)']);
    const token = (await server.call('POST', `/api/projects/${project.id}/runner-tokens`)).body.token as string;
    const options = { url: server.wsUrl, token, root, projectId: project.id, journal: join(home, 'runner.journal') };
    const tracked: Tracked[] = [];
    const propose = async (marker: string): Promise<void> => {
      const posted = await server!.call('POST', `/api/projects/${project.id}/actions`, {
        agentId: 'agent-dev',
        actionType: 'terminal',
        payload: { command: `sh mark.sh ${marker} 0.3`, cwd: root, timeoutMs: 20_000 },
      });
      expect(posted.status).toBe(201);
      tracked.push({ actionId: posted.body.id, marker });
    };
    for (let round = 0; round < 6; round++) {
      const runner = runnerWithFault(options, `kill_after_spawn:${1 + (round % 3)}`);
      const exited = new Promise((resolve) => runner.child.once('exit', resolve));
      await waitUntil(() => server!.app.execution?.gateway.runners.isConnected(project.id), 'the runner to join');
      await Promise.all([0, 1, 2, 3].map((i) => propose(`r${round}-${i}`)));
      await exited;
    }
    const final = runnerWithFault(options, null);
    await waitUntil(() => server!.app.execution?.gateway.runners.isConnected(project.id), 'the last runner to join');
    await propose('after');
    const counts = await verdict(server, project.id, tracked, runs);
    const log = await events(server, project.id);
    const resolved = log.filter((e) => e.payload?.resolves === 'outcome_unknown');
    // Every kill left one spawned-but-unacked command: recorded outcome_unknown, then resolved by the journal.
    expect(resolved.length).toBeGreaterThanOrEqual(6);
    expect(resolved.every((e) => e.payload.code === 'runner_interrupted')).toBe(true);
    expect(counts.executed).toBeGreaterThanOrEqual(1);
    console.info(`chaos runner-kill: ${tracked.length} actions`, counts, `resolved ${resolved.length}`);
    await final.stop();
  }, 120_000);
});
