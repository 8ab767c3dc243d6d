// End to end: the README's example executor (scripts/example-executor.sh, bash + curl + jq) run
// as a real process against a real gateway on a port. An approved git_push is claimed, its handler
// runs, the report settles it and the agent on `agent:<id>` is woken with task.action_settled
// (RN-073); a git_merge report makes its task done once and the PR is refused again (RN-628).
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PhoenixSocket } from '../gateway/phoenix-clients.ts';
import {
  createProject,
  events,
  joinAgentTopic,
  type Project,
  type Server,
  startServer,
  tempDir,
  waitUntil,
} from './support.ts';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/example-executor.sh');

let server: Server;
let project: Project;
let executorToken: string;
let home: string;
const sockets: PhoenixSocket[] = [];

/** Runs the example executor for one action; resolves with its exit code and stderr. */
function runExample(type: string, handler: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn('bash', [SCRIPT, type, handler, '--once'], {
      env: { ...process.env, BRABO_URL: server.base, BRABO_EXECUTOR_TOKEN: executorToken, BRABO_CLAIM_WAIT: '5' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', fail);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stderr });
    });
  });
}

async function proposeApproved(actionType: string, payload: Record<string, unknown>): Promise<string> {
  const proposed = await server.call('POST', `/api/projects/${project.id}/actions`, {
    agentId: 'agent-lead',
    actionType,
    payload,
  });
  expect(proposed.body.status).toBe('pending');
  expect((await server.call('POST', `/api/actions/${proposed.body.id}/approve`, { userId: 'max' })).status).toBe(200);
  return proposed.body.id;
}

beforeAll(async () => {
  server = await startServer();
  home = tempDir('executor');
  project = await createProject(server, { executionMode: 'container' });
  await server.call('PUT', `/api/projects/${project.id}/members/agent-lead`, { role: 'maintainer', kind: 'agent' });
  const minted = await server.call('POST', '/api/credentials', { kind: 'executor', name: 'example-git-bot' });
  executorToken = minted.body.token;
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the example executor (scripts/example-executor.sh)', () => {
  it('RN-073 RN-082: claims an approved git_push, runs its handler with the owner credential, and the agent is woken', async () => {
    const agent = await joinAgentTopic(server.wsUrl, 'agent-lead');
    sockets.push(agent.socket);
    const actionId = await proposeApproved('git_push', { branch: 'feature/e2e' });
    const seen = join(home, 'seen.json');
    const handler = join(home, 'push.sh');
    writeFileSync(handler, `#!/usr/bin/env bash\ncat > ${seen}\necho "pushed as $BRABO_CREDENTIAL_REF"\n`);
    chmodSync(handler, 0o755);

    const run = await runExample('git_push', handler);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toMatchObject({ actionId, payload: { branch: 'feature/e2e' } });
    const woken = await waitUntil(
      () => agent.received.find((m) => m.event === 'task.action_settled' && m.payload.actionId === actionId),
      'task.action_settled on agent:agent-lead',
    );
    expect(woken.payload).toMatchObject({ status: 'executed', result: { stdout: 'pushed as owner:olivia' } });
    const settlement = await server.call('GET', `/api/actions/${actionId}/settlement`);
    expect(settlement.body).toMatchObject({ state: 'settled', turn: { state: 'settled' } });
  });

  it('a handler that fails is reported failed with a code and a sentence', async () => {
    const actionId = await proposeApproved('pr_open', { title: 'E2E' });
    const handler = join(home, 'fail.sh');
    writeFileSync(handler, '#!/usr/bin/env bash\necho "remote: Permission to shop.git denied" >&2\nexit 3\n');
    chmodSync(handler, 0o755);
    expect((await runExample('pr_open', handler)).code).toBe(0);
    const settlement = await server.call('GET', `/api/actions/${actionId}/settlement`);
    expect(settlement.body.settlement).toMatchObject({ status: 'failed', reason: { code: 'handler_failed' } });
    expect(settlement.body.settlement.reason.message).toContain('exited with 3: remote: Permission to shop.git denied');
  });

  it('a claim long-poll whose executor hung up claims nothing; the action goes to the next claim', async () => {
    const service = server.app.execution?.dispatcher.executors;
    if (!service) throw new Error('no execution side');
    const hangUp = new AbortController();
    const abandoned = fetch(`${server.base}/api/executors/open_infra_pr/claim?wait=30`, {
      method: 'POST',
      headers: { authorization: `Bearer ${executorToken}` },
      signal: hangUp.signal,
    }).catch(() => 'aborted');
    await waitUntil(() => service.waitingClaims === 1, 'the long-poll to wait');
    hangUp.abort();
    expect(await abandoned).toBe('aborted');
    await waitUntil(() => service.waitingClaims === 0, 'the abandoned long-poll to stop');
    const actionId = await proposeApproved('open_infra_pr', { title: 'infra' });
    const claimed = await fetch(`${server.base}/api/executors/open_infra_pr/claim?wait=5`, {
      method: 'POST',
      headers: { authorization: `Bearer ${executorToken}` },
    });
    expect(claimed.status).toBe(200);
    expect(await claimed.json()).toMatchObject({ actionId, attempt: 1 });
    expect(
      (await events(server, project.id)).filter((e) => e.type === 'action.claimed' && e.actionId === actionId),
    ).toHaveLength(1);
  });

  it('RN-628: a git_merge run by the example makes the task done once; the PR is then refused with pr_ja_mergeado', async () => {
    const task = await server.call('POST', `/api/projects/${project.id}/tasks`, { title: 'checkout', prNumber: 42 });
    const actionId = await proposeApproved('git_merge', { branch: 'feature/e2e', prNumber: 42 });
    expect((await runExample('git_merge', 'true')).code).toBe(0);
    expect((await server.call('GET', `/api/tasks/${task.body.id}`)).body.status).toBe('done');
    const moved = (await events(server, project.id)).filter((e) => e.type === 'backlog.task_status_changed');
    expect(moved).toEqual([expect.objectContaining({ actionId })]);
    const again = await server.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-lead',
      actionType: 'git_merge',
      payload: { branch: 'feature/e2e', prNumber: 42 },
    });
    expect(again).toMatchObject({ status: 409, body: { error: 'pr_ja_mergeado' } });
  });
});
