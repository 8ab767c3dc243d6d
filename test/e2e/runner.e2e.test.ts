// End to end over a real socket: an in-process gateway on port 0, real `./bin/brabo runner`
// processes, a real phoenix client on `agent:<id>`. RN-497 (runner route), the named failures, the
// waiting agent (task.action_settled), exactly-once under duplicate delivery.
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PhoenixSocket } from '../gateway/phoenix-clients.ts';
import {
  allowCommands,
  createProject,
  events,
  joinAgentTopic,
  killAllChildren,
  type Project,
  type RunnerProcess,
  type Server,
  settled,
  startRunner,
  startServer,
  stopChild,
  tempDir,
  waitUntil,
} from './support.ts';

let server: Server;
let home: string;
const sockets: PhoenixSocket[] = [];

/** A runner project on "the user's machine" (a temp folder) with a counting script and its runner. */
async function runnerProject(name: string, options: { runnerRoot?: (root: string) => string; connect?: boolean } = {}) {
  const root = join(home, name);
  mkdirSync(join(root, 'sub'), { recursive: true });
  // Each run appends one line: the side-effect counter that proves "ran once".
  writeFileSync(join(root, 'count.sh'), 'echo run >> "$(dirname "$0")/counter.txt"\necho "hello from $(pwd)"\n');
  // Not in `allow` (so it needs a click): waits for a `go` file, then counts.
  writeFileSync(
    join(root, 'gate.sh'),
    'cd "$(dirname "$0")"; while [ ! -f go ]; do sleep 0.05; done\necho run >> counter.txt\necho gate-open\n',
  );
  const project: Project = await createProject(server, { executionMode: 'runner', root, name });
  await allowCommands(server, project.id, ['Terminal(sh count.sh)']);
  let runner: RunnerProcess | null = null;
  if (options.connect !== false) {
    const token = (await server.call('POST', `/api/projects/${project.id}/runner-tokens`)).body;
    runner = startRunner({
      url: server.wsUrl,
      token: token.token,
      root: options.runnerRoot?.(root) ?? root,
      projectId: project.id,
      journal: join(home, `${name}.journal`),
    });
    await waitUntil(() => server.app.execution?.gateway.runners.isConnected(project.id), `runner of ${name} to join`);
  }
  const counter = (): number =>
    existsSync(join(root, 'counter.txt'))
      ? readFileSync(join(root, 'counter.txt'), 'utf8').trim().split('\n').length
      : 0;
  /** Proposes gate.sh (pending), approves it and waits until the runner has it. */
  const approvedGate = async (): Promise<string> => {
    const posted = await propose(project.id, 'sh gate.sh', root, { timeoutMs: 60_000 });
    expect(posted.body.status).toBe('pending');
    expect((await server.call('POST', `/api/actions/${posted.body.id}/approve`, { userId: 'max' })).body.desfecho).toBe(
      'aprovada',
    );
    await waitUntil(
      async () =>
        ['accepted', 'running'].includes(
          (await server.call('GET', `/api/actions/${posted.body.id}`)).body.dispatch?.state,
        ),
      'the runner to accept',
    );
    return posted.body.id as string;
  };
  const openGate = (): void => writeFileSync(join(root, 'go'), '');
  return { project, root, runner, counter, approvedGate, openGate };
}

const propose = (projectId: string, command: string, cwd: string, extra: Record<string, unknown> = {}) =>
  server.call('POST', `/api/projects/${projectId}/actions`, {
    agentId: 'agent-dev',
    actionType: 'terminal',
    payload: { command, cwd, ...extra },
  });

beforeAll(async () => {
  home = tempDir('home');
  server = await startServer({ limits: { proposeWaitMs: 8_000, runnerGraceMs: 1_500 } });
});

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await killAllChildren();
  await server?.close();
});

describe('runner route (RN-497), real brabo runner over a real socket', () => {
  it('auto-approved command runs once on the runner; its output is in the POST answer, the action and the events', async () => {
    const { project, root, counter } = await runnerProject('auto');
    const posted = await propose(project.id, 'sh count.sh', root);
    expect(posted.status).toBe(201);
    expect(posted.body.status).toBe('auto_approved');
    expect(posted.body.execution).toMatchObject({
      state: 'executed',
      attempt: 1,
      target: `runner:${project.id}`,
      outcome: { status: 'executed', exitCode: 0, origin: 'runner' },
    });
    expect(posted.body.execution.outcome.stdout).toContain(`hello from ${root}`);
    const action = (await server.call('GET', `/api/actions/${posted.body.id}`)).body;
    expect(action).toMatchObject({
      status: 'auto_approved',
      execution: { status: 'executed' },
      dispatch: { state: 'executed' },
    });
    const executed = (await events(server, project.id)).filter((e) => e.type === 'action.executed');
    expect(executed).toHaveLength(1);
    expect(executed[0]).toMatchObject({
      actorKind: 'system',
      actionId: posted.body.id,
      payload: { exitCode: 0, dispatchId: action.dispatch.dispatchId },
    });
    expect(executed[0]?.payload.stdout).toContain('hello from');
    expect(counter()).toBe(1);
  });

  it("a runner project keeps its permissions.json gateway-side (<dataDir>/runner-projects/<workspaceDirName>), never on the user's root", async () => {
    const { project, root } = await runnerProject('perms', { connect: false });
    const { workspaceDirName } = (await server.call('GET', `/api/projects/${project.id}`)).body;
    const file = join(server.dir, 'data', 'runner-projects', workspaceDirName, 'permissions.json');
    expect(JSON.parse(readFileSync(file, 'utf8')).allow).toEqual(['Terminal(sh count.sh)']);
    expect(existsSync(join(root, 'permissions.json'))).toBe(false);
  });

  it('human approval, then execution: the waiting agent (phoenix client on agent:<id>) gets the real result', async () => {
    const { project, root, counter } = await runnerProject('approve');
    const agent = await joinAgentTopic(server.wsUrl, 'agent-dev');
    sockets.push(agent.socket);
    const posted = await propose(project.id, 'sh count.sh && echo extra', root);
    expect(posted.body.status).toBe('pending');
    expect((await server.call('GET', `/api/actions/${posted.body.id}`)).body.turn).toMatchObject({
      agentId: 'agent-dev',
      state: 'awaiting_approval',
    });
    expect(counter()).toBe(0);
    const approved = await server.call('POST', `/api/actions/${posted.body.id}/approve`, { userId: 'max' });
    expect(approved.body.desfecho).toBe('aprovada');
    const view = await settled(server, posted.body.id);
    expect(view.settlement).toMatchObject({ status: 'executed', result: { exitCode: 0 } });
    expect(view.settlement.result.stdout).toContain('extra');
    const pushed = await waitUntil(
      () => agent.received.find((m) => m.payload.actionId === posted.body.id),
      'task.action_settled on agent:agent-dev',
    );
    expect(pushed.payload).toEqual(view.settlement);
    expect(view.turn).toMatchObject({ state: 'settled' });
    expect(counter()).toBe(1);
  });

  it('a denial reaches the waiting agent as its answer, and nothing runs', async () => {
    const { project, root, counter } = await runnerProject('deny');
    const agent = await joinAgentTopic(server.wsUrl, 'agent-dev');
    sockets.push(agent.socket);
    const posted = await propose(project.id, 'sh count.sh && echo nope', root);
    expect(posted.body.status).toBe('pending');
    await server.call('POST', `/api/actions/${posted.body.id}/deny`, { userId: 'max', reason: 'not on a Friday' });
    const pushed = await waitUntil(
      () => agent.received.find((m) => m.payload.actionId === posted.body.id),
      'the denial on agent:agent-dev',
    );
    expect(pushed.payload).toEqual({
      actionId: posted.body.id,
      status: 'denied',
      reason: { code: 'denied', message: 'not on a Friday' },
    });
    expect((await server.call('GET', `/api/actions/${posted.body.id}`)).body).toMatchObject({
      status: 'denied',
      execution: null,
      turn: { state: 'settled' },
    });
    expect(counter()).toBe(0);
  });

  it('no runner connected -> runner_not_connected at once, naming the project', async () => {
    const { project, root } = await runnerProject('absent', { connect: false });
    const started = Date.now();
    const posted = await propose(project.id, 'sh count.sh', root);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(posted.body.execution).toMatchObject({
      state: 'failed',
      outcome: { status: 'failed', code: 'runner_not_connected' },
    });
    expect(posted.body.execution.outcome.message).toContain(project.id);
    expect(posted.body.execution.outcome.message).toContain('brabo runner');
    const failed = (await events(server, project.id)).filter((e) => e.type === 'action.failed');
    expect(failed).toMatchObject([{ actorKind: 'system', payload: { code: 'runner_not_connected' } }]);
  });

  it("the runner refuses (cwd outside its --root) -> runner_refused with the runner's code and sentence", async () => {
    const { project, root, counter } = await runnerProject('refuse', { runnerRoot: (r) => join(r, 'sub') });
    const posted = await propose(project.id, 'sh count.sh', root);
    expect(posted.body.execution).toMatchObject({
      state: 'failed',
      outcome: { code: 'runner_refused', detail: { runnerCode: 'cwd_outside_root' } },
    });
    expect(posted.body.execution.outcome.message).toMatch(/refused.*cwd_outside_root/);
    expect(counter()).toBe(0);
  });

  it('the same dispatch delivered twice (while running and after) -> the command ran once', async () => {
    const { project, root, counter, approvedGate, openGate } = await runnerProject('twice');
    const actionId = await approvedGate();
    const hub = server.app.execution!.gateway.runners;
    const { dispatch } = (await server.call('GET', `/api/actions/${actionId}`)).body;
    const execute = {
      dispatchId: dispatch.dispatchId,
      attempt: dispatch.attempt + 1,
      action: { type: 'terminal' as const, command: 'sh gate.sh', cwd: root, timeoutMs: 60_000 },
    };
    expect(await hub.execute(project.id, execute)).toEqual({ ok: true }); // re-delivered while the first still runs
    openGate();
    const view = await settled(server, actionId);
    expect(view.settlement.result.stdout).toContain('gate-open');
    expect(await hub.execute(project.id, { ...execute, attempt: execute.attempt + 1 })).toEqual({ ok: true }); // after: answered from the journal
    await new Promise((r) => setTimeout(r, 500));
    expect(counter()).toBe(1);
    expect((await server.call('GET', `/api/actions/${actionId}`)).body.dispatch).toMatchObject({
      state: 'executed',
      attempt: 1,
    });
    expect((await events(server, project.id)).filter((e) => e.type === 'action.executed')).toHaveLength(1);
  });

  it('runner killed mid-command -> runner_lost after the grace period, never re-run', async () => {
    const { project, runner, counter, approvedGate, openGate } = await runnerProject('lost');
    const actionId = await approvedGate();
    await stopChild(runner!.child, 'SIGKILL');
    const view = await settled(server, actionId, 15_000);
    expect(view.settlement).toMatchObject({ status: 'failed', reason: { code: 'runner_lost' } });
    expect(view.settlement.reason.message).toContain('not re-run');
    const failed = (await events(server, project.id)).filter((e) => e.type === 'action.failed');
    expect(failed).toMatchObject([{ payload: { code: 'runner_lost', attempt: 1 } }]);
    openGate(); // lets the orphaned shell finish; nothing re-delivers it
    expect(counter()).toBeLessThanOrEqual(1);
  });
});
