// Adversarial: drive every path that handles a secret (admin token, runner tokens: issued, used
// at the upgrade, misused in query strings, revoked) with the most verbose logging, then search
// the whole pino output for the secrets.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.ts';
import { GATEWAY_CHECKOUT, loadExecutionConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { testAppConfig } from '../http/helpers.ts';

const ADMIN_TOKEN = 'log-secrets-admin-token-5f0c2a9e7b13';
let app: App;
let dir: string;
let base: string;
let logged = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brabo-sec-logs-'));
  const capture = new Writable({
    write(chunk, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });
  app = await createApp(
    testAppConfig(dir, {
      adminToken: ADMIN_TOKEN,
      gatewayCheckout: GATEWAY_CHECKOUT,
      logLevel: 'trace',
      execution: loadExecutionConfig({}, {}),
    }),
    { logger: createLogger('trace', capture) },
  );
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  await app.start();
  const address = app.http.server.address();
  base = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = async (
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` },
) => {
  const r = await fetch(`http://${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, body: (await r.text()) as string };
};

/** Opens a socket and resolves with the HTTP status of the upgrade (101 when accepted). */
const upgrade = (query: string, protocols?: string[]) =>
  new Promise<number>((resolve) => {
    const ws = new WebSocket(`ws://${base}/socket/websocket?vsn=2.0.0${query}`, protocols);
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('error', () => undefined);
  });

it('no admin token and no runner token ever reaches the log, whatever the caller does with them', async () => {
  const root = join(dir, 'runner-root');
  mkdirSync(root);
  const project = JSON.parse(
    (await call('POST', '/api/projects', { name: 'logs', executionMode: 'runner', root, ownerId: 'olivia' })).body,
  );
  const grant = JSON.parse((await call('POST', `/api/projects/${project.id}/runner-tokens`)).body);
  const revoked = JSON.parse((await call('POST', `/api/projects/${project.id}/runner-tokens`)).body);
  expect(grant.token.length).toBeGreaterThan(20);

  expect(await upgrade(`&token=${encodeURIComponent(grant.token)}`)).toBe(101);
  expect(await upgrade(`&token=${encodeURIComponent(ADMIN_TOKEN)}`)).toBe(101);
  expect(await upgrade('', ['phoenix', `base64url.bearer.phx.${Buffer.from(grant.token).toString('base64url')}`])).toBe(
    101,
  );
  await call('DELETE', `/api/projects/${project.id}/runner-tokens/${revoked.tokenId}`);
  expect(await upgrade(`&token=${encodeURIComponent(revoked.token)}`)).toBe(403);
  expect(await upgrade(`&token=${encodeURIComponent(`${ADMIN_TOKEN}-wrong`)}`)).toBe(403);

  // Callers who put secrets where they do not belong.
  await call('GET', `/api/projects/${project.id}?token=${ADMIN_TOKEN}&runner=${grant.token}`);
  await call('GET', `/healthz?token=${ADMIN_TOKEN}`);
  await call('GET', `/api/projects/${project.id}`, undefined, { authorization: `Bearer ${ADMIN_TOKEN}-almost` });
  await call('POST', `/api/projects/${project.id}/actions`, {
    agentId: 'olivia',
    actionType: 'terminal',
    payload: { command: `echo ${grant.token}` },
  });
  await call('POST', '/api/projects', `{"name": "${ADMIN_TOKEN}"`);
  await call('PUT', `/api/projects/${project.id}/permissions`, {
    userId: 'olivia',
    allow: [`Terminal(${ADMIN_TOKEN}`],
  });

  await new Promise((r) => setTimeout(r, 100));
  expect(logged.length).toBeGreaterThan(1000); // the capture works: trace logging is on
  expect(logged).toContain('?token=[redacted]&runner=[redacted]'); // requests are still logged, values dropped
  for (const secret of [ADMIN_TOKEN, grant.token, revoked.token, Buffer.from(grant.token).toString('base64url')]) {
    const at = logged.indexOf(secret);
    expect(at, `secret found in the log: ...${logged.slice(Math.max(0, at - 200), at + 50)}`).toBe(-1);
  }
});

it('no agent, human or service token reaches the log either: minted, used, mistyped, put in a query, revoked (issue 12)', async () => {
  const project = JSON.parse(
    (await call('POST', '/api/projects', { name: 'logs2', executionMode: 'container', ownerId: 'olivia' })).body,
  );
  await call('PUT', `/api/projects/${project.id}/members/agent-dev`, { role: 'developer', kind: 'agent' });
  const mint = async (body: object) =>
    JSON.parse((await call('POST', '/api/credentials', body)).body) as { id: string; token: string };
  const agent = await mint({ kind: 'agent', projectId: project.id, agentId: 'agent-dev' });
  const human = await mint({ kind: 'human', memberId: 'olivia' });
  const service = await mint({ kind: 'service', name: 'upstream' });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  const proposed = JSON.parse(
    (
      await call(
        'POST',
        `/api/projects/${project.id}/actions`,
        { agentId: 'agent-dev', actionType: 'terminal', payload: { command: 'make' } },
        bearer(agent.token),
      )
    ).body,
  );
  await call('POST', `/api/actions/${proposed.id}/approve`, {}, bearer(agent.token)); // 403 agent_cannot_decide
  await call('POST', `/api/actions/${proposed.id}/approve`, { userId: 'max' }, bearer(human.token)); // 403 acting_user_mismatch
  await call('GET', `/api/projects/${project.id}/events?token=${service.token}`, undefined, bearer(service.token));
  for (const token of [agent.token, human.token, service.token]) {
    await call('GET', '/api/me', undefined, bearer(`${token.slice(0, -2)}`));
    await call('GET', '/api/me', undefined, bearer(`${token}x`));
    expect(await upgrade(`&token=${encodeURIComponent(token)}`)).toBe(101);
  }
  await call('DELETE', `/api/credentials/${agent.id}`);
  await call('GET', '/api/me', undefined, bearer(agent.token)); // 401 credential_revoked
  expect(await upgrade(`&token=${encodeURIComponent(agent.token)}`)).toBe(403);

  await new Promise((r) => setTimeout(r, 100));
  expect(logged).toContain('auth_failed');
  for (const secret of [agent.token, human.token, service.token]) {
    for (const piece of [secret, secret.slice(0, -2), secret.slice(-40)]) {
      const at = logged.indexOf(piece);
      expect(at, `secret found in the log: ...${logged.slice(Math.max(0, at - 200), at + 50)}`).toBe(-1);
    }
  }
});
