// `brabo token`: the CLI talks to a real gateway over HTTP (mint, list, revoke, whoami), prints the
// secret alone on stdout, and fails with a named error and exit code when it should.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/token.ts';
import { ADMIN_TOKEN, seedProject, startTestApp, type TestApp } from '../http/helpers.ts';

let t: TestApp;
let url: string;
let projectId: string;

beforeAll(async () => {
  t = await startTestApp();
  projectId = (await seedProject(t)).id;
  await t.app.http.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.http.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => t.close());

async function brabo(argv: string[], env: NodeJS.ProcessEnv = { BRABO_ADMIN_TOKEN: ADMIN_TOKEN, BRABO_URL: url }) {
  let out = '';
  let err = '';
  const code = await run(argv, env, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

describe('brabo token', () => {
  it('mints each kind (secret alone on stdout), lists them without secrets, revokes one', async () => {
    const agent = await brabo([
      'mint',
      '--kind',
      'agent',
      '--project',
      projectId,
      '--agent',
      'agent-dev',
      '--label',
      'ci agent',
      '--expires-in',
      '30d',
    ]);
    expect(agent.code, agent.err).toBe(0);
    expect(agent.out).toMatch(/^brabo_agent_[A-Za-z0-9_-]{43}\n$/);
    const human = await brabo(['mint', '--kind', 'human', '--member', 'olivia']);
    expect(human.out).toMatch(/^brabo_human_/);
    expect((await brabo(['mint', '--kind', 'service', '--name', 'upstream'])).out).toMatch(/^brabo_service_/);
    expect((await brabo(['mint', '--kind', 'runner', '--project', projectId])).out).toMatch(/^[A-Za-z0-9_-]{43}\n$/);

    const listed = await brabo(['list', '--project', projectId]);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain('ci agent');
    expect(listed.out).toContain('agent-dev');
    expect(listed.out).not.toContain(agent.out.trim());

    const json = JSON.parse((await brabo(['list', '--kind', 'agent', '--json'])).out);
    const id = json.credentials.find((c: { label: string | null }) => c.label === 'ci agent').id;
    const revoked = await brabo(['revoke', id]);
    expect(revoked.code, revoked.err).toBe(0);
    expect(revoked.out).toContain(`revoked agent token ${id}`);
    expect((await t.callAs(agent.out.trim(), 'GET', '/api/me')).body.error).toBe('credential_revoked');
    expect((await brabo(['list', '--kind', 'agent'])).out).not.toContain(id);
    expect((await brabo(['list', '--kind', 'agent', '--all'])).out).toContain(id);
  });

  it('whoami with a human token shows the member and its projects', async () => {
    const human = (await brabo(['mint', '--kind', 'human', '--member', 'max'])).out.trim();
    const who = await brabo(['whoami'], { BRABO_TOKEN: human, BRABO_URL: url });
    expect(who.code).toBe(0);
    expect(who.out).toContain('human max');
    expect(who.out).toContain(projectId);
  });

  it('named failures: wrong kind of token, bad usage, unreachable gateway', async () => {
    const human = (await brabo(['mint', '--kind', 'human', '--member', 'olivia'])).out.trim();
    const refused = await brabo(['mint', '--kind', 'service', '--name', 'x'], { BRABO_TOKEN: human, BRABO_URL: url });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('admin_token_required');
    expect((await brabo(['mint'])).code).toBe(2);
    expect((await brabo(['mint', '--kind', 'agent', '--expires-in', 'soon'])).err).toContain('is not a duration');
    expect((await brabo(['revoke'])).code).toBe(2);
    expect((await brabo(['frobnicate'])).code).toBe(2);
    const down = await brabo(['list'], { BRABO_ADMIN_TOKEN: ADMIN_TOKEN, BRABO_URL: 'http://127.0.0.1:1' });
    expect(down.code).toBe(1);
    expect(down.err).toContain('cannot reach the gateway');
    expect((await brabo(['--help'])).out).toContain('brabo token mint --kind agent');
  });
});

// Last: it revokes the BRABO_ADMIN_TOKEN the tests above call with.
describe('brabo token, admin rotation', () => {
  it('rotates the admin token: mint --kind admin with an expiry, list shows its last use, the old one revoked; the last one is refused', async () => {
    const minted = await brabo(['mint', '--kind', 'admin', '--name', 'alice', '--expires-in', '90d']);
    expect(minted.code, minted.err).toBe(0);
    expect(minted.out).toMatch(/^brabo_admin_[A-Za-z0-9_-]{43}\n$/);
    const next = minted.out.trim();
    const asNext = { BRABO_TOKEN: next, BRABO_URL: url };
    const admins = JSON.parse((await brabo(['list', '--kind', 'admin', '--json'], asNext)).out).credentials as Array<{
      id: string;
      name: string;
      expiresAt: string | null;
      lastUsedAt: string | null;
    }>;
    const env = admins.find((c) => c.name === 'BRABO_ADMIN_TOKEN')!;
    expect(env.lastUsedAt).not.toBeNull();
    expect(admins.find((c) => c.name === 'alice')?.expiresAt).not.toBeNull();
    const table = (await brabo(['list', '--kind', 'admin'], asNext)).out;
    expect(table).toContain('alice');
    expect(table).not.toContain(next);
    expect((await brabo(['revoke', env.id], asNext)).out).toContain(`revoked admin token ${env.id}`);
    expect((await t.callAs(ADMIN_TOKEN, 'GET', '/api/me')).body.error).toBe('credential_revoked');
    const alice = admins.find((c) => c.name === 'alice')!;
    const last = await brabo(['revoke', alice.id], asNext);
    expect(last.code).toBe(1);
    expect(last.err).toContain('last_admin_credential');
  });
});
