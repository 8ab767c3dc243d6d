// Adversarial (issue 12.2): the console's files need a credential, and the console cookie opens
// those files only. Cookies that are not a live human or service token are refused on the files
// (401 login page / 401, or 403 naming the kind); a valid cookie drives no API route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, seedProject, startTestApp, type TestApp } from '../http/helpers.ts';

let t: TestApp;
let human: { token: string; id: string };
let revoked: { token: string; id: string };
let agent: { token: string; id: string };
let p: { id: string };

beforeAll(async () => {
  t = await startTestApp();
  p = await seedProject(t);
  human = await t.mint({ kind: 'human', memberId: 'olivia' });
  revoked = await t.mint({ kind: 'human', memberId: 'olivia' });
  await t.callAs(ADMIN_TOKEN, 'DELETE', `/api/credentials/${revoked.id}`);
  agent = await t.mint({ kind: 'agent', projectId: p.id, agentId: 'agent-dev' });
});
afterAll(async () => t.close());

const withCookie = (method: 'GET' | 'POST', url: string, cookie: string | null, payload?: object) =>
  t.app.http.inject({ method, url, headers: cookie === null ? {} : { cookie }, ...(payload ? { payload } : {}) });

const FILES = ['/', '/assets/index-abc.js', '/favicon.svg'];

describe('the console cookie', () => {
  it('a live human token in the cookie opens the files (never 401/403); without it / is the login page', async () => {
    for (const url of FILES) {
      const r = await withCookie('GET', url, `brabo_console=${human.token}`);
      expect([401, 403], url).not.toContain(r.statusCode);
      const anonymous = await withCookie('GET', url, null);
      expect(anonymous.statusCode, url).toBe(401);
    }
    const login = await withCookie('GET', '/', null);
    expect(login.headers['content-type']).toContain('text/html');
    expect(login.body).toContain('<form id="login"');
    expect(login.body).not.toContain('/assets/');
  });

  it('12 cookies that are not a live console credential are refused on every file', async () => {
    const refused: Array<[string, number, string?]> = [
      [`brabo_console=${revoked.token}`, 401, 'credential_revoked'],
      [`brabo_console=${human.token.slice(0, -1)}`, 401],
      [`brabo_console=${human.token}x`, 401],
      [`brabo_console=${human.token.toUpperCase()}`, 401],
      ['brabo_console=', 401],
      [`Brabo_Console=${human.token}`, 401],
      [`brabo_console2=${human.token}`, 401],
      [`xbrabo_console=${human.token}`, 401],
      [`token=${human.token}`, 401],
      [`brabo_console=${ADMIN_TOKEN}`, 403, 'console_needs_human_token'],
      [`brabo_console=${agent.token}`, 403, 'console_needs_human_token'],
      [`brabo_console=${t.serviceToken.slice(0, 20)}`, 401],
    ];
    for (const [cookie, status, code] of refused) {
      for (const url of FILES) {
        const r = await withCookie('GET', url, cookie);
        expect(r.statusCode, `${cookie} ${url}`).toBe(status);
        if (code && url !== '/') expect(r.json().error, cookie).toBe(code);
      }
    }
  });

  it('a valid console cookie drives no API route: each one answers 401 as without a credential', async () => {
    const cookie = `brabo_console=${human.token}`;
    for (const [method, url, body] of [
      ['GET', '/api/me', undefined],
      ['GET', '/api/console/queue', undefined],
      ['GET', `/api/projects/${p.id}/events`, undefined],
      ['POST', '/api/credentials', { kind: 'admin' }],
      ['POST', `/api/projects/${p.id}/tasks`, { title: 'x' }],
      ['GET', '/docs', undefined],
    ] as const) {
      const r = await withCookie(method, url, cookie, body);
      expect(r.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('POST /console/session sets an HttpOnly SameSite=Strict cookie for a human token only', async () => {
    const set = await t.app.http.inject({
      method: 'POST',
      url: '/console/session',
      headers: { authorization: `Bearer ${human.token}` },
    });
    expect(set.statusCode).toBe(204);
    const header = String(set.headers['set-cookie']);
    expect(header).toContain(`brabo_console=${human.token}`);
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Strict/);
    for (const token of [ADMIN_TOKEN, agent.token]) {
      const r = await t.app.http.inject({
        method: 'POST',
        url: '/console/session',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(r.statusCode).toBe(403);
      expect(r.headers['set-cookie']).toBeUndefined();
    }
    // The cookie alone cannot set or refresh itself.
    const byCookie = await withCookie('POST', '/console/session', `brabo_console=${human.token}`);
    expect(byCookie.statusCode).toBe(401);
  });
});
