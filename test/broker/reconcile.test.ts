// reconcileContainers (start-up): project_containers is brought in line with what the Docker
// engine has, the engine being the truth. Unit cases with a scripted broker on a real SQLite
// store, then the real engine: a container removed or stopped behind the gateway's back.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BrokerResult, ContainerInfo } from '../../broker/port.ts';
import { createActions, HandoffNotifier } from '../../src/actions/index.ts';
import { reconcileContainers } from '../../src/execution/reconcile.ts';
import { createLogger } from '../../src/logger.ts';
import { PermissionsFile } from '../../src/store/permissions-file.ts';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/store.ts';
import type { ContainerLifecycle } from '../../src/store/types.ts';
import { cleanUp, docker, makeWorkspace, newRunId, spec, testBroker, value } from './helpers.ts';

let dir: string;
let store: SqliteStore;
let lines: Array<Record<string, unknown>>;
const logger = () =>
  createLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        callback();
      },
    }),
  );

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'brabo-reconcile-'));
  store = openSqliteStore(join(dir, 'data'));
  lines = [];
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function project(mode: 'container' | 'runner' = 'container'): Promise<string> {
  const roots = {
    projectWorkspacesRoot: join(dir, 'ws'),
    projectsBase: join(dir, 'pb'),
    gatewayCheckout: join(dir, 'gw'),
    runnerProjectsDir: join(dir, 'rp'),
  };
  const actions = createActions({
    store,
    permissionsFile: new PermissionsFile(),
    roots,
    execution: new HandoffNotifier(createLogger('silent')),
    observer: { proposed() {}, decided() {} },
    logger: createLogger('silent'),
  });
  const machine = join(dir, 'machine');
  mkdirSync(machine, { recursive: true });
  const created = await actions.createProject({
    name: `R ${Math.random()}`,
    executionMode: mode,
    ownerId: 'olivia',
    ...(mode === 'runner' ? { root: machine } : {}),
  });
  return created.id;
}

async function row(projectId: string, state: ContainerLifecycle, containerId: string | null): Promise<void> {
  await store.transaction((tx) => tx.containers.setState(projectId, state, containerId, '2026-01-01T00:00:00.000Z'));
}

const engine = (entries: ContainerInfo[]) => ({
  calls: [] as string[][],
  async reconcile(expected: string[]): Promise<BrokerResult<ContainerInfo[]>> {
    this.calls.push(expected);
    const byProject = new Map(entries.map((entry) => [entry.projectId, entry]));
    const listed = expected.map(
      (projectId) => byProject.get(projectId) ?? { projectId, containerId: null, state: 'absent' as const },
    );
    return { ok: true, value: [...listed, ...entries.filter((entry) => !expected.includes(entry.projectId))] };
  },
});

describe('reconcileContainers against a scripted engine', () => {
  it('moves each row to what the engine has and counts the changes; a second run changes nothing', async () => {
    const [gone, replaced, restarted, crashedStart, same] = [
      await project(),
      await project(),
      await project(),
      await project(),
      await project(),
    ];
    await row(gone, 'running', 'c-gone');
    await row(replaced, 'running', 'c-old');
    await row(restarted, 'stopped', 'c-r');
    await row(crashedStart, 'provisioning', null);
    await row(same, 'running', 'c-same');
    const broker = engine([
      { projectId: replaced, containerId: 'c-new', state: 'running' },
      { projectId: restarted, containerId: 'c-r', state: 'running' },
      { projectId: crashedStart, containerId: 'c-p', state: 'stopped' },
      { projectId: same, containerId: 'c-same', state: 'running' },
    ]);
    expect(await reconcileContainers(store, broker, logger())).toBe(4);
    const byId = new Map((await store.read.containers.list()).map((r) => [r.projectId, r]));
    expect(byId.get(gone)).toMatchObject({ state: 'absent', containerId: null });
    expect(byId.get(replaced)).toMatchObject({ state: 'running', containerId: 'c-new' });
    expect(byId.get(restarted)).toMatchObject({ state: 'running', containerId: 'c-r' });
    expect(byId.get(crashedStart)).toMatchObject({ state: 'stopped', containerId: 'c-p' });
    expect(byId.get(same)).toMatchObject({
      state: 'running',
      containerId: 'c-same',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(lines.filter((l) => l.code === 'container_reconciled').map((l) => [l.projectId, l.from, l.to])).toEqual(
      expect.arrayContaining([
        [gone, 'running', 'absent'],
        [replaced, 'running', 'running'],
        [restarted, 'stopped', 'running'],
        [crashedStart, 'provisioning', 'stopped'],
      ]),
    );
    expect(await reconcileContainers(store, broker, logger())).toBe(0);
  });

  it('a failed start stays failed while the engine has nothing; absent stays absent', async () => {
    const failed = await project();
    const absent = await project();
    await row(failed, 'failed', null);
    await row(absent, 'absent', null);
    expect(await reconcileContainers(store, engine([]), logger())).toBe(0);
    expect((await store.read.containers.get(failed))?.state).toBe('failed');
    expect((await store.read.containers.get(absent))?.state).toBe('absent');
  });

  it('asks only about container projects, and leaves a managed container of an unknown project alone', async () => {
    const mine = await project();
    const runnerProject = await project('runner');
    await row(mine, 'running', 'c-1');
    await row(runnerProject, 'running', 'c-runner');
    const broker = engine([
      { projectId: mine, containerId: 'c-1', state: 'running' },
      { projectId: 'nobody-knows', containerId: 'c-x', state: 'running' },
    ]);
    expect(await reconcileContainers(store, broker, logger())).toBe(0);
    expect(broker.calls).toEqual([[mine]]);
    expect(lines.find((l) => l.code === 'unknown_container')).toMatchObject({
      projectId: 'nobody-knows',
      containerId: 'c-x',
    });
    expect(await store.read.containers.list()).toHaveLength(2);
  });

  it('an engine that cannot be reached leaves the table as it was, with a named log line', async () => {
    const p = await project();
    await row(p, 'running', 'c-1');
    const unavailable = {
      reconcile: async (): Promise<BrokerResult<ContainerInfo[]>> => ({
        ok: false,
        failure: {
          code: 'broker_unavailable',
          message: 'The Docker engine at unix:///nowhere cannot be reached (ENOENT).',
          detail: { errno: 'ENOENT' },
        },
      }),
    };
    expect(await reconcileContainers(store, unavailable, logger())).toBe(0);
    expect(lines.find((l) => l.code === 'broker_unavailable')?.msg).toContain('container reconciliation skipped');
    const throwing = {
      reconcile: async (): Promise<BrokerResult<ContainerInfo[]>> => {
        throw new Error('injected');
      },
    };
    expect(await reconcileContainers(store, throwing, logger())).toBe(0);
    expect(lines.find((l) => l.code === 'reconcile_failed')).toBeDefined();
    expect(await store.read.containers.get(p)).toMatchObject({ state: 'running', containerId: 'c-1' });
  });
});

describe('reconcileContainers against the real engine', () => {
  const runId = newRunId();
  const folders: string[] = [];
  afterAll(async () => {
    await cleanUp(runId, folders);
  });

  it("a container removed, stopped, or left running behind the gateway's back is seen as it is", async () => {
    const broker = testBroker(runId);
    const [removed, stopped, running] = [await project(), await project(), await project()];
    const ids: Record<string, string> = {};
    for (const p of [removed, stopped, running]) {
      const workspace = await makeWorkspace();
      folders.push(workspace);
      ids[p] = value(await broker.start(spec(p, workspace))).containerId!;
      await row(p, 'running', ids[p]!);
    }
    await docker.getContainer(ids[removed]!).remove({ force: true });
    await docker.getContainer(ids[stopped]!).stop({ t: 1 });
    expect(await reconcileContainers(store, broker, logger())).toBe(2);
    expect(await store.read.containers.get(removed)).toMatchObject({ state: 'absent', containerId: null });
    expect(await store.read.containers.get(stopped)).toMatchObject({ state: 'stopped', containerId: ids[stopped] });
    expect(await store.read.containers.get(running)).toMatchObject({ state: 'running', containerId: ids[running] });
  });
});
