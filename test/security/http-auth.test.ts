// Adversarial: a bearer token guards every /api route whatever the URL spelling, and the open
// routes (/healthz, /metrics) give away nothing secret; /docs needs a token since issue 12.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, seedProject, startTestApp, type TestApp } from '../http/helpers.ts';

let t: TestApp;
let projectId: string;

beforeAll(async () => {
  t = await startTestApp();
  ({ id: projectId } = await seedProject(t));
});
afterAll(async () => t.close());

const inject = async (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) => {
  const r = await t.app.http.inject({
    method: method as 'GET',
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: r.statusCode, body: r.body };
};

/** Every documented /api operation, with its path parameters filled in. */
function apiOperations(): Array<{ method: string; url: string }> {
  const spec = t.app.http.swagger() as { paths: Record<string, Record<string, unknown>> };
  const out: Array<{ method: string; url: string }> = [];
  for (const [path, operations] of Object.entries(spec.paths)) {
    if (!path.startsWith('/api')) continue;
    const url = path.replace(/\{[^}]+\}/g, (name) => (name === '{id}' || name === '{projectId}' ? projectId : 'x'));
    for (const method of Object.keys(operations)) out.push({ method: method.toUpperCase(), url });
  }
  return out;
}

describe('the admin token guards every /api route', () => {
  it('the route list is not empty (the enumeration itself works)', () => {
    expect(apiOperations().length).toBeGreaterThan(15);
  });

  it('no token, a wrong token, another scheme, or the token in the query string: 401 on every operation', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}` },
      { authorization: `Bearer ${ADMIN_TOKEN}x` },
      { authorization: `Bearer ${ADMIN_TOKEN.slice(0, -1)}` },
      { authorization: 'Bearer' },
    ];
    for (const { method, url } of apiOperations()) {
      for (const headers of attempts) {
        const r = await inject(
          method,
          url,
          headers,
          method === 'GET' || method === 'DELETE' ? undefined : { userId: 'olivia' },
        );
        expect(r.status, `${method} ${url} with ${JSON.stringify(headers)}`).toBe(401);
      }
      const inQuery = await inject(method, `${url}?token=${ADMIN_TOKEN}&access_token=${ADMIN_TOKEN}`);
      expect(inQuery.status, `${method} ${url}?token=`).toBe(401);
    }
  });

  it('percent-encoded, doubled or re-cased spellings of /api never reach a route without the token', async () => {
    const spellings = [
      `/%61pi/projects/${projectId}`,
      `/%61%70%69/projects/${projectId}/members`,
      `/ap%69/projects/${projectId}/permissions`,
      `/api/%70rojects/${projectId}`,
      `//api/projects/${projectId}`,
      `/API/projects/${projectId}`,
      `/api;x/projects/${projectId}`,
      `/./api/projects/${projectId}`,
      `/healthz/../api/projects/${projectId}`,
      `/docs/../api/projects/${projectId}`,
    ];
    for (const url of spellings) {
      const r = await inject('GET', url);
      expect(r.status, url).toBe(401);
      expect(r.body, url).not.toContain('Shop API');
    }
    const write = await inject('PUT', `/%61pi/projects/${projectId}/members/mallory`, {}, { role: 'owner' });
    expect(write.status).toBe(401);
    const members = await t.call('GET', `/api/projects/${projectId}/members`);
    expect(members.body.members.map((m: { memberId: string }) => m.memberId)).not.toContain('mallory');
  });

  it('unknown paths need the token too (no route probing without it)', async () => {
    expect((await inject('GET', '/nothing-here')).status).toBe(401);
    expect((await inject('GET', '/nothing-here', { authorization: `Bearer ${ADMIN_TOKEN}` })).status).toBe(404);
  });

  it('the scheme is case-insensitive and the right token works (the guard is not a blanket refusal)', async () => {
    expect((await inject('GET', `/api/projects/${projectId}`, { authorization: `bearer ${ADMIN_TOKEN}` })).status).toBe(
      200,
    );
    expect(
      (await inject('GET', `/%61pi/projects/${projectId}`, { authorization: `Bearer ${ADMIN_TOKEN}` })).status,
    ).toBe(200);
  });
});

describe('public routes: decided public, and they leak nothing', () => {
  it('/healthz and /metrics answer without the token; /docs needs one (only health, readiness and metrics are open)', async () => {
    expect((await inject('GET', '/healthz')).status).toBe(200);
    expect((await inject('GET', '/metrics')).status).toBe(200);
    expect((await inject('GET', '/docs/json')).status).toBe(401);
    expect((await inject('GET', '/docs/json', { authorization: `Bearer ${t.serviceToken}` })).status).toBe(200);
  });

  it('/metrics and /docs carry no token, project id, member id or host path, even after traffic', async () => {
    await t.call('POST', `/api/projects/${projectId}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: 'ls' },
    });
    await inject('GET', `/api/projects/${projectId}?token=${ADMIN_TOKEN}`);
    for (const url of ['/metrics', '/docs/json', '/docs/yaml']) {
      const r = await inject('GET', url, url === '/metrics' ? {} : { authorization: `Bearer ${t.serviceToken}` });
      expect(r.status, url).toBe(200);
      for (const secret of [ADMIN_TOKEN, t.serviceToken, projectId, 'olivia', 'agent-dev', t.dir])
        expect(r.body, `${url} contains ${secret}`).not.toContain(secret);
    }
  });
});
