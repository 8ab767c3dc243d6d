// The engine going away: a broker pointed at a unix-socket proxy (never the shared dockerd)
// reports broker_unavailable while the proxy is closed, recovers when it reopens, and reports
// exec_interrupted when the connection drops mid-exec, without leaving the command running.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, DockerSocketProxy, makeWorkspace, newRunId, spec, testBroker, value } from './helpers.ts';

const runId = newRunId();
const folders: string[] = [];
let proxy: DockerSocketProxy;
let workspace: string;

beforeAll(async () => {
  const socketDir = await mkdtemp(join(tmpdir(), 'brabo-broker-sock-'));
  workspace = await makeWorkspace();
  folders.push(socketDir, workspace);
  proxy = new DockerSocketProxy(socketDir);
  await proxy.open();
});

afterAll(async () => {
  await proxy.close();
  await cleanUp(runId, folders);
});

describe('broker_unavailable', () => {
  it('names the socket path and the errno when the socket does not exist', async () => {
    const missing = join(tmpdir(), `brabo-no-such-${runId}.sock`);
    const broker = testBroker(runId, { socketPath: missing });
    for (const result of [
      await broker.list(),
      await broker.start(spec('nowhere', workspace)),
      await broker.exec('nowhere', { command: 'true', cwd: '/work' }),
    ]) {
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.failure.code).toBe('broker_unavailable');
        expect(result.failure.message).toContain(`unix://${missing}`);
        expect(result.failure.message).toContain('ENOENT');
        expect(result.failure.detail).toMatchObject({ errno: 'ENOENT' });
      }
    }
  });

  it('reads DOCKER_HOST when no socket path is configured', async () => {
    const previous = process.env.DOCKER_HOST;
    process.env.DOCKER_HOST = `unix://${join(tmpdir(), `brabo-env-${runId}.sock`)}`;
    try {
      const broker = testBroker(runId, { socketPath: undefined });
      expect(broker.endpoint).toBe(process.env.DOCKER_HOST);
      const result = await broker.list();
      expect(result.ok ? 'ok' : result.failure.code).toBe('broker_unavailable');
    } finally {
      if (previous === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = previous;
    }
  });

  it('daemon stopped -> broker_unavailable; back -> the same container is found and used', async () => {
    const broker = testBroker(runId, { socketPath: proxy.path });
    const started = value(await broker.start(spec('flaky', workspace)));

    await proxy.close();
    for (const result of [
      await broker.inspect('flaky'),
      await broker.exec('flaky', { command: 'true', cwd: '/work' }),
      await broker.stop('flaky'),
    ]) {
      expect(result.ok ? 'ok' : result.failure.code).toBe('broker_unavailable');
      if (!result.ok) expect(result.failure.message).toContain(proxy.path);
    }

    await proxy.open();
    expect(value(await broker.inspect('flaky'))).toMatchObject({ containerId: started.containerId, state: 'running' });
    expect(value(await broker.exec('flaky', { command: 'echo back', cwd: '/work' })).stdout).toBe('back\n');
  });
});

describe('exec_interrupted', () => {
  it('a connection dropped mid-exec is exec_interrupted and the command does not keep running', async () => {
    const broker = testBroker(runId, { socketPath: proxy.path });
    value(await broker.start(spec('cut', workspace)));
    const running = broker.exec('cut', { command: 'sleep 30; echo finished > finished.txt', cwd: '/work' });
    await waitFor(async () => (await processes(broker)).includes('sleep 30'));
    proxy.dropConnections();
    const result = await running;
    expect(result.ok ? 'ok' : result.failure.code).toBe('exec_interrupted');
    if (!result.ok) expect(result.failure.detail).toMatchObject({ killed: true });
    expect(await processes(broker)).not.toContain('sleep 30');
  });

  it('an engine that stays away mid-exec is exec_interrupted without a false "stopped" claim', async () => {
    const broker = testBroker(runId, { socketPath: proxy.path });
    value(await broker.start(spec('gone', workspace)));
    const running = broker.exec('gone', { command: 'sleep 3', cwd: '/work' });
    await waitFor(async () => (await processes(broker, 'gone')).includes('sleep 3'));
    await proxy.close();
    const result = await running;
    await proxy.open();
    expect(result.ok ? 'ok' : result.failure.code).toBe('exec_interrupted');
    if (!result.ok) {
      expect(result.failure.detail).toMatchObject({ killed: false });
      expect(result.failure.message).toContain('could not confirm');
    }
  });
});

async function processes(broker: ReturnType<typeof testBroker>, projectId = 'cut'): Promise<string> {
  const result = await broker.exec(projectId, { command: 'ps -o args', cwd: '/work' });
  return result.ok ? result.value.stdout : '';
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
