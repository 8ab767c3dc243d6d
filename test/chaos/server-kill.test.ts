// Chaos: a real `brabo serve` (SQLite) SIGKILLed at random moments around its claims while a real
// runner runs what it sends, eight times; the restarted server (same data dir and port) resumes
// queued dispatches and waits for the runner's reports. Every action ends with a true outcome,
// nothing runs twice, no event is duplicated.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  allowCommands,
  createProject,
  killAllChildren,
  restartableServe,
  startRunner,
  stopChild,
  tempDir,
} from '../e2e/support.ts';
import { fireProposal, markingRoot, trackedFromList, verdict } from './support.ts';

afterAll(async () => {
  await killAllChildren();
});

describe('chaos: server SIGKILL around claims', () => {
  it('eight kills while proposals are being claimed and run: outcomes true after the restarts', async () => {
    const dir = tempDir('chaos-sk');
    const root = join(dir, 'machine');
    const { runs } = markingRoot(root);
    const serve = await restartableServe(join(dir, 'data'), {
      BRABO_RUNNER_GRACE_MS: '3000',
      BRABO_RESUME_WAIT_MS: '20000',
    });
    let server = await serve();
    const project = await createProject(server, { executionMode: 'runner', root, name: 'chaos-sk' });
    await allowCommands(server, project.id, ['Terminal(sh mark.sh)']);
    const token = (await server.call('POST', `/api/projects/${project.id}/runner-tokens`)).body.token as string;
    const runner = startRunner({
      url: server.wsUrl,
      token,
      root,
      projectId: project.id,
      journal: join(dir, 'runner.journal'),
    });
    let n = 0;
    for (let round = 0; round < 8; round++) {
      await new Promise((r) => setTimeout(r, 300)); // the runner rejoins
      const proposals = [0, 1, 2, 3].map(() => fireProposal(server, project.id, root, `k${n++}`, '0.3'));
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 500));
      await stopChild(server.child, 'SIGKILL');
      await Promise.all(proposals);
      server = await serve();
    }
    const tracked = await trackedFromList(server, project.id);
    expect(tracked.length).toBeGreaterThan(0); // how many commit before a kill depends on the machine's load
    const counts = await verdict(server, project.id, tracked, runs, 90_000);
    console.info(`chaos server-kill: ${tracked.length} actions of ${n} proposed`, counts);
    expect(counts.executed ?? 0).toBeGreaterThan(0);
    await runner.stop();
    await stopChild(server.child, 'SIGTERM');
  }, 180_000);
});
