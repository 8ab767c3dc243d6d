// Issue 11.5, container mode end to end on the real broker: the project folder is created owned by
// the container user (BRABO_CONTAINER_USER, default 1000:1000); a command before the container
// runs fails as container_not_running naming both ways to start it; the Infra handoff starts it;
// an auto-approved command writes a file that appears on the host with the container user as its
// owner; a folder the container user cannot write fails the start as workspace_not_writable.
import { chmod, chown, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addInfraAgent,
  allowCommands,
  createProject,
  type DockerServer,
  settled,
  startDockerServer,
} from './support.ts';

let server: DockerServer;

beforeAll(async () => {
  server = await startDockerServer('e2e-cm', { cpus: 0.25, memoryMb: 64, pids: 64 });
});

afterAll(async () => {
  await server?.close();
});

async function propose(projectId: string, command: string) {
  const posted = await server.call('POST', `/api/projects/${projectId}/actions`, {
    agentId: 'agent-dev',
    actionType: 'terminal',
    payload: { command },
  });
  expect(posted.status).toBe(201);
  expect(posted.body.status).toBe('auto_approved');
  return (await settled(server, posted.body.id, 60_000)).settlement;
}

describe('container mode end to end (issue 11.5)', () => {
  let projectId = '';
  let root = '';

  it('creates the project folder owned by the container user', async () => {
    const project = await createProject(server, { executionMode: 'container' });
    projectId = project.id;
    root = project.root;
    await allowCommands(server, projectId, [
      'Terminal(ls:*)',
      'Terminal(mkdir:*)',
      'Terminal(echo:*)',
      'Terminal(id:*)',
    ]);
    const info = await stat(root);
    expect(info.isDirectory()).toBe(true);
    expect(`${info.uid}:${info.gid}`).toBe('1000:1000');
  });

  it('a command before the container runs is container_not_running and says how to start it', async () => {
    const settlement = await propose(projectId, 'ls');
    expect(settlement).toMatchObject({ status: 'failed', reason: { code: 'container_not_running' } });
    const message: string = settlement.reason.message;
    expect(message).toContain(`POST /api/projects/${projectId}/handoffs/infra/accept`);
    expect(message).toContain(`POST /api/projects/${projectId}/actions`);
    expect(message).toContain('"actionType": "container_start"');
    expect(message).not.toContain('Start the container first.');
  });

  it('the Infra handoff starts it; a command writes a file that the host sees, owned by the container user', async () => {
    await addInfraAgent(server, projectId);
    const accepted = await server.call('POST', `/api/projects/${projectId}/handoffs/infra/accept`, { userId: 'max' });
    expect(accepted.status).toBe(201);
    expect((await settled(server, accepted.body.id, 60_000)).settlement).toMatchObject({ status: 'executed' });

    const settlement = await propose(
      projectId,
      'mkdir -p src && echo "written in the container" > src/hello.txt && id -u && ls -n src/hello.txt',
    );
    expect(settlement).toMatchObject({ status: 'executed' });
    const file = join(root, 'src', 'hello.txt');
    expect(await readFile(file, 'utf8')).toBe('written in the container\n');
    const owner = await stat(file);
    expect(`${owner.uid}:${owner.gid}`).toBe('1000:1000');
    // The start's write probe left nothing behind.
    expect((await readdir(root)).filter((name) => name.startsWith('.brabo-write-probe'))).toEqual([]);
  }, 120_000);

  it('a folder the container user cannot write fails the start as workspace_not_writable, naming the cause', async () => {
    const project = await createProject(server, { executionMode: 'container', name: 'Locked' });
    await chown(project.root, 0, 0);
    await chmod(project.root, 0o755);
    await addInfraAgent(server, project.id);
    const accepted = await server.call('POST', `/api/projects/${project.id}/handoffs/infra/accept`, { userId: 'max' });
    const settlement = (await settled(server, accepted.body.id, 60_000)).settlement;
    expect(settlement).toMatchObject({ status: 'failed', reason: { code: 'workspace_not_writable' } });
    const message: string = settlement.reason.message;
    expect(message).toContain('Permission denied');
    expect(message).toContain('owned by 0:0 with mode 755');
    expect(message).toContain(`chown -R 1000:1000 ${project.root}`);
    const row = (await server.call('GET', '/api/containers')).body.containers.find(
      (c: { projectId: string }) => c.projectId === project.id,
    );
    expect(row).toMatchObject({ state: 'failed' });
    // The container that could not write is not left running.
    const running = (await server.containers()).filter(
      (c) => c.Labels['brabo.project'] === project.id && c.State === 'running',
    );
    expect(running).toHaveLength(0);
  }, 120_000);
});
