// The socket side of the credentials: every topic with every kind (the topic part of the
// authorization table), and live sockets of revoked or expired credentials closed by the server,
// including a revocation written by another node (seen by the sweep).
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIAL_KINDS, type CredentialKind } from '../../src/auth/principal.ts';
import { TOPIC_TABLE, topicRuleFor } from '../../src/auth/table.ts';
import { type PhoenixSocket, Socket18 } from '../gateway/phoenix-clients.ts';
import { ADMIN_TOKEN, api, type Server, startServer, tempDir, waitUntil } from '../e2e/support.ts';

let server: Server;
let p: string;
let q: string;
const tokens = {} as Record<CredentialKind, string>;
const sockets: PhoenixSocket[] = [];

const mint = async (body: object): Promise<{ token: string; id: string }> => {
  const r = await server.call('POST', '/api/credentials', body);
  if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  return r.body;
};

async function project(name: string): Promise<string> {
  const root = tempDir(name);
  const created = await server.call('POST', '/api/projects', {
    name,
    executionMode: 'runner',
    root,
    ownerId: name === 'alpha' ? 'olivia' : 'quinn',
  });
  await server.call('PUT', `/api/projects/${created.body.id}/members/agent-dev`, { role: 'developer', kind: 'agent' });
  return created.body.id;
}

beforeAll(async () => {
  server = await startServer({ auth: { socketSweepMs: 100 } });
  p = await project('alpha');
  q = await project('beta');
  tokens.admin = ADMIN_TOKEN;
  tokens.agent = (await mint({ kind: 'agent', projectId: p, agentId: 'agent-dev' })).token;
  tokens.human = (await mint({ kind: 'human', memberId: 'olivia' })).token;
  tokens.runner = (await mint({ kind: 'runner', projectId: p })).token;
  tokens.service = (await mint({ kind: 'service', name: 'upstream' })).token;
  tokens.executor = (await mint({ kind: 'executor', name: 'git-bot' })).token;
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.close();
});

function join(token: string, topic: string): Promise<{ status: string; response: any }> {
  const socket = new Socket18(server.wsUrl, {
    transport: WebSocket,
    params: { token },
    timeout: 5_000,
    reconnectAfterMs: () => 60_000,
  });
  socket.connect();
  sockets.push(socket);
  const channel = socket.channel(topic, { protocolVersion: 1, hostname: 'test' });
  return new Promise((resolve) => {
    const push = channel.join();
    push.receive('ok', (response) => resolve({ status: 'ok', response }));
    push.receive('error', (response) => resolve({ status: 'error', response }));
    push.receive('timeout', () => resolve({ status: 'timeout', response: null }));
  }).then((r) => {
    channel.leave();
    return r as { status: string; response: any };
  });
}

describe('every topic with every kind', () => {
  // ok, or the table's named reason (the wire code stays forbidden_topic).
  const expected = (): Array<[string, CredentialKind, string]> => [
    [`runner:${p}`, 'admin', 'admin_token_provisioning_only'],
    [`runner:${p}`, 'agent', 'agent_token_scope'],
    [`runner:${p}`, 'human', 'ok'],
    [`runner:${q}`, 'human', 'not_a_member'],
    [`runner:${p}`, 'runner', 'ok'],
    [`runner:${q}`, 'runner', 'other_project'],
    [`runner:${p}`, 'service', 'ok'],
    ['agent:agent-dev', 'admin', 'admin_token_provisioning_only'],
    ['agent:agent-dev', 'agent', 'ok'],
    ['agent:agent-lead', 'agent', 'not_own_action'],
    ['agent:agent-dev', 'human', 'agent_topic_not_allowed'],
    ['agent:agent-dev', 'runner', 'runner_token_socket_only'],
    ['agent:agent-dev', 'service', 'ok'],
    ['agent:*', 'agent', 'agent_topic_not_allowed'],
    ['agent:*', 'human', 'agent_topic_not_allowed'],
    ['agent:*', 'admin', 'admin_token_provisioning_only'],
    ['agent:*', 'service', 'ok'],
    ['agent:*', 'runner', 'runner_token_socket_only'],
    [`project:${p}`, 'admin', 'admin_token_provisioning_only'],
    [`project:${p}`, 'agent', 'agent_token_scope'],
    [`project:${p}`, 'human', 'ok'],
    [`project:${q}`, 'human', 'not_a_member'],
    [`project:${p}`, 'runner', 'runner_token_socket_only'],
    [`project:${p}`, 'service', 'ok'],
    [`runner:${p}`, 'executor', 'executor_token_scope'],
    ['agent:agent-dev', 'executor', 'executor_token_scope'],
    ['agent:*', 'executor', 'executor_token_scope'],
    [`project:${p}`, 'executor', 'executor_token_scope'],
    ['executor:git_push', 'executor', 'ok'],
    ['executor:git_push', 'admin', 'executor_token_required'],
    ['executor:git_push', 'agent', 'executor_token_required'],
    ['executor:git_push', 'human', 'executor_token_required'],
    ['executor:git_push', 'runner', 'runner_token_socket_only'],
    ['executor:git_push', 'service', 'executor_token_required'],
  ];

  it('covers the whole topic table: every row of TOPIC_TABLE with every credential kind', () => {
    const covered = new Set(expected().map(([topic, kind]) => `${topicRuleFor(topic)?.topic} ${kind}`));
    const missing = TOPIC_TABLE.flatMap((rule) =>
      CREDENTIAL_KINDS.filter((kind) => !covered.has(`${rule.topic} ${kind}`)).map((kind) => `${rule.topic} ${kind}`),
    );
    expect(missing).toEqual([]);
  });

  it('joins exactly what the table allows, and names the reason of every refusal', async () => {
    for (const [topic, kind, want] of expected()) {
      const r = await join(tokens[kind], topic);
      if (want === 'ok') expect(r.status, `${kind} -> ${topic}: ${JSON.stringify(r.response)}`).toBe('ok');
      else {
        expect(r.status, `${kind} -> ${topic}`).toBe('error');
        expect(r.response.code, `${kind} -> ${topic}`).toBe('forbidden_topic');
        expect(r.response.reason, `${kind} -> ${topic}`).toBe(want);
      }
      // One runner per project: let the runner leave before the next runner join.
      if (kind === 'runner' && want === 'ok')
        await waitUntil(
          () => server.app.execution!.gateway.runners.connectedRunners().length === 0,
          'the runner to leave',
        );
    }
  });
});

/** The HTTP status of an upgrade with `token` (101 when accepted). */
const upgradeStatus = (token: string) =>
  new Promise<number>((resolve) => {
    const ws = new WebSocket(`${server.wsUrl}/websocket?vsn=2.0.0&token=${encodeURIComponent(token)}`);
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('error', () => undefined);
  });

/** A raw socket (to see the close code) joined on `topic`. */
async function liveSocket(token: string, topic: string): Promise<{ closed: Promise<number> }> {
  const ws = new WebSocket(`${server.wsUrl}/websocket?vsn=2.0.0&token=${encodeURIComponent(token)}`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  const joined = new Promise<unknown[]>((resolve) => ws.on('message', (data) => resolve(JSON.parse(String(data)))));
  ws.send(JSON.stringify(['1', '1', topic, 'phx_join', {}]));
  const reply = (await joined) as [string, string, string, string, { status: string }];
  expect(reply[4].status).toBe('ok');
  return { closed };
}

describe('live sockets of credentials that stop being valid', () => {
  it('revoking through the API closes the live socket with 1008 at once; the token is refused at the next upgrade', async () => {
    const agent = await mint({ kind: 'agent', projectId: p, agentId: 'agent-dev' });
    const { closed } = await liveSocket(agent.token, 'agent:agent-dev');
    const revoked = await server.call('DELETE', `/api/credentials/${agent.id}`);
    expect(revoked.body.socketsClosed).toBe(1);
    expect(await closed).toBe(1008);
    expect(await upgradeStatus(agent.token)).toBe(403);
  });

  it('a topic no channel serves is refused too', async () => {
    expect((await join(tokens.service, 'admin:everything')).status).toBe('error');
  });

  it('a revocation written by another node (straight into the store) closes the socket on the sweep', async () => {
    const human = await mint({ kind: 'human', memberId: 'olivia' });
    const { closed } = await liveSocket(human.token, `project:${p}`);
    await server.app.store.transaction((tx) => tx.credentials.revoke(human.id, new Date().toISOString()));
    expect(await closed).toBe(1008);
  });

  it('a socket whose token expires is closed when it expires', async () => {
    const short = await mint({ kind: 'service', name: 'short', expiresAt: new Date(Date.now() + 1_500).toISOString() });
    const started = Date.now();
    const { closed } = await liveSocket(short.token, 'agent:*');
    expect(await closed).toBe(1008);
    expect(Date.now() - started).toBeGreaterThan(500);
  });
});

describe('failed socket authentications are limited per source (issue 12.4)', () => {
  /** Status and Retry-After of an upgrade to `target` with `token`. */
  const upgrade = (target: Server, token: string) =>
    new Promise<{ status: number; retryAfter: string | undefined }>((resolve) => {
      const ws = new WebSocket(`${target.wsUrl}/websocket?vsn=2.0.0&token=${encodeURIComponent(token)}`);
      ws.on('unexpected-response', (_req, res) =>
        resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined }),
      );
      ws.on('open', () => {
        ws.close();
        resolve({ status: 101, retryAfter: undefined });
      });
      ws.on('error', () => undefined);
    });

  it('bad secrets get 403 until the limit, then every upgrade (a valid token too) gets 429 with Retry-After, as HTTP does', async () => {
    const limited = await startServer({ auth: { maxAuthFailures: 3 } });
    try {
      const human = await limited.call('POST', '/api/credentials', { kind: 'human', memberId: 'olivia' });
      expect(human.status).toBe(201);
      expect((await upgrade(limited, human.body.token)).status).toBe(101);
      for (const guess of ['brabo_agent_guess-1', 'brabo_human_guess-2', 'plain-guess-3'])
        expect((await upgrade(limited, guess)).status).toBe(403);
      for (const token of ['brabo_service_guess-4', human.body.token]) {
        const refused = await upgrade(limited, token);
        expect(refused.status).toBe(429);
        expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      }
      // One limit per source for both doors: HTTP from the same address is limited too.
      expect((await api(limited.base, human.body.token).call('GET', '/api/me')).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
