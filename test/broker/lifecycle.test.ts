// Container lifecycle against the real engine: find-or-create by label, idempotency, concurrent
// starts, reconciliation, the bind mount, limits and hardening, and the named start failures.
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GenericContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanUp,
  containersOfRun,
  docker,
  makeWorkspace,
  newRunId,
  spec,
  TEST_IMAGE,
  TEST_LABEL,
  testBroker,
  value,
} from './helpers.ts';

const runId = newRunId();
const folders: string[] = [];
let workspace: string;

beforeAll(async () => {
  workspace = await makeWorkspace();
  folders.push(workspace);
});

afterAll(async () => {
  await cleanUp(runId, folders);
});

describe('container lifecycle (RN-495 stop/remove, issue 4)', () => {
  it('two concurrent starts from two brokers (two processes) make one container', async () => {
    const first = testBroker(runId);
    const second = testBroker(runId);
    const results = await Promise.all([
      first.start(spec('race', workspace)),
      second.start(spec('race', workspace)),
      first.start(spec('race', workspace)),
    ]);
    const ids = results.map((result) => value(result).containerId);
    expect(new Set(ids).size).toBe(1);
    expect(results.every((result) => value(result).state === 'running')).toBe(true);
    const rows = (await containersOfRun(runId)).filter((row) => row.Labels['brabo.project'] === 'race');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.State).toBe('running');
  });

  it('start, stop and remove are idempotent; a restarted broker finds the container by label', async () => {
    const broker = testBroker(runId);
    const started = value(await broker.start(spec('idem', workspace)));
    expect(value(await broker.start(spec('idem', workspace)))).toEqual(started);

    const restarted = testBroker(runId);
    expect(value(await restarted.inspect('idem'))).toMatchObject({
      containerId: started.containerId,
      state: 'running',
    });

    expect(value(await restarted.stop('idem'))).toMatchObject({ containerId: started.containerId, state: 'stopped' });
    expect(value(await broker.stop('idem'))).toMatchObject({ state: 'stopped' });
    expect(value(await broker.start(spec('idem', workspace)))).toMatchObject({
      containerId: started.containerId,
      state: 'running',
    });

    expect(value(await broker.remove('idem'))).toEqual({ projectId: 'idem', containerId: null, state: 'absent' });
    expect(value(await restarted.remove('idem'))).toMatchObject({ state: 'absent' });
    expect(value(await broker.stop('idem'))).toMatchObject({ state: 'absent' });
    expect(value(await broker.inspect('idem'))).toMatchObject({ state: 'absent' });
  });

  it('reconciles on start-up: list() and reconcile() report what the engine has', async () => {
    const broker = testBroker(runId);
    value(await broker.start(spec('recon-running', workspace)));
    value(await broker.start(spec('recon-stopped', workspace)));
    value(await broker.stop('recon-stopped'));

    const fresh = testBroker(runId);
    const listed = value(await fresh.list());
    const byProject = new Map(listed.map((entry) => [entry.projectId, entry.state]));
    expect(byProject.get('recon-running')).toBe('running');
    expect(byProject.get('recon-stopped')).toBe('stopped');
    // Another broker scope (different labels) does not see them.
    expect(value(await testBroker(newRunId()).list())).toEqual([]);

    const states = value(await fresh.reconcile(['recon-running', 'recon-stopped', 'recon-never']));
    expect(states.slice(0, 3).map((entry) => [entry.projectId, entry.state])).toEqual([
      ['recon-running', 'running'],
      ['recon-stopped', 'stopped'],
      ['recon-never', 'absent'],
    ]);
    await Promise.all([broker.remove('recon-running'), broker.remove('recon-stopped')]);
  });

  it('bind-mounts the project folder at /work, visible both ways', async () => {
    const broker = testBroker(runId);
    value(await broker.start(spec('mount', workspace)));
    await writeFile(join(workspace, 'from-host.txt'), 'hello from the host\n');
    const read = value(
      await broker.exec('mount', {
        command: 'cat from-host.txt && printf "from the container" > from-container.txt',
        cwd: '/work',
      }),
    );
    expect(read).toMatchObject({ exitCode: 0, stdout: 'hello from the host\n' });
    expect(await readFile(join(workspace, 'from-container.txt'), 'utf8')).toBe('from the container');
  });

  it('applies the limits and the hardening (inspect) and runs commands without privileges', async () => {
    const broker = testBroker(runId);
    const started = value(
      await broker.start(spec('limits', workspace, { resources: { cpus: 0.5, memoryMb: 48, pids: 80 } })),
    );
    const inspected = await docker.getContainer(started.containerId ?? '').inspect();
    expect(inspected.HostConfig).toMatchObject({
      NanoCpus: 500_000_000,
      Memory: 48 * 1024 * 1024,
      MemorySwap: 48 * 1024 * 1024,
      PidsLimit: 80,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Init: true,
    });
    // The project folder, then (issue 9 B.5) .git pinned and the protected files read-only over it.
    expect(inspected.HostConfig.Mounts).toEqual([
      expect.objectContaining({ Type: 'bind', Source: workspace, Target: '/work' }),
      expect.objectContaining({
        Type: 'bind',
        Source: `${workspace}/permissions.json`,
        Target: '/work/permissions.json',
        ReadOnly: true,
      }),
      expect.objectContaining({ Type: 'bind', Source: `${workspace}/.git`, Target: '/work/.git' }),
      expect.objectContaining({
        Type: 'bind',
        Source: `${workspace}/.git/hooks`,
        Target: '/work/.git/hooks',
        ReadOnly: true,
      }),
      expect.objectContaining({
        Type: 'bind',
        Source: `${workspace}/.git/config`,
        Target: '/work/.git/config',
        ReadOnly: true,
      }),
      expect.objectContaining({
        Type: 'bind',
        Source: `${workspace}/.git/commondir`,
        Target: '/work/.git/commondir',
        ReadOnly: true,
      }),
    ]);
    expect(inspected.Config.User).toBe('1000:1000');

    const status = value(
      await broker.exec('limits', {
        command: 'id -u; grep -E "^(CapEff|CapBnd|NoNewPrivs)" /proc/self/status',
        cwd: '/work',
      }),
    );
    expect(status.stdout).toBe('1000\nCapEff:\t0000000000000000\nCapBnd:\t0000000000000000\nNoNewPrivs:\t1\n');
  });

  it('stops quickly and cleanly: the idle entrypoint exits 0 on SIGTERM', async () => {
    const broker = testBroker(runId, { stopTimeoutSec: 30 });
    const started = value(await broker.start(spec('sigterm', workspace)));
    const before = Date.now();
    value(await broker.stop('sigterm'));
    expect(Date.now() - before).toBeLessThan(20_000); // far below the 30 s SIGKILL grace
    const inspected = await docker.getContainer(started.containerId ?? '').inspect();
    expect(inspected.State.ExitCode).toBe(0);
  });
});

describe('named start failures', () => {
  it('image_missing: never pulls, creates nothing', async () => {
    const broker = testBroker(runId);
    const result = await broker.start(spec('no-image', workspace, { image: `brabo-test-absent-${runId}:latest` }));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.failure.code).toBe('image_missing');
      expect(result.failure.message).toContain(`brabo-test-absent-${runId}:latest`);
    }
    expect(value(await broker.inspect('no-image')).state).toBe('absent');
  });

  it('workspace_missing: a missing folder is refused, not created empty', async () => {
    const broker = testBroker(runId);
    const missing = join(workspace, 'does-not-exist');
    const result = await broker.start(spec('no-folder', missing));
    expect(result.ok ? 'ok' : result.failure.code).toBe('workspace_missing');
    expect(existsSync(missing)).toBe(false);
  });

  it('workspace_missing: a folder deleted after creation is reported at the next start', async () => {
    const broker = testBroker(runId);
    const doomed = await makeWorkspace();
    folders.push(doomed);
    value(await broker.start(spec('folder-gone', doomed)));
    value(await broker.stop('folder-gone'));
    await rm(doomed, { recursive: true, force: true });
    const result = await broker.start(spec('folder-gone', doomed));
    expect(result.ok ? 'ok' : result.failure.code).toBe('workspace_missing');
    expect(existsSync(doomed)).toBe(false);
  });

  it('resource_limit_invalid: refused before Docker, and when Docker itself refuses', async () => {
    const broker = testBroker(runId);
    const lexical = await broker.start(
      spec('bad-limits', workspace, { resources: { cpus: 1, memoryMb: 2, pids: 64 } }),
    );
    expect(lexical.ok ? 'ok' : lexical.failure.code).toBe('resource_limit_invalid');
    const tooManyCpus = await broker.start(
      spec('bad-limits', workspace, { resources: { cpus: 4096, memoryMb: 32, pids: 64 } }),
    );
    expect(tooManyCpus.ok ? 'ok' : tooManyCpus.failure.code).toBe('resource_limit_invalid');
    expect(value(await broker.inspect('bad-limits')).state).toBe('absent');
  });

  it('a foreign container holding the deterministic name is a named failure, not a second container', async () => {
    const broker = testBroker(runId);
    const foreign = await new GenericContainer(TEST_IMAGE)
      .withName(`brabo-t${runId}-taken`)
      .withLabels({ [TEST_LABEL]: runId })
      .withCommand(['sleep', '300'])
      .start();
    const byName = await docker.listContainers({ all: true, filters: { name: [`brabo-t${runId}-taken`] } });
    expect(byName).toHaveLength(1);
    const result = await broker.start(spec('taken', workspace));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.failure.code).toBe('broker_error');
      expect(result.failure.message).toContain('does not manage');
    }
    await foreign.stop({ timeout: 0 });
  });
});
