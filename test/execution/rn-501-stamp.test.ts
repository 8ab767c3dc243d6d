// RN-501: `workspace_verified_at` is stamped when the project folder has been proven writable:
// the server's mkdir + write probe of a mounted folder (stamped at once, before any runner takes
// the dispatch or any lifecycle transition), or a container_start whose in-container write probe
// passed (the start ends `running`). Not when a runner merely takes the dispatch.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BrokerResult, ContainerBrokerPort, ContainerInfo } from '../../broker/port.ts';
import type { RunnerPort } from '../../src/execution/ports.ts';
import { createLogger } from '../../src/logger.ts';
import type { Store } from '../../src/store/types.ts';
import { openTestStore } from '../support/store-mode.ts';
import { dispatcherHarness } from './dispatcher-harness.ts';

let dir: string;
let store: Store;
const logger = createLogger('silent');

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brabo-rn501-'));
  store = await openTestStore(join(dir, 'data'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const absentRunner: RunnerPort = {
  isConnected: () => false,
  lastSeen: () => null,
  execute: async () => ({ ok: true }),
  onJoined: () => () => {},
  onLeft: () => () => {},
};

function brokerStarting(result: (projectId: string) => BrokerResult<ContainerInfo>): ContainerBrokerPort {
  const unused = async (): Promise<never> => {
    throw new Error('not used in this test');
  };
  return {
    start: async (spec) => result(spec.projectId),
    stop: unused,
    remove: unused,
    inspect: unused,
    list: async () => ({ ok: true, value: [] }),
    exec: unused,
  };
}

async function startOn(
  mode: 'container' | 'mounted',
  ports: { broker?: ContainerBrokerPort | null; runners?: RunnerPort | null },
) {
  mkdirSync(join(dir, 'pb'), { recursive: true });
  const { dispatcher, actions } = dispatcherHarness(store, dir, logger, ports);
  const project = await actions.createProject({ name: 'Stamp', executionMode: mode, ownerId: 'olivia' });
  const { action } = await actions.propose({
    projectId: project.id,
    proposerId: 'olivia',
    actionType: 'container_start',
    payload: {},
  });
  await actions.approve(action.id, 'olivia');
  for (let i = 0; i < 300; i++) {
    const d = await store.read.dispatches.getByAction(action.id);
    if (d && (d.state === 'executed' || d.state === 'failed')) {
      const stamped = (await store.read.projects.get(project.id))?.workspaceVerifiedAt ?? null;
      await dispatcher.close();
      return { dispatch: d, stamped };
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await dispatcher.close();
  throw new Error('container_start did not settle');
}

describe('RN-501 workspace_verified_at', () => {
  it('RN-501 a mounted folder proven writable is stamped even though no runner ever takes the start', async () => {
    const { dispatch, stamped } = await startOn('mounted', { runners: absentRunner });
    expect(dispatch.outcome).toMatchObject({ status: 'failed', code: 'runner_not_connected' });
    expect(dispatch.attempt).toBe(0); // never claimed, never sent
    expect(stamped).not.toBeNull();
    expect(Number.isNaN(Date.parse(stamped!))).toBe(false);
  });

  it('RN-501 a container_start whose write probe passed (running) stamps the folder', async () => {
    const { dispatch, stamped } = await startOn('container', {
      broker: brokerStarting((projectId) => ({ ok: true, value: { projectId, containerId: 'c1', state: 'running' } })),
    });
    expect(dispatch.outcome).toMatchObject({ status: 'executed' });
    expect(stamped).not.toBeNull();
    expect(Number.isNaN(Date.parse(stamped!))).toBe(false);
  });

  it('RN-501 a container_start refused as workspace_not_writable stamps nothing', async () => {
    const { dispatch, stamped } = await startOn('container', {
      broker: brokerStarting(() => ({
        ok: false,
        failure: { code: 'workspace_not_writable', message: 'the container user cannot write /work (injected)' },
      })),
    });
    expect(dispatch.outcome).toMatchObject({ status: 'failed', code: 'workspace_not_writable' });
    expect(stamped).toBeNull();
  });
});
