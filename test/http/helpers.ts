// Test scaffolding: a real app (real SQLite, real files) in a temp dir, driven through inject.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, createApp } from '../../src/app.ts';
import { type AppConfig, DEFAULT_AUTH_CONFIG } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { testDatabaseUrl } from '../support/store-mode.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Provisioning (projects, members, sandbox requirement, credentials, runner tokens) is the admin token's; every other
 * call is a day-to-day one, made as the upstream api does: with a service token naming the user.
 */
export function isProvisioning(method: Method, url: string): boolean {
  const path = url.split('?')[0] ?? '';
  if (method === 'POST' && path === '/api/projects') return true;
  if (path.startsWith('/api/credentials')) return true;
  return /^\/api\/projects\/[^/]+\/(members(\/[^/]+)?|runner-tokens(\/[^/]+)?|sandbox)$/.test(path) && method !== 'GET';
}
export const OWNER = 'olivia';

export interface TestApp {
  app: App;
  dir: string;
  config: AppConfig;
  /** Admin token for provisioning, the test service token for everything else. */
  call(method: Method, url: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** With a given bearer token (null: none). */
  callAs(token: string | null, method: Method, url: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Mints a credential with the admin token; returns the secret and its id. */
  mint(request: Record<string, unknown>): Promise<{ token: string; id: string }>;
  /** The day-to-day token `call` uses (a service token named `test-upstream`), and its id. */
  serviceToken: string;
  serviceCredentialId: string;
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
    // Suites that send many bad tokens on purpose from one address; the limit has its own test.
    auth: { ...DEFAULT_AUTH_CONFIG, maxAuthFailures: 1_000_000 },
    ...overrides,
  };
}

export async function startTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'brabo-http-'));
  // BRABO_TEST_STORE=postgres: a fresh schema unless the test chose its store.
  const databaseUrl = overrides.databaseUrl === undefined ? await testDatabaseUrl() : overrides.databaseUrl;
  const config = testAppConfig(dir, { ...overrides, ...(databaseUrl ? { databaseUrl } : {}) });
  const app = await createApp(config, { logger: createLogger('silent') });
  const callAs: TestApp['callAs'] = async (token, method, url, body) => {
    const response = await app.http.inject({
      method,
      url,
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return {
      status: response.statusCode,
      body:
        response.body.length > 0 && response.headers['content-type']?.toString().includes('json')
          ? response.json()
          : response.body,
    };
  };
  const mint: TestApp['mint'] = async (request) => {
    const r = await callAs(ADMIN_TOKEN, 'POST', '/api/credentials', request);
    if (r.status !== 201) throw new Error(`minting ${JSON.stringify(request)} failed: ${JSON.stringify(r.body)}`);
    return { token: r.body.token, id: r.body.id };
  };
  const { token: serviceToken, id: serviceCredentialId } = await mint({ kind: 'service', name: 'test-upstream' });
  return {
    app,
    dir,
    config,
    serviceToken,
    serviceCredentialId,
    callAs,
    mint,
    call: (method, url, body) => callAs(isProvisioning(method, url) ? ADMIN_TOKEN : serviceToken, method, url, body),
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A container project with members: owner olivia, maintainer max, developer dev, agents. */
export async function seedProject(
  t: TestApp,
  extra: { moduleMap?: Record<string, object>; executionMode?: 'container' | 'mounted' | 'runner'; root?: string } = {},
) {
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

export async function proposeTerminal(
  t: TestApp,
  projectId: string,
  root: string,
  command: string,
  agentId = 'agent-dev',
) {
  return t.call('POST', `/api/projects/${projectId}/actions`, {
    agentId,
    actionType: 'terminal',
    payload: { command, cwd: root },
  });
}

export async function eventsOf(
  t: TestApp,
  projectId: string,
): Promise<Array<{ type: string; actorKind: string; actorId: string | null; actionId: string | null; payload: any }>> {
  const r = await t.call('GET', `/api/projects/${projectId}/events?limit=1000`);
  return r.body.events;
}
