// Test scaffolding: a real app (real SQLite, real files) in a temp dir, driven through inject.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, createApp } from '../../src/app.ts';
import type { AppConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { testDatabaseUrl } from '../support/store-mode.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export const OWNER = 'olivia';

export interface TestApp {
  app: App;
  dir: string;
  config: AppConfig;
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** A gateway config whose data and project folders all live under `dir` (also used by test/e2e). */
export function testAppConfig(dir: string, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    dataDir: join(dir, 'data'),
    adminToken: ADMIN_TOKEN,
    projectWorkspacesRoot: join(dir, 'workspaces'),
    projectsBase: join(dir, 'projects'),
    gatewayCheckout: join(dir, 'gateway-checkout'),
    logLevel: 'silent',
    ...overrides,
  };
}

export async function startTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'brabo-http-'));
  // BRABO_TEST_STORE=postgres: a fresh schema unless the test chose its store.
  const databaseUrl = overrides.databaseUrl === undefined ? await testDatabaseUrl() : overrides.databaseUrl;
  const config = testAppConfig(dir, { ...overrides, ...(databaseUrl ? { databaseUrl } : {}) });
  const app = await createApp(config, { logger: createLogger('silent') });
  return {
    app,
    dir,
    config,
    async call(method, url, body) {
      const response = await app.http.inject({
        method,
        url,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return { status: response.statusCode, body: response.body.length > 0 && response.headers['content-type']?.toString().includes('json') ? response.json() : response.body };
    },
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A container project with members: owner olivia, maintainer max, developer dev, agents. */
export async function seedProject(t: TestApp, extra: { moduleMap?: Record<string, object>; executionMode?: 'container' | 'mounted' | 'runner'; root?: string } = {}) {
  const created = await t.call('POST', '/api/projects', {
    name: 'Shop API',
    executionMode: extra.executionMode ?? 'container',
    ownerId: OWNER,
    ...(extra.root ? { root: extra.root } : {}),
    ...(extra.moduleMap ? { moduleMap: extra.moduleMap } : {}),
  });
  if (created.status !== 201) throw new Error(`project creation failed: ${JSON.stringify(created.body)}`);
  const id: string = created.body.id;
  await t.call('PUT', `/api/projects/${id}/members/max`, { role: 'maintainer' });
  await t.call('PUT', `/api/projects/${id}/members/dev`, { role: 'developer' });
  await t.call('PUT', `/api/projects/${id}/members/agent-dev`, { role: 'developer', kind: 'agent' });
  await t.call('PUT', `/api/projects/${id}/members/agent-lead`, { role: 'maintainer', kind: 'agent' });
  return { id, root: created.body.root as string, project: created.body };
}

export async function proposeTerminal(t: TestApp, projectId: string, root: string, command: string, agentId = 'agent-dev') {
  return t.call('POST', `/api/projects/${projectId}/actions`, { agentId, actionType: 'terminal', payload: { command, cwd: root } });
}

export async function eventsOf(t: TestApp, projectId: string): Promise<Array<{ type: string; actorKind: string; actorId: string | null; actionId: string | null; payload: any }>> {
  const r = await t.call('GET', `/api/projects/${projectId}/events?limit=1000`);
  return r.body.events;
}
