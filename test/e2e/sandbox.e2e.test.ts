// Issue 9 B.1/B.3 end to end: a real gateway and real `brabo runner` processes. The runner reports
// its sandbox in its join (presence, runner.joined event); auto-approved commands run sandboxed,
// human-approved ones as approved; a project that requires a sandbox fails auto-approved work as
// sandbox_required instead of sending it to an unsandboxed runner.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allowCommands,
  createProject,
  events,
  killAllChildren,
  type Server,
  settled,
  startRunner,
  startServer,
  tempDir,
  waitUntil,
} from './support.ts';

let server: Server;
let home: string;
beforeAll(async () => {
  server = await startServer();
  home = tempDir('sandbox-e2e');
});
afterAll(async () => {
  await killAllChildren();
  await server.close();
});

async function project(name: string, runnerFlags: string[], body: Record<string, unknown> = {}) {
  const root = join(home, name);
  mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(root, '.git', 'config'), '[core]\n');
  const created = await createProject(server, { executionMode: 'runner', root, name, ...body });
  await allowCommands(server, created.id, ['Terminal(python3:*)', 'Terminal(echo:*)']);
  const token = (await server.call('POST', `/api/projects/${created.id}/runner-tokens`)).body.token as string;
  const runner = startRunner({
    url: server.wsUrl,
    token,
    root,
    projectId: created.id,
    journal: join(home, `${name}.journal`),
    extra: runnerFlags,
  });
  await waitUntil(
    () => server.app.execution?.gateway.runners.isConnected(created.id),
    `runner of ${name} to join`,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\nrunner output:\n${runner.output()}`);
  });
  const propose = (command: string) =>
    server.call('POST', `/api/projects/${created.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command, cwd: root, timeoutMs: 20_000 },
    });
  return { id: created.id, root, runner, propose };
}

describe('a runner with the default --sandbox auto on a machine with bwrap', () => {
  it('reports its sandbox (presence, runner.joined); auto-approved commands cannot touch protected files; human-approved ones run as approved', async () => {
    const p = await project('auto', []);
    const info = server.app.execution!.gateway.runners.connectedRunners().find((runner) => runner.projectId === p.id);
    expect(info?.sandbox).toEqual({
      mode: 'auto',
      available: true,
      backend: 'bwrap',
      network: true,
      git: 'read-only',
      enforced: true,
      reason: null,
    });
    await waitUntil(
      async () => (await events(server, p.id)).find((e) => e.type === 'runner.joined'),
      'the runner.joined event',
    );
    const joined = (await events(server, p.id)).find((e) => e.type === 'runner.joined');
    expect(joined).toMatchObject({
      actorKind: 'system',
      payload: { sandbox: { mode: 'auto', backend: 'bwrap', enforced: true } },
    });
    expect(p.runner.output()).toContain(
      'sandbox  bwrap for auto-approved commands, network on, .git read-only (--sandbox auto)',
    );

    const outside = join(home, 'auto-outside.txt');
    // Spelled so the lexical engine cannot see the protected name: decide() auto-approves it, the sandbox holds.
    const auto = await p.propose(
      `python3 -c "import os; open(os.path.join('.g'+'it', 'con'+'fig'),'a').write('[core] fsmonitor = evil'); open(os.sep.join(['', *'${outside.slice(1)}'.split('/')]),'w').write('x')"`,
    );
    expect(auto.body.status).toBe('auto_approved');
    const autoSettled = await settled(server, auto.body.id);
    expect(autoSettled.settlement.status).toBe('executed');
    expect(autoSettled.settlement.result.exitCode).not.toBe(0);
    expect(readFileSync(join(p.root, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(outside)).toBe(false);

    const human = await p.propose(`echo approved > ${join(home, 'human-outside.txt')}`);
    expect(human.body.status).toBe('pending');
    await server.call('POST', `/api/actions/${human.body.id}/approve`, { userId: 'max' });
    expect((await settled(server, human.body.id)).settlement).toMatchObject({
      status: 'executed',
      result: { exitCode: 0 },
    });
    expect(readFileSync(join(home, 'human-outside.txt'), 'utf8')).toBe('approved\n');
  });
});

describe('a project that requires a sandbox', () => {
  it('with an unsandboxed runner (--sandbox off): auto-approved work fails sandbox_required and never reaches the runner; human-approved work runs', async () => {
    const p = await project('required-off', ['--sandbox', 'off'], { sandboxRequired: true });
    expect((await server.call('GET', `/api/projects/${p.id}`)).body.sandboxRequired).toBe(true);
    const auto = await p.propose('echo should-not-run >> ran.txt');
    expect(auto.body.status).toBe('auto_approved');
    const failed = await settled(server, auto.body.id);
    expect(failed.settlement).toMatchObject({ status: 'failed' });
    const view = (await server.call('GET', `/api/actions/${auto.body.id}`)).body;
    expect(view.dispatch).toMatchObject({ state: 'failed', outcome: { code: 'sandbox_required' } });
    expect(String(view.dispatch.outcome.message)).toContain('--sandbox off');
    expect(existsSync(join(p.root, 'ran.txt'))).toBe(false);
    expect(p.runner.output()).not.toContain(auto.body.id.slice(0, 8));

    const human = await p.propose('sh -c "echo human >> ran.txt"');
    expect(human.body.status).toBe('pending');
    await server.call('POST', `/api/actions/${human.body.id}/approve`, { userId: 'max' });
    expect((await settled(server, human.body.id)).settlement).toMatchObject({ status: 'executed' });
    expect(readFileSync(join(p.root, 'ran.txt'), 'utf8')).toBe('human\n');
  });

  it('the requirement can be set later by an owner (event recorded); a sandboxed runner then runs auto-approved work', async () => {
    const p = await project('required-later', []);
    expect(
      (await server.call('PUT', `/api/projects/${p.id}/sandbox`, { required: true, actingUserId: 'max' })).status,
    ).toBe(403);
    const set = await server.call('PUT', `/api/projects/${p.id}/sandbox`, { required: true, actingUserId: 'olivia' });
    expect(set).toMatchObject({ status: 200, body: { sandboxRequired: true } });
    expect((await events(server, p.id)).filter((e) => e.type === 'project.sandbox_requirement_changed')).toEqual([
      expect.objectContaining({
        actorId: 'olivia',
        payload: {
          sandboxRequired: true,
          // The admin token is a stored credential: its id, never the secret or a fixed name.
          credential: {
            id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
            kind: 'admin',
          },
        },
      }), // set with the admin token (issue 12: events name the credential)
    ]);
    const auto = await p.propose('echo inside-the-sandbox');
    expect((await settled(server, auto.body.id)).settlement).toMatchObject({
      status: 'executed',
      result: { stdout: 'inside-the-sandbox\n' },
    });
  });
});
