// An external executor on the Phoenix socket (topic `executor:<type>`), with a real phoenix 1.8
// client: it is offered an approved action, claims it, reports, and the agent is woken (RN-073);
// the credential reference is the owner's (RN-082); refusals are named replies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PhoenixChannel, PhoenixSocket } from '../gateway/phoenix-clients.ts';
import {
  connectSocket,
  createProject,
  joinAgentTopic,
  type Project,
  type Server,
  startServer,
  waitUntil,
} from './support.ts';

let server: Server;
let project: Project;
let executorToken: string;
const sockets: PhoenixSocket[] = [];

async function proposeApproved(actionType: string, payload: Record<string, unknown>): Promise<string> {
  const proposed = await server.call('POST', `/api/projects/${project.id}/actions`, {
    agentId: 'agent-lead',
    actionType,
    payload,
  });
  expect((await server.call('POST', `/api/actions/${proposed.body.id}/approve`, { userId: 'max' })).status).toBe(200);
  return proposed.body.id;
}

/** Joins `topic` with `token`; collects `offer` pushes. */
async function joinExecutor(topic: string, token = executorToken) {
  const socket = connectSocket(server.wsUrl, token);
  sockets.push(socket);
  const channel = socket.channel(topic, {});
  const offers: Array<{ type: string }> = [];
  channel.on('offer', (payload) => offers.push(payload as { type: string }));
  const joined = await new Promise<{ status: string; response: any }>((resolve) => {
    channel
      .join()
      .receive('ok', (response) => resolve({ status: 'ok', response }))
      .receive('error', (response) => resolve({ status: 'error', response }))
      .receive('timeout', () => resolve({ status: 'timeout', response: null }));
  });
  return { channel, offers, joined };
}

function send(channel: PhoenixChannel, event: string, payload: object): Promise<{ status: string; response: any }> {
  return new Promise((resolve) => {
    channel
      .push(event, payload)
      .receive('ok', (response) => resolve({ status: 'ok', response }))
      .receive('error', (response) => resolve({ status: 'error', response }))
      .receive('timeout', () => resolve({ status: 'timeout', response: null }));
  });
}

beforeAll(async () => {
  server = await startServer();
  project = await createProject(server, { executionMode: 'container' });
  await server.call('PUT', `/api/projects/${project.id}/members/agent-lead`, { role: 'maintainer', kind: 'agent' });
  executorToken = (await server.call('POST', '/api/credentials', { kind: 'executor', name: 'socket-bot' })).body.token;
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.close();
});

describe('executor:<type> on the socket', () => {
  it('RN-073 RN-082: offered, claimed and reported over the socket; the agent is woken with the result', async () => {
    const agent = await joinAgentTopic(server.wsUrl, 'agent-lead');
    sockets.push(agent.socket);
    const { channel, offers, joined } = await joinExecutor('executor:git_push');
    expect(joined.status).toBe('ok');
    expect(await send(channel, 'claim', {})).toEqual({ status: 'ok', response: { action: null } });

    const actionId = await proposeApproved('git_push', { branch: 'feature/socket' });
    await waitUntil(() => offers.length > 0, 'an offer on executor:git_push');
    expect(offers[0]).toEqual({ type: 'git_push' });
    const claimed = await send(channel, 'claim', { leaseSeconds: 120 });
    expect(claimed.response.action).toMatchObject({ actionId, attempt: 1, credentialRef: 'owner:olivia' });
    const { dispatchId } = claimed.response.action;

    expect((await send(channel, 'extend', { dispatchId, attempt: 1, leaseSeconds: 600 })).status).toBe('ok');
    const reported = await send(channel, 'report', { dispatchId, attempt: 1, status: 'executed', output: 'pushed' });
    expect(reported).toEqual({ status: 'ok', response: { recorded: 'settled', state: 'executed' } });
    const woken = await waitUntil(
      () => agent.received.find((m) => m.event === 'task.action_settled' && m.payload.actionId === actionId),
      'task.action_settled',
    );
    expect(woken.payload).toMatchObject({ status: 'executed', result: { stdout: 'pushed' } });
    // Stale and contradicting reports are named refusals.
    expect((await send(channel, 'report', { dispatchId, attempt: 2, status: 'executed' })).response.code).toBe(
      'stale_attempt',
    );
    expect((await send(channel, 'report', { dispatchId, attempt: 1, status: 'executed' })).response).toMatchObject({
      recorded: 'duplicate',
    });
    expect((await send(channel, 'report', { dispatchId, attempt: 1, status: 'failed' })).response.code).toBe(
      'failure_needs_code_and_message',
    );
    expect((await send(channel, 'report', { attempt: 1 })).response.code).toBe('invalid_request');
    expect((await send(channel, 'merge', {})).response.code).toBe('unknown_event');
  });

  it('an action approved before the executor joins is offered right after the join', async () => {
    const actionId = await proposeApproved('pr_open', { title: 'before join' });
    const { channel, offers } = await joinExecutor('executor:pr_open');
    await waitUntil(() => offers.length > 0, 'the offer after join');
    expect((await send(channel, 'claim', {})).response.action).toMatchObject({ actionId });
  });

  it.each(['executor:terminal', 'executor:container_start', 'executor:bogus'])(
    '%s is refused not_an_executor_type',
    async (topic) => {
      const { joined } = await joinExecutor(topic);
      expect(joined).toMatchObject({ status: 'error', response: { code: 'not_an_executor_type' } });
    },
  );

  it('a report on another type topic is refused dispatch_type_mismatch', async () => {
    await proposeApproved('git_commit', { message: 'x' });
    const commit = await joinExecutor('executor:git_commit');
    const claimed = await send(commit.channel, 'claim', {});
    const other = await joinExecutor('executor:pr_open');
    const r = await send(other.channel, 'report', {
      dispatchId: claimed.response.action.dispatchId,
      attempt: 1,
      status: 'executed',
    });
    expect(r).toMatchObject({ status: 'error', response: { code: 'dispatch_type_mismatch' } });
  });
});
