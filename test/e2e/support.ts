// End-to-end scaffolding: a real gateway (in-process `createApp` listening on port 0, or a real
// `./bin/brabo serve` child), real `./bin/brabo runner` children, a real phoenix client, fetch.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type Docker from 'dockerode';
import WebSocket from 'ws';
import { type App, createApp } from '../../src/app.ts';
import { type AuthConfig, DEFAULT_AUTH_CONFIG, GATEWAY_CHECKOUT, loadExecutionConfig } from '../../src/config.ts';
import type { ExecutionLimits } from '../../src/execution/config.ts';
import type { Resources } from '../../src/execution/resources.ts';
import { createLogger } from '../../src/logger.ts';
import { cleanUp, containersOfRun, TEST_IMAGE, TEST_LABEL } from '../broker/helpers.ts';
import { type PhoenixSocket, Socket18 } from '../gateway/phoenix-clients.ts';
import { isProvisioning, testAppConfig } from '../http/helpers.ts';
import { testDatabaseUrl } from '../support/store-mode.ts';

export const BRABO = resolve(import.meta.dirname, '../../bin/brabo');
export const ADMIN_TOKEN = 'e2e-admin-token-0123456789abcdef';

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `brabo-e2e-${prefix}-`));
}

export async function waitUntil<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 15_000,
  everyMs = 25,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface Api {
  base: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

/** One service token per gateway (base URL), minted with the admin token on first use. */
const serviceTokens = new Map<string, Promise<string>>();
export function serviceTokenOf(base: string, adminToken = ADMIN_TOKEN): Promise<string> {
  let token = serviceTokens.get(base);
  if (!token) {
    token = fetch(`${base}/api/credentials`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'service', name: 'e2e-upstream' }),
    }).then(async (r) => {
      const body = (await r.json()) as { token?: string };
      if (r.status !== 201 || !body.token)
        throw new Error(`minting the e2e service token failed: ${r.status} ${JSON.stringify(body)}`);
      return body.token;
    });
    token.catch(() => serviceTokens.delete(base));
    serviceTokens.set(base, token);
  }
  return token;
}

/**
 * Without `token`: the admin token for provisioning (projects, members, runner tokens, credentials)
 * and a service token (the upstream api, naming the acting user) for everything else.
 */
export function api(base: string, token?: string, adminToken = ADMIN_TOKEN): Api {
  return {
    base,
    async call(method, path, body) {
      const bearer =
        token ?? (isProvisioning(method as 'GET', path) ? adminToken : await serviceTokenOf(base, adminToken));
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${bearer}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text.length > 0 ? JSON.parse(text) : null };
    },
  };
}

export interface Server extends Api {
  app: App;
  port: number;
  dir: string;
  wsUrl: string;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Authentication settings (e.g. a short socket sweep for expiry tests). */
  auth?: Partial<AuthConfig>;
  limits?: Partial<ExecutionLimits>;
  docker?: { image: string; labels: Record<string, string> } | null;
  projectsBase?: string;
  /** A console build to serve at / (test/console builds one into a temp folder). */
  consoleAssetsDir?: string;
  /** A Postgres URL: the server uses it instead of SQLite in its data dir. */
  databaseUrl?: string;
}

/** A real gateway in this process: HTTP + socket on one port (0 = any free one). */
export async function startServer(options: ServerOptions = {}): Promise<Server> {
  const dir = tempDir('server');
  const execution = loadExecutionConfig({}, {});
  execution.limits = {
    ...execution.limits,
    runnerGraceMs: 1_500,
    deliveryTimeoutMs: 5_000,
    resumeWaitMs: 20_000,
    ...options.limits,
  };
  if (options.docker)
    execution.docker = { enabled: true, dockerHost: null, image: options.docker.image, labels: options.docker.labels };
  const databaseUrl = options.databaseUrl ?? (await testDatabaseUrl());
  const config = testAppConfig(dir, {
    adminToken: ADMIN_TOKEN,
    ...(options.projectsBase !== undefined ? { projectsBase: options.projectsBase } : {}),
    gatewayCheckout: GATEWAY_CHECKOUT,
    execution,
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(options.auth ? { auth: { ...DEFAULT_AUTH_CONFIG, maxAuthFailures: 1_000_000, ...options.auth } } : {}),
  });
  const app = await createApp(config, {
    logger: createLogger(process.env.E2E_LOG ?? 'silent'),
    ...(options.consoleAssetsDir ? { consoleAssetsDir: options.consoleAssetsDir } : {}),
  });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  await app.start();
  const address = app.http.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const base = `http://127.0.0.1:${port}`;
  return {
    ...api(base),
    app,
    port,
    dir,
    wsUrl: `ws://127.0.0.1:${port}/socket`,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface DockerServer extends Server {
  runId: string;
  /** This run's containers (label brabo.test=<runId>), stopped ones too. */
  containers(): Promise<Docker.ContainerInfo[]>;
}

/**
 * A real gateway with the real Docker broker on the test image (never pulled): its containers are
 * labelled brabo.test=<runPrefix>-<random> and `close()` removes them with the server. `defaults`
 * are the container resources a project gets when its module_map names none.
 */
export async function startDockerServer(
  runPrefix: string,
  defaults: Resources,
  options: Omit<ServerOptions, 'docker'> = {},
): Promise<DockerServer> {
  const runId = `${runPrefix}-${randomUUID().slice(0, 8)}`;
  const server = await startServer({
    ...options,
    docker: { image: TEST_IMAGE, labels: { [TEST_LABEL]: runId } },
    limits: { ...options.limits, resources: { defaults, maxima: { cpus: 1, memoryMb: 256, pids: 256 } } },
  });
  return {
    ...server,
    runId,
    containers: () => containersOfRun(runId),
    async close() {
      await server.close();
      await cleanUp(runId, []);
    },
  };
}

export interface Project {
  id: string;
  root: string;
}

/** A project with an owner (olivia, owner), a maintainer (max) and a developer agent (agent-dev). */
export async function createProject(
  server: Api,
  body: { executionMode: 'container' | 'mounted' | 'runner'; root?: string; moduleMap?: object; name?: string },
): Promise<Project> {
  const created = await server.call('POST', '/api/projects', {
    name: body.name ?? 'E2E Shop',
    ownerId: 'olivia',
    ...body,
  });
  if (created.status !== 201) throw new Error(`project creation failed: ${JSON.stringify(created.body)}`);
  await server.call('PUT', `/api/projects/${created.body.id}/members/max`, { role: 'maintainer' });
  await server.call('PUT', `/api/projects/${created.body.id}/members/agent-dev`, { role: 'developer', kind: 'agent' });
  return { id: created.body.id, root: created.body.root };
}

/** The Infra agent (agent, maintainer) the Infra handoff needs before it is accepted (RN-671). */
export async function addInfraAgent(server: Api, projectId: string): Promise<void> {
  const put = await server.call('PUT', `/api/projects/${projectId}/members/infra`, {
    role: 'maintainer',
    kind: 'agent',
  });
  if (put.status >= 300) throw new Error(`adding the infra agent failed: ${JSON.stringify(put.body)}`);
}

export async function allowCommands(server: Api, projectId: string, allow: string[]): Promise<void> {
  const put = await server.call('PUT', `/api/projects/${projectId}/permissions`, {
    userId: 'olivia',
    allow,
    deny: [],
    ask: [],
  });
  if (put.status !== 200) throw new Error(`permissions not written: ${JSON.stringify(put.body)}`);
}

export async function events(
  server: Api,
  projectId: string,
): Promise<Array<{ type: string; actionId: string | null; actorKind: string; actorId: string | null; payload: any }>> {
  return (await server.call('GET', `/api/projects/${projectId}/events?limit=1000`)).body.events;
}

export async function settled(server: Api, actionId: string, timeoutMs = 20_000): Promise<any> {
  return waitUntil(
    async () => {
      const got = await server.call('GET', `/api/actions/${actionId}/settlement?wait=2`);
      return got.body?.state === 'settled' ? got.body : null;
    },
    `action ${actionId} to settle`,
    timeoutMs,
    0,
  );
}

const children = new Set<ChildProcess>();

export interface RunnerProcess {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** A real `./bin/brabo runner` for one project. */
export function startRunner(options: {
  url: string;
  token: string;
  root: string;
  projectId: string;
  journal: string;
  extra?: string[];
  /** BRABO_RUNNER_FAULT for this runner (e.g. `kill_after_spawn:1`); never inherited otherwise. */
  fault?: string;
}): RunnerProcess {
  const { BRABO_RUNNER_FAULT: _inherited, ...env } = process.env;
  const child = spawn(
    BRABO,
    [
      'runner',
      '--url',
      options.url,
      '--root',
      options.root,
      '--project',
      options.projectId,
      '--journal',
      options.journal,
      '--reconnect-base-ms',
      '100',
      '--reconnect-max-ms',
      '400',
      ...(options.extra ?? []),
    ],
    {
      env: {
        ...env,
        NO_COLOR: '1',
        BRABO_RUNNER_TOKEN: options.token,
        ...(options.fault ? { BRABO_RUNNER_FAULT: options.fault } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: false,
    },
  );
  children.add(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  child.once('exit', () => children.delete(child));
  return {
    child,
    output: () => out,
    stop: () => stopChild(child, 'SIGTERM'),
  };
}

export function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

export async function killAllChildren(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child, 'SIGKILL')));
}

export interface ServeProcess extends Api {
  child: ChildProcess;
  port: number;
  wsUrl: string;
  output(): string;
}

/** A real `./bin/brabo serve` child on a free port (it prints the port it got). */
export async function startServe(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  return startServeAt(dataDir, 0, { ...(await storeEnv(dataDir)), ...env });
}

/** dataDir -> its Postgres URL: a restarted `brabo serve` on the same data dir finds its store again. */
const schemaOfDataDir = new Map<string, string>();

/** BRABO_TEST_STORE=postgres: DATABASE_URL of the schema of this data dir (fresh the first time). */
async function storeEnv(dataDir: string): Promise<NodeJS.ProcessEnv> {
  let url = schemaOfDataDir.get(dataDir) ?? null;
  if (url === null) {
    url = await testDatabaseUrl();
    if (url === null) return {};
    schemaOfDataDir.set(dataDir, url);
  }
  return { DATABASE_URL: url };
}

/** `./bin/brabo serve --port <port>` (0 = any free port; it prints the one it got). */
export function startServeAt(
  dataDir: string,
  port: number,
  env: NodeJS.ProcessEnv = {},
  startTimeoutMs = 20_000,
): Promise<ServeProcess> {
  const child = spawn(BRABO, ['serve', '--port', String(port), '--host', '127.0.0.1', '--data-dir', dataDir], {
    env: { ...process.env, BRABO_ADMIN_TOKEN: ADMIN_TOKEN, BRABO_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let out = '';
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`brabo serve did not start within ${startTimeoutMs} ms: ${out}`)),
      startTimeoutMs,
    );
    child.once('exit', (code) => reject(new Error(`brabo serve exited ${code}: ${out}`)));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const listening = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
      if (listening?.[1] && out.includes('admin token in')) {
        clearTimeout(timer);
        const port = Number(listening[2]);
        resolvePromise({
          ...api(listening[1]),
          child,
          port,
          wsUrl: `ws://127.0.0.1:${port}/socket`,
          output: () => out,
        });
      }
    });
  });
}

/** A port free on 127.0.0.1 right now (probed, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts `brabo serve` on `dataDir` and one fixed free port, as often as called: after a restart a
 * runner reconnects to the same URL. `env` goes to every start, `extra` to that one only.
 */
export async function restartableServe(
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<(extra?: NodeJS.ProcessEnv) => Promise<ServeProcess>> {
  const port = await freePort();
  const store = await storeEnv(dataDir);
  return (extra = {}) => startServeAt(dataDir, port, { ...store, ...env, ...extra });
}

/** `<dir>/machine` holding `count.sh`, which appends a line to counter.txt per run; `runs()` counts them. */
export function countingRoot(dir: string): { root: string; runs(): number } {
  const root = join(dir, 'machine');
  const counter = join(root, 'counter.txt');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'count.sh'), 'echo run >> "$(dirname "$0")/counter.txt"\necho counted\n');
  return { root, runs: () => (existsSync(counter) ? readFileSync(counter, 'utf8').trim().split('\n').length : 0) };
}

/** A real phoenix 1.8 client socket, connected with `token` (reconnecting after `reconnectMs`). */
export function connectSocket(wsUrl: string, token: string, reconnectMs = 60_000): PhoenixSocket {
  const socket = new Socket18(wsUrl, {
    transport: WebSocket,
    params: { token },
    timeout: 5_000,
    reconnectAfterMs: () => reconnectMs,
  });
  socket.connect();
  return socket;
}

/**
 * A real phoenix 1.8 client joined on `agent:<agentId>`, collecting its events. With the upstream
 * service's token by default (it relays to agents), or the given token (e.g. the agent's own).
 */
export async function joinAgentTopic(
  wsUrl: string,
  agentId: string,
  token?: string,
): Promise<{ socket: PhoenixSocket; received: Array<{ event: string; payload: any }> }> {
  const bearer = token ?? (await serviceTokenOf(wsUrl.replace(/^ws/, 'http').replace(/\/socket$/, '')));
  const socket = connectSocket(wsUrl, bearer, 100);
  const channel = socket.channel(`agent:${agentId}`, {});
  const received: Array<{ event: string; payload: any }> = [];
  channel.on('task.action_settled', (payload) => received.push({ event: 'task.action_settled', payload }));
  await new Promise<void>((resolve, reject) => {
    channel
      .join()
      .receive('ok', () => resolve())
      .receive('error', (e) => reject(new Error(`agent join refused: ${JSON.stringify(e)}`)))
      .receive('timeout', () => reject(new Error('agent join timed out')));
  });
  return { socket, received };
}
