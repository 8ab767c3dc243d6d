// Named failures that need no runner and no Docker: 409 no_broker for a container project's
// container_* on a gateway without a broker, and RN-501 materialization failing as
// workspace_not_writable with no `provisioning` row left behind.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addInfraAgent,
  allowCommands,
  createProject,
  events,
  type Server,
  settled,
  startServer,
  tempDir,
} from './support.ts';

let server: Server;
let blockedBase: string;

beforeAll(async () => {
  const dir = tempDir('failures');
  // A regular file where a folder should be: mkdir -p fails (ENOTDIR) even for root.
  writeFileSync(join(dir, 'not-a-folder'), 'x');
  blockedBase = join(dir, 'not-a-folder', 'projects');
  mkdirSync(dir, { recursive: true });
  server = await startServer({ projectsBase: blockedBase, docker: null });
});

afterAll(async () => {
  await server?.close();
});

describe('named failures without runner or broker', () => {
  it('409 no_broker: container_start of a container project on a gateway without Docker is refused and nothing is written', async () => {
    const project = await createProject(server, { executionMode: 'container' });
    await addInfraAgent(server, project.id);
    const accepted = await server.call('POST', `/api/projects/${project.id}/handoffs/infra/accept`, { userId: 'max' });
    expect(accepted.status).toBe(409);
    expect(accepted.body.error).toBe('no_broker');
    expect(accepted.body.message).toContain('BRABO_DOCKER=1');
    const direct = await server.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'max',
      actionType: 'container_start',
      payload: {},
    });
    expect(direct).toMatchObject({ status: 409, body: { error: 'no_broker' } });
    expect((await events(server, project.id)).filter((e) => e.type === 'proposed_action.created')).toHaveLength(0);
  });

  it('RN-671: 409 no_broker on the Infra handoff leaves no autonomy row, no handoff.accepted event, the infra member as it was', async () => {
    const project = await createProject(server, { executionMode: 'container' });
    await addInfraAgent(server, project.id);
    const before = await events(server, project.id);
    const accepted = await server.call('POST', `/api/projects/${project.id}/handoffs/infra/accept`, { userId: 'max' });
    expect(accepted).toMatchObject({ status: 409, body: { error: 'no_broker' } });
    expect((await server.call('GET', `/api/projects/${project.id}/agent-autonomy`)).body.rules).toEqual([]);
    expect(await events(server, project.id)).toEqual(before);
    expect((await server.call('GET', `/api/projects/${project.id}/members`)).body.members).toContainEqual(
      expect.objectContaining({ memberId: 'infra', kind: 'agent', role: 'maintainer' }),
    );
  });

  it('an auto-approved command in a container project without a broker answers at once: the dispatch stays queued (parked), the request is not held', async () => {
    const project = await createProject(server, { executionMode: 'container' });
    await allowCommands(server, project.id, ['Terminal(ls)']);
    const started = Date.now();
    const proposed = await server.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: 'ls', cwd: project.root },
    });
    const tookMs = Date.now() - started;
    expect(proposed.status).toBe(201);
    expect(proposed.body).toMatchObject({ status: 'auto_approved', execution: { state: 'queued' } });
    // The bounded wait is BRABO_PROPOSE_WAIT_MS (30 s by default): a parked dispatch must not use it.
    expect(tookMs).toBeLessThan(10_000);
  });

  it('RN-501: an unwritable BRABO_PROJECTS_BASE fails container_start as workspace_not_writable, naming the variable, the path and the next step; no provisioning row', async () => {
    const project = await createProject(server, { executionMode: 'mounted' });
    await addInfraAgent(server, project.id);
    const accepted = await server.call('POST', `/api/projects/${project.id}/handoffs/infra/accept`, { userId: 'max' });
    // The base is unreadable too, so permissions.json counts as broken and nothing is auto-approved
    // (fail closed): a human approves the start instead.
    expect(accepted.body).toMatchObject({ status: 'pending', reason: expect.stringContaining('permissions.json') });
    expect(
      (await server.call('POST', `/api/actions/${accepted.body.id}/approve`, { userId: 'olivia' })).body.desfecho,
    ).toBe('aprovada');
    const view = await settled(server, accepted.body.id);
    expect(view.settlement).toMatchObject({ status: 'failed', reason: { code: 'workspace_not_writable' } });
    const message: string = view.settlement.reason.message;
    expect(message).toContain(`BRABO_PROJECTS_BASE=${blockedBase}`);
    expect(message).toContain(project.root);
    expect(message).toMatch(/Likely cause/);
    expect(message).toMatch(/Next step/);
    expect(
      (await server.call('GET', '/api/containers')).body.containers.some(
        (c: { projectId: string }) => c.projectId === project.id,
      ),
    ).toBe(false);
    expect((await server.call('GET', `/api/projects/${project.id}`)).body.workspaceVerifiedAt ?? null).toBeNull();
    const failed = (await events(server, project.id)).filter((e) => e.type === 'action.failed');
    expect(failed).toMatchObject([
      { actorKind: 'system', payload: { code: 'workspace_not_writable', detail: { variable: 'BRABO_PROJECTS_BASE' } } },
    ]);
  });
});
