// Fixtures for the gateway suites: a gateway on an ephemeral loopback port with a test channel,
// the real phoenix clients (1.8 and 1.7) over the `ws` transport, a raw ws client, and a TCP
// proxy that can black-hole live connections (to simulate a dead network).
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, connect as tcpConnect, type Socket as TcpSocket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Socket17, Socket18, type PhoenixPush, type PhoenixSocket } from './phoenix-clients.ts';
import pino from 'pino';
import WebSocket from 'ws';
import {
  createRunnerGateway,
  error,
  InMemoryRunnerTokens,
  ok,
  tokenAuthenticator,
  type ChannelModule,
  type JoinAuthorizer,
  type RunnerSink,
  type TerminateReason,
} from '../../gateway/index.ts';

export const ADMIN_TOKEN = 'admin-secret-token';

export const CLIENTS = [
  { name: 'phoenix 1.8.16', Socket: Socket18, authToken: true },
  { name: 'phoenix 1.7.21', Socket: Socket17, authToken: false },
] as const;
export type ClientKind = (typeof CLIENTS)[number];

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

/** Records what the test channel saw, for assertions. */
export interface Recorder {
  joins: string[];
  terminations: Array<{ topic: string; reason: TerminateReason }>;
}

/** `test:*`: join/handle_in behaviours selected by payload/event. */
function testChannel(recorder: Recorder): ChannelModule {
  return {
    async join(topic, payload) {
      const options = (payload ?? {}) as { fail?: boolean; crash?: boolean; slowMs?: number };
      if (options.crash) throw new Error('join blew up');
      if (options.slowMs) await delay(options.slowMs);
      if (options.fail) return error({ reason: 'not allowed' });
      recorder.joins.push(topic);
      return ok({ joined: topic });
    },
    handleIn(event, payload, context) {
      switch (event) {
        case 'echo':
          return ok(payload);
        case 'noreply':
          return undefined;
        case 'crash':
          throw new Error('handler blew up');
        case 'push_me':
          context.push('pushed', payload);
          return ok();
        case 'broadcast':
          context.broadcast('shout', payload);
          return ok();
        case 'kick':
          context.close();
          return undefined;
        case 'slow':
          return delay(100).then(() => ok({ slow: true }));
        default:
          return error({ reason: `no ${event}` });
      }
    },
    terminate(reason, context) {
      recorder.terminations.push({ topic: context.topic, reason });
    },
  };
}

export interface LogLine {
  level: number;
  code?: string;
  msg: string;
}

export interface TestGateway {
  url: string;
  port: number;
  server: Server;
  recorder: Recorder;
  logs: LogLine[];
  tokens: InMemoryRunnerTokens;
  wired: ReturnType<typeof createRunnerGateway>;
  attach(): ReturnType<typeof createRunnerGateway>;
  close(): Promise<void>;
}

export interface GatewaySettings {
  idleTimeoutMs?: number;
  maxFrameBytes?: number;
  maxChannelsPerSocket?: number;
  maxPendingMessages?: number;
  deliveryTimeoutMs?: number;
  checkOrigin?: string[];
  sink?: RunnerSink;
  /** The join guard a real server installs (src/auth/socket.ts); absent = every join reaches its module. */
  authorizeJoin?: JoinAuthorizer;
}

export async function startGateway(settings: GatewaySettings = {}): Promise<TestGateway> {
  const server = createServer((_request, response) => response.writeHead(404).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const logs: LogLine[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) });
  const recorder: Recorder = { joins: [], terminations: [] };
  const tokens = new InMemoryRunnerTokens();
  const attach = () =>
    createRunnerGateway({
      server,
      logger,
      authenticate: tokenAuthenticator({
        adminToken: ADMIN_TOKEN,
        runnerTokens: tokens,
        agentTokens: { verify: (t) => (t.startsWith('agent-') ? { agentId: t.slice(6) } : null) },
      }),
      idleTimeoutMs: settings.idleTimeoutMs ?? 1_500,
      maxFrameBytes: settings.maxFrameBytes ?? 64 * 1024,
      maxChannelsPerSocket: settings.maxChannelsPerSocket ?? 100,
      ...(settings.maxPendingMessages ? { maxPendingMessages: settings.maxPendingMessages } : {}),
      deliveryTimeoutMs: settings.deliveryTimeoutMs ?? 1_000,
      ...(settings.checkOrigin ? { checkOrigin: settings.checkOrigin } : {}),
      ...(settings.sink ? { sink: settings.sink } : {}),
      ...(settings.authorizeJoin ? { authorizeJoin: settings.authorizeJoin } : {}),
      extraChannels: [{ topic: 'test:*', module: testChannel(recorder) }],
    });
  const testGateway: TestGateway = {
    url: `ws://127.0.0.1:${port}/socket`,
    port,
    server,
    recorder,
    logs,
    tokens,
    wired: attach(),
    attach,
    async close() {
      await testGateway.wired.gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return testGateway;
}

const openClients = new Set<PhoenixSocket>();
const openRaw = new Set<WebSocket>();

/** A phoenix client with test-friendly timings; disconnected by `cleanupClients()`. */
export function phoenixClient(kind: ClientKind, url: string, options: Record<string, unknown> = {}): PhoenixSocket {
  const socket = new kind.Socket(url, {
    transport: WebSocket,
    params: { token: ADMIN_TOKEN },
    timeout: 2_000,
    heartbeatIntervalMs: 300,
    reconnectAfterMs: () => 50,
    rejoinAfterMs: () => 50,
    ...options,
  });
  openClients.add(socket);
  return socket;
}

export function rawClient(url: string, options: WebSocket.ClientOptions = {}): WebSocket {
  const ws = new WebSocket(url, options);
  ws.on('error', () => {});
  openRaw.add(ws);
  return ws;
}

export async function cleanupClients(): Promise<void> {
  for (const socket of openClients) socket.disconnect();
  for (const ws of openRaw) ws.terminate();
  openClients.clear();
  openRaw.clear();
  await delay(20);
}

export type JoinOutcome = { status: 'ok' | 'error' | 'timeout'; response: any };

/** Resolves with the first answer of a push (join, push, leave). */
export function answer(push: PhoenixPush): Promise<JoinOutcome> {
  return new Promise((resolve) => {
    push
      .receive('ok', (response) => resolve({ status: 'ok', response }))
      .receive('error', (response) => resolve({ status: 'error', response }))
      .receive('timeout', () => resolve({ status: 'timeout', response: null }));
  });
}

/** Collects decoded text frames of a raw client. */
export function frames(ws: WebSocket): unknown[][] {
  const received: unknown[][] = [];
  ws.on('message', (data, isBinary) => {
    if (!isBinary) received.push(JSON.parse(data.toString()) as unknown[]);
  });
  return received;
}

export function opened(ws: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
}

export function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

/** The status of a refused upgrade, as a ws client sees it. */
export function upgradeStatus(
  url: string,
  options: WebSocket.ClientOptions = {},
  protocols?: string[],
): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, protocols, options);
    ws.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      resolve('open');
      ws.terminate();
    });
    ws.on('error', () => {});
  });
}

/** TCP proxy in front of the gateway; `blackhole()` silently stops forwarding on live connections. */
export async function startProxy(
  targetPort: number,
): Promise<{ port: number; blackhole(): void; close(): Promise<void> }> {
  const pairs = new Set<[TcpSocket, TcpSocket]>();
  const server = createTcpServer((client) => {
    const upstream = tcpConnect(targetPort, '127.0.0.1');
    const pair: [TcpSocket, TcpSocket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    blackhole() {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    async close() {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
