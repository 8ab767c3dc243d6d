// Container mode end to end with the real Docker broker (image brabo-test-busybox, never pulled;
// containers labelled brabo.test=<runId> and removed by label): the Infra handoff's start runs
// without a click with resources from module_map (RN-671, RN-683), terminal commands run in the
// container with the host root rewritten to /work, stop/remove from the containers page.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docker } from '../broker/helpers.ts';
import { addInfraAgent, createProject, events, type DockerServer, settled, startDockerServer } from './support.ts';

let server: DockerServer;

beforeAll(async () => {
  server = await startDockerServer('e2e', { cpus: 0.1, memoryMb: 32, pids: 32 });
});

afterAll(async () => {
  await server?.close();
});

describe('container mode on the real broker', () => {
  let projectId = '';
  let root = '';

  it('RN-671/RN-683: accepting the Infra handoff starts the container without a second click, resources summed from module_map', async () => {
    const project = await createProject(server, {
      executionMode: 'container',
      moduleMap: {
        api: { resources: { cpus: 0.25, memoryMb: 64, pids: 32 } },
        web: { resources: { cpus: 0.25, memoryMb: 64, pids: 32 } },
      },
    });
    projectId = project.id;
    root = project.root;
    await addInfraAgent(server, project.id);
    const accepted = await server.call('POST', `/api/projects/${project.id}/handoffs/infra/accept`, { userId: 'max' });
    expect(accepted.status).toBe(201);
    expect(accepted.body.status).toBe('auto_approved');
    const view = await settled(server, accepted.body.id, 60_000);
    expect(view.settlement).toMatchObject({ status: 'executed' });
    const action = (await server.call('GET', `/api/actions/${accepted.body.id}`)).body;
    expect(action.dispatch).toMatchObject({
      state: 'executed',
      target: 'broker',
      outcome: { resources: { cpus: 0.5, memoryMb: 128, pids: 64 } },
    });
    const row = (await server.call('GET', '/api/containers')).body.containers.find(
      (c: { projectId: string }) => c.projectId === project.id,
    );
    expect(row).toMatchObject({ state: 'running' });
    const [info] = await server.containers();
    const inspected = await docker.getContainer(info!.Id).inspect();
    expect(inspected.HostConfig).toMatchObject({ NanoCpus: 500_000_000, Memory: 128 * 1024 * 1024, PidsLimit: 64 });
    const log = await events(server, project.id);
    expect(log.filter((e) => e.type === 'proposed_action.approved')).toHaveLength(0); // no click
    expect(log.find((e) => e.type === 'proposed_action.created' && e.actionId === accepted.body.id)).toMatchObject({
      actorId: 'infra',
      payload: { status: 'auto_approved' },
    });
  });

  it('a terminal command runs in the container (container floor), host cwd rewritten to /work just before the call', async () => {
    mkdirSync(join(root, 'sub'), { recursive: true });
    const posted = await server.call('POST', `/api/projects/${projectId}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: 'pwd', cwd: join(root, 'sub') },
    });
    expect(posted.body.status).toBe('auto_approved');
    expect(posted.body.execution).toMatchObject({ state: 'executed', outcome: { exitCode: 0, origin: 'broker' } });
    expect(posted.body.execution.outcome.stdout.trim()).toBe('/work/sub');
  });

  it('RN-683: a field below the module_map minimum fails before any lifecycle transition', async () => {
    const project = await createProject(server, {
      executionMode: 'container',
      moduleMap: { api: { resources: { cpus: 0.05, memoryMb: 16, pids: 8 } }, web: {} },
    });
    const posted = await server.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'max',
      actionType: 'container_start',
      payload: { cpus: 0.05 },
    });
    expect(posted.body.status).toBe('pending');
    await server.call('POST', `/api/actions/${posted.body.id}/approve`, { userId: 'olivia' });
    const view = await settled(server, posted.body.id);
    // web declares nothing, so today's default (0.1 CPU) is the lower bound.
    expect(view.settlement).toMatchObject({ status: 'failed', reason: { code: 'resources_below_minimum' } });
    expect(view.settlement.reason.message).toContain('at least 0.1');
    expect(
      (await server.call('GET', '/api/containers')).body.containers.some(
        (c: { projectId: string }) => c.projectId === project.id,
      ),
    ).toBe(false);
  });

  it('RN-495: stop and remove from the containers page are proposed by the clicking human; the lifecycle stays true', async () => {
    const stop = await server.call('POST', `/api/containers/${projectId}/stop`, { userId: 'max' });
    expect(stop.status).toBe(201);
    expect((await server.call('GET', `/api/actions/${stop.body.id}`)).body).toMatchObject({
      proposerId: 'max',
      proposerKind: 'human',
      actionType: 'container_stop',
    });
    expect(stop.body.status).toBe('pending'); // nothing configured: a human decides
    await server.call('POST', `/api/actions/${stop.body.id}/approve`, { userId: 'olivia' });
    expect((await settled(server, stop.body.id, 60_000)).settlement.status).toBe('executed');
    expect(
      (await server.call('GET', '/api/containers')).body.containers.find(
        (c: { projectId: string }) => c.projectId === projectId,
      ),
    ).toMatchObject({ state: 'stopped' });

    const remove = await server.call('POST', `/api/containers/${projectId}/remove`, { userId: 'max' });
    expect(remove.body.status).toBe('pending'); // container_remove is never auto-approved
    await server.call('POST', `/api/actions/${remove.body.id}/approve`, { userId: 'olivia' });
    expect((await settled(server, remove.body.id, 60_000)).settlement.status).toBe('executed');
    expect(
      (await server.call('GET', '/api/containers')).body.containers.find(
        (c: { projectId: string }) => c.projectId === projectId,
      ),
    ).toMatchObject({ state: 'absent', containerId: null });
    expect(await server.containers()).toHaveLength(0);
  });
});
