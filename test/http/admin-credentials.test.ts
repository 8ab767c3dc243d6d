// Admin is a stored credential kind (issue 12.1): hashed at rest, listed with its last use,
// mintable with an expiry, revocable; the last live admin credential cannot be revoked. The first
// one is BRABO_ADMIN_TOKEN (registered by its hash) or generated at the first start into
// <data-dir>/admin-token, which the server never needs again. Runs on SQLite and on Postgres.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.ts';
import type { AppConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { hashSecret } from '../../src/auth/principal.ts';
import { testDatabaseUrl } from '../support/store-mode.ts';
import { ADMIN_TOKEN, testAppConfig } from './helpers.ts';

type Reply = { status: number; body: any };

const dirs: string[] = [];
const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A config on a fresh store (its data dir, or a fresh Postgres schema); restarts reuse it. */
async function freshConfig(adminToken: string | null): Promise<AppConfig> {
  const dir = mkdtempSync(join(tmpdir(), 'brabo-admin-'));
  dirs.push(dir);
  const databaseUrl = await testDatabaseUrl();
  return testAppConfig(dir, { adminToken, ...(databaseUrl ? { databaseUrl } : {}) });
}

async function boot(config: AppConfig) {
  const app = await createApp(config, { logger: createLogger('silent') });
  apps.push(app);
  const callAs = async (token: string | null, method: string, url: string, body?: unknown): Promise<Reply> => {
    const r = await app.http.inject({
      method: method as 'GET',
      url,
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: r.statusCode, body: r.body.length > 0 ? r.json() : null };
  };
  const stop = async () => {
    apps.splice(apps.indexOf(app), 1);
    await app.close();
  };
  return { app, callAs, stop };
}

const admins = async (callAs: Awaited<ReturnType<typeof boot>>['callAs'], token: string, all = false) =>
  (await callAs(token, 'GET', `/api/credentials?kind=admin${all ? '&includeRevoked=true' : ''}`)).body
    .credentials as Array<{ id: string; name: string | null; lastUsedAt: string | null; revokedAt: string | null }>;

/** Every stored credential row, as text: what an attacker with the database would read. */
async function storedRows(config: AppConfig): Promise<string> {
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      return JSON.stringify((await client.query('SELECT * FROM credentials')).rows);
    } finally {
      await client.end();
    }
  }
  const db = new DatabaseSync(join(config.dataDir, 'brabo.sqlite'), { readOnly: true });
  try {
    return JSON.stringify(db.prepare('SELECT * FROM credentials').all());
  } finally {
    db.close();
  }
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('BRABO_ADMIN_TOKEN is an admin credential', () => {
  it('is registered by its hash, listed with its last use, and stays refused after it is revoked, across restarts', async () => {
    const config = await freshConfig(ADMIN_TOKEN);
    const first = await boot(config);
    const [row] = await admins(first.callAs, ADMIN_TOKEN);
    expect(row).toMatchObject({ name: 'BRABO_ADMIN_TOKEN', revokedAt: null });
    await until(
      async () => (await admins(first.callAs, ADMIN_TOKEN))[0]?.lastUsedAt !== null,
      'the last use to be recorded',
    );
    const rows = await storedRows(config);
    expect(rows).toContain(hashSecret(ADMIN_TOKEN));
    expect(rows).not.toContain(ADMIN_TOKEN);

    // Rotation: mint a new admin, then revoke the old one with it.
    const minted = await first.callAs(ADMIN_TOKEN, 'POST', '/api/credentials', { kind: 'admin', name: 'ops' });
    expect(minted.status).toBe(201);
    expect(minted.body.token).toMatch(/^brabo_admin_/);
    expect((await first.callAs(minted.body.token, 'GET', '/api/me')).body).toMatchObject({
      kind: 'admin',
      credentialId: minted.body.id,
    });
    expect((await first.callAs(minted.body.token, 'DELETE', `/api/credentials/${row!.id}`)).status).toBe(200);
    expect(await first.callAs(ADMIN_TOKEN, 'GET', '/api/credentials')).toMatchObject({
      status: 401,
      body: { error: 'credential_revoked' },
    });
    await first.stop();

    // The same variable on the next start is still the revoked credential: not re-registered, refused.
    const second = await boot(config);
    expect(second.app.adminBootstrap).toMatchObject({ source: 'env', credentialId: row!.id, usable: 1 });
    expect((await second.callAs(ADMIN_TOKEN, 'GET', '/api/me')).body.error).toBe('credential_revoked');
    expect((await second.callAs(minted.body.token, 'GET', '/api/me')).status).toBe(200);
    expect(await admins(second.callAs, minted.body.token, true)).toHaveLength(2);
  });

  it("a BRABO_ADMIN_TOKEN that is another kind's secret stops the start with admin_token_not_admin", async () => {
    const config = await freshConfig(ADMIN_TOKEN);
    const first = await boot(config);
    const project = await first.callAs(ADMIN_TOKEN, 'POST', '/api/projects', {
      name: 'P',
      executionMode: 'container',
      ownerId: 'o',
    });
    const secrets: Record<string, string> = {};
    for (const request of [
      { kind: 'human', memberId: 'olivia' },
      { kind: 'service', name: 'upstream' },
      // Runner tokens live in their own table: the registration must still see them.
      { kind: 'runner', projectId: project.body.id },
    ]) {
      const minted = await first.callAs(ADMIN_TOKEN, 'POST', '/api/credentials', request);
      expect(minted.status).toBe(201);
      secrets[request.kind] = minted.body.token as string;
    }
    await first.stop();
    for (const [kind, secret] of Object.entries(secrets)) {
      await expect(
        createApp({ ...config, adminToken: secret }, { logger: createLogger('silent') }),
        kind,
      ).rejects.toMatchObject({ code: 'admin_token_not_admin' });
    }
    // Nothing was registered on the way: the other kinds' secrets are still only what they were.
    const after = await boot(config);
    expect((await after.callAs(secrets.runner!, 'GET', '/api/me')).body.kind).not.toBe('admin');
    expect((await after.callAs(secrets.human!, 'GET', '/api/me')).body.kind).toBe('human');
  });
});

describe('minting, expiry and revoking admin credentials', () => {
  it('only an admin mints an admin; an expired one is refused; the last live one cannot be revoked', async () => {
    const config = await freshConfig(ADMIN_TOKEN);
    const { callAs } = await boot(config);
    for (const request of [
      { kind: 'human', memberId: 'olivia' },
      { kind: 'service', name: 'upstream' },
    ]) {
      const other = (await callAs(ADMIN_TOKEN, 'POST', '/api/credentials', request)).body.token as string;
      expect(await callAs(other, 'POST', '/api/credentials', { kind: 'admin' })).toMatchObject({
        status: 403,
        body: { error: 'admin_token_required' },
      });
    }
    const short = await callAs(ADMIN_TOKEN, 'POST', '/api/credentials', { kind: 'admin', expiresInSeconds: 1 });
    expect(short.body.expiresAt).not.toBeNull();
    expect((await callAs(short.body.token, 'GET', '/api/credentials')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await callAs(short.body.token, 'GET', '/api/credentials')).body.error).toBe('credential_expired');

    // The env credential is the only live one (the other expired): revoking it is refused.
    const [envRow] = await admins(callAs, ADMIN_TOKEN);
    const refused = await callAs(ADMIN_TOKEN, 'DELETE', `/api/credentials/${envRow!.id}`);
    expect(refused).toMatchObject({ status: 409, body: { error: 'last_admin_credential' } });
    expect((await callAs(ADMIN_TOKEN, 'GET', '/api/me')).status).toBe(200);
    // With a second live admin, either may go (here: itself).
    const spare = await callAs(ADMIN_TOKEN, 'POST', '/api/credentials', { kind: 'admin', name: 'spare' });
    expect((await callAs(ADMIN_TOKEN, 'DELETE', `/api/credentials/${envRow!.id}`)).status).toBe(200);
    expect((await callAs(spare.body.token, 'DELETE', `/api/credentials/${spare.body.id}`)).body.error).toBe(
      'last_admin_credential',
    );
  });

  it('a secret that is not exactly a live admin credential is never admin (11 variants): 401, and nothing minted', async () => {
    const config = await freshConfig(ADMIN_TOKEN);
    const { callAs } = await boot(config);
    const live = (await callAs(ADMIN_TOKEN, 'POST', '/api/credentials', { kind: 'admin' })).body.token as string;
    const revoked = await callAs(ADMIN_TOKEN, 'POST', '/api/credentials', { kind: 'admin' });
    await callAs(ADMIN_TOKEN, 'DELETE', `/api/credentials/${revoked.body.id}`);
    const expiring = await callAs(ADMIN_TOKEN, 'POST', '/api/credentials', { kind: 'admin', expiresInSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const variants = [
      live.slice(0, -1),
      `${live}x`,
      live.toUpperCase(),
      `brabo_admin_${live.slice('brabo_admin_'.length).split('').reverse().join('')}`,
      'brabo_admin_',
      hashSecret(live),
      Buffer.from(hashSecret(live), 'hex').toString('base64'),
      'admin', // the fixed credential id the single admin token once had
      `${live}\u0000`,
      revoked.body.token as string,
      expiring.body.token as string,
    ];
    for (const variant of variants) {
      const answer = await callAs(variant, 'POST', '/api/credentials', { kind: 'admin' });
      expect(answer.status, JSON.stringify(variant)).toBe(401);
    }
    // The env credential and the three minted above, nothing more.
    expect(await admins(callAs, live, true)).toHaveLength(4);
  });
});

describe('the first admin credential without BRABO_ADMIN_TOKEN', () => {
  it('is generated once into <data-dir>/admin-token (0600), stored as a hash; deleting the file breaks nothing', async () => {
    const config = await freshConfig(null);
    const first = await boot(config);
    const file = join(config.dataDir, 'admin-token');
    expect(first.app.adminBootstrap).toMatchObject({ source: 'generated', path: file, usable: 1 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = readFileSync(file, 'utf8').trim();
    expect((await first.callAs(token, 'GET', '/api/me')).body.kind).toBe('admin');
    const rows = await storedRows(config);
    expect(rows).not.toContain(token);
    expect(rows).toContain(hashSecret(token));
    await first.stop();

    rmSync(file);
    const second = await boot(config);
    expect(second.app.adminBootstrap).toMatchObject({ source: 'stored', path: null, usable: 1 });
    expect(existsSync(file)).toBe(false);
    expect(
      (await second.callAs(token, 'POST', '/api/projects', { name: 'P', executionMode: 'container', ownerId: 'o' }))
        .status,
    ).toBe(201);
  });

  it("an older data dir's admin-token file is registered (hash only), so the operator's token keeps working and can be rotated", async () => {
    const config = await freshConfig(null);
    const old = 'an-admin-token-from-before-0123456789';
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(join(config.dataDir, 'admin-token'), `${old}\n`, { mode: 0o600 });
    const { app, callAs } = await boot(config);
    expect(app.adminBootstrap.source).toBe('imported');
    const [row] = await admins(callAs, old);
    expect(row?.name).toBe('admin-token file');
    expect(await storedRows(config)).not.toContain(old);
    const next = (await callAs(old, 'POST', '/api/credentials', { kind: 'admin' })).body.token as string;
    expect((await callAs(next, 'DELETE', `/api/credentials/${row!.id}`)).status).toBe(200);
    expect((await callAs(old, 'GET', '/api/me')).body.error).toBe('credential_revoked');
  });
});
