// Admin credentials on several gateway nodes sharing one Postgres store (issue 12.1): nodes that
// start together bootstrap one admin credential, not one each; an admin minted or revoked on one
// node is that on every node at once; two admins revoking each other on two nodes at the same
// moment cannot leave the store without a live admin (the store's admin lock).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.ts';
import { createLogger } from '../../src/logger.ts';
import { testAppConfig } from '../http/helpers.ts';
import { TestSchemas } from '../store/contract-postgres.ts';

const schemas = new TestSchemas();
const apps: App[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
  await schemas.dropAll();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A node without BRABO_ADMIN_TOKEN, with its own data dir, on the shared schema. */
async function node(databaseUrl: string) {
  const dir = mkdtempSync(join(tmpdir(), 'brabo-admin-node-'));
  dirs.push(dir);
  const config = testAppConfig(dir, { adminToken: null, databaseUrl });
  const app = await createApp(config, { logger: createLogger('silent') });
  apps.push(app);
  const callAs = async (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => {
    const r = await app.http.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: r.statusCode, body: r.json() };
  };
  return { app, file: join(config.dataDir, 'admin-token'), callAs };
}

describe('admin credentials on three nodes, one Postgres', () => {
  it('three nodes starting at once bootstrap one admin; mint and revoke on one node hold on the others; mutual revocations leave one', async () => {
    const { url } = await schemas.create();
    // One migrates (the others wait on its lock), then the three bootstraps race.
    const nodes = await Promise.all([node(url), node(url), node(url)]);
    const writers = nodes.filter((n) => existsSync(n.file));
    expect(writers).toHaveLength(1);
    expect(nodes.filter((n) => n.app.adminBootstrap.source === 'generated')).toHaveLength(1);
    const first = readFileSync(writers[0]!.file, 'utf8').trim();
    for (const n of nodes) expect((await n.callAs(first, 'GET', '/api/me')).body.kind).toBe('admin');
    const listed = (await nodes[2]!.callAs(first, 'GET', '/api/credentials?kind=admin')).body.credentials;
    expect(listed).toHaveLength(1);

    // Minted on node 0, used on node 1, revoked on node 2: refused on node 0 at once.
    const minted = (await nodes[0]!.callAs(first, 'POST', '/api/credentials', { kind: 'admin' })).body;
    expect((await nodes[1]!.callAs(minted.token, 'GET', '/api/me')).status).toBe(200);
    expect((await nodes[2]!.callAs(first, 'DELETE', `/api/credentials/${minted.id}`)).status).toBe(200);
    expect((await nodes[0]!.callAs(minted.token, 'GET', '/api/me')).body.error).toBe('credential_revoked');

    // Five rounds: two live admins revoke each other on two nodes at the same moment.
    let survivor = first;
    let survivorId = listed[0].id as string;
    for (let round = 0; round < 5; round++) {
      const other = (await nodes[0]!.callAs(survivor, 'POST', '/api/credentials', { kind: 'admin' })).body;
      const [one, two] = await Promise.all([
        nodes[round % 3]!.callAs(survivor, 'DELETE', `/api/credentials/${other.id}`),
        nodes[(round + 1) % 3]!.callAs(other.token, 'DELETE', `/api/credentials/${survivorId}`),
      ]);
      expect([one.status, two.status].sort()).toEqual([200, 409]);
      expect([one, two].find((r) => r.status === 409)?.body.error).toBe('last_admin_credential');
      if (two.status === 200) {
        survivor = other.token;
        survivorId = other.id;
      }
      const live = (await nodes[2]!.callAs(survivor, 'GET', '/api/credentials?kind=admin')).body.credentials;
      expect(live.map((c: { id: string }) => c.id)).toEqual([survivorId]);
    }
  }, 60_000);
});
