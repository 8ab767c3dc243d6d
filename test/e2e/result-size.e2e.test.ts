// Results always fit the frame limit, with a real gateway and a real `brabo runner`: a command
// whose output is several times the 1 MiB frame (the runner keeps up to 4 MiB per stream) settles
// once, executed and truncated, instead of closing the socket with 1009 and being re-sent forever;
// and a runner asked to stop (SIGTERM) while commands run exits within its kill grace, its
// unsent result kept in its journal and reported on the next start.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  allowCommands,
  createProject,
  events,
  killAllChildren,
  settled,
  startRunner,
  startServer,
  tempDir,
  waitUntil,
  type Server,
} from './support.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await killAllChildren();
  await server.close();
});
afterEach(async () => killAllChildren());

async function runnerProject(name: string) {
  const dir = tempDir(name);
  const home = tempDir(`${name}-home`); // the journal lives outside --root
  const project = await createProject(server, { executionMode: 'runner', root: dir, name });
  const token = (await server.call('POST', `/api/projects/${project.id}/runner-tokens`)).body.token as string;
  return { dir, home, project, token };
}

describe('results and the frame limit (real runner)', () => {
  it('3 MiB and 5 MiB of output (runner keeps 4 MiB) settle executed and truncated, once, on one connection', async () => {
    const { dir, home, project, token } = await runnerProject('bigout');
    writeFileSync(join(dir, 'big.sh'), 'head -c "$1" /dev/zero | tr "\\0" a\n');
    await allowCommands(server, project.id, ['Terminal(sh big.sh)']);
    const runner = startRunner({
      url: server.wsUrl,
      token,
      root: dir,
      projectId: project.id,
      journal: join(home, 'runner.journal'),
      extra: ['--max-output-bytes', String(4 * 1024 * 1024)],
    });
    await waitUntil(
      () => server.app.execution?.gateway.runners.isConnected(project.id),
      `the runner to join: ${runner.output()}`,
    );
    for (const bytes of [3_000_000, 5_000_000]) {
      const posted = await server.call('POST', `/api/projects/${project.id}/actions`, {
        agentId: 'agent-dev',
        actionType: 'terminal',
        payload: { command: `sh big.sh ${bytes}`, cwd: dir },
      });
      expect(posted.body.status).toBe('auto_approved');
      const view = await settled(server, posted.body.id, 30_000);
      expect(view.settlement).toMatchObject({ status: 'executed', result: { exitCode: 0 } });
      expect(posted.body.execution).toMatchObject({
        state: 'executed',
        outcome: { status: 'executed', truncated: true },
      });
    }
    const log = await events(server, project.id);
    expect(log.filter((e) => e.type === 'action.executed')).toHaveLength(2);
    expect(log.filter((e) => e.type === 'action.late_result')).toHaveLength(0);
    expect(runner.output().match(/● connected/g)).toHaveLength(1); // never dropped with 1009
  }, 90_000);

  it('SIGTERM while a command runs: the runner exits within its kill grace; the result is reported on its next start', async () => {
    const { dir, home, project, token } = await runnerProject('sigterm');
    await allowCommands(server, project.id, ['Terminal(sh)']);
    const journal = join(home, 'runner.journal');
    // The command ignores SIGTERM: only the kill grace's SIGKILL ends it.
    const stubborn = startRunner({
      url: server.wsUrl,
      token,
      root: dir,
      projectId: project.id,
      journal,
      extra: ['--kill-grace-ms', '1000'],
    });
    await waitUntil(() => server.app.execution?.gateway.runners.isConnected(project.id), 'the runner to join');
    // Not awaited: an auto-approved proposal answers once its command settles.
    const posting = server.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: 'sh -c \'trap "" TERM; sleep 60\'', cwd: dir, timeoutMs: 120_000 },
    });
    const dispatch = await waitUntil(
      async () =>
        (await server.app.store.read.dispatches.listInStates(['accepted', 'running'], 100)).find(
          (d) => d.projectId === project.id,
        ),
      'the command to start',
      15_000,
    );
    const posted = { body: { id: dispatch.actionId } };
    const started = Date.now();
    const exited = new Promise<number | null>((resolve) => stubborn.child.once('exit', (code) => resolve(code)));
    stubborn.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(1_000 + 6_000); // kill grace + drain and disconnect
    // Whatever the first runner could not deliver is in its journal; the next start reports it.
    const again = startRunner({ url: server.wsUrl, token, root: dir, projectId: project.id, journal });
    const view = await settled(server, posted.body.id, 30_000);
    expect(view.settlement).toMatchObject({ status: 'failed', reason: { code: 'runner_shutdown' } });
    await posting;
    const log = await events(server, project.id);
    expect(
      log.filter((e) => e.actionId === posted.body.id && (e.type === 'action.failed' || e.type === 'action.executed')),
    ).toHaveLength(1);
    await again.stop();
  }, 90_000);
});
