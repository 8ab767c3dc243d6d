// Chaos: three `brabo serve` nodes on one Postgres schema, proposals spread over all three, a real
// runner on node A, and every second or so a random node SIGKILLed and restarted (same port). A
// node's pre-claim failure or start-up must never overwrite another node's claim: at the end every
// action has a true outcome (markers), nothing ran twice, no event is duplicated.
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
  type ServeProcess,
} from '../e2e/support.ts';
import { TestSchemas } from '../store/contract-postgres.ts';
import { markingRoot, trackedFromList, verdict } from './support.ts';

const schemas = new TestSchemas();
afterAll(async () => {
  await killAllChildren();
  await schemas.dropAll();
});

describe('chaos: three nodes on Postgres with random kills', () => {
  it('kills of random nodes while proposals land on all three: no overwrite, outcomes true', async () => {
    const schema = await schemas.create();
    const dir = tempDir('chaos-3n');
    const root = join(dir, 'machine');
    const { runs } = markingRoot(root);
    const env = { DATABASE_URL: schema.url, BRABO_RUNNER_GRACE_MS: '3000', BRABO_RESUME_WAIT_MS: '20000' };
    const serves = await Promise.all(['a', 'b', 'c'].map((name) => restartableServe(join(dir, `data-${name}`), env)));
    const nodes: ServeProcess[] = [];
    for (const serve of serves) nodes.push(await serve());
    const project = await createProject(nodes[0]!, { executionMode: 'runner', root, name: 'chaos-3n' });
    await allowCommands(nodes[0]!, project.id, ['Terminal(sh mark.sh)']);
    const token = (await nodes[0]!.call('POST', `/api/projects/${project.id}/runner-tokens`)).body.token as string;
    const runner = startRunner({
      url: nodes[0]!.wsUrl,
      token,
      root,
      projectId: project.id,
      journal: join(dir, 'runner.journal'),
    });
    await new Promise((r) => setTimeout(r, 1_000));

    let n = 0;
    const fired: Promise<void>[] = [];
    const kills: string[] = [];
    const until = Date.now() + 15_000;
    let nextKill = Date.now() + 800;
    while (Date.now() < until || kills.length < 6) {
      const target = nodes[Math.floor(Math.random() * 3)]!;
      const marker = `c${n++}`;
      // A proposal a node holds for approval is approved by a human on another random node.
      fired.push(
        target
          .call('POST', `/api/projects/${project.id}/actions`, {
            agentId: 'agent-dev',
            actionType: 'terminal',
            payload: { command: `sh mark.sh ${marker} 0.2`, cwd: root, timeoutMs: 20_000 },
          })
          .then(async (posted) => {
            if (posted.body?.status === 'pending')
              await nodes[Math.floor(Math.random() * 3)]!.call('POST', `/api/actions/${posted.body.id}/approve`, {
                userId: 'max',
              });
          })
          .catch(() => {}),
      );
      await new Promise((r) => setTimeout(r, 120));
      if (Date.now() >= nextKill) {
        const victim = Math.floor(Math.random() * 3);
        kills.push('abc'[victim]!);
        await stopChild(nodes[victim]!.child, 'SIGKILL');
        nodes[victim] = await serves[victim]!();
        nextKill = Date.now() + 600 + Math.random() * 1_200;
      }
    }
    await Promise.all(fired);
    // Proposals whose node died before the approval: approved now, on a live node.
    for (const pending of (await nodes[0]!.call('GET', `/api/projects/${project.id}/actions?status=pending&limit=1000`))
      .body.actions as Array<{ id: string }>) {
      await nodes[1]!.call('POST', `/api/actions/${pending.id}/approve`, { userId: 'max' });
    }
    const tracked = await trackedFromList(nodes[0]!, project.id);
    expect(tracked.length).toBeGreaterThan(20);
    expect(kills.length).toBeGreaterThanOrEqual(6);
    const counts = await verdict(nodes[0]!, project.id, tracked, runs, 120_000);
    console.info(`chaos cluster-kill: ${tracked.length} actions of ${n} proposed, kills ${kills.join('')}`, counts);
    await runner.stop();
    for (const node of nodes) await stopChild(node.child, 'SIGTERM');
  }, 240_000);
});
