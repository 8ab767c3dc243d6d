// The endpoint (Phoenix.Endpoint + Phoenix.Transports.WebSocket): takes the HTTP upgrade at
// `path`, checks vsn, origin and credentials *before* upgrading (403, never accept-then-close),
// routes topics to channel modules, closes silent sockets and drains on shutdown.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import pino, { type Logger } from 'pino';
import { WebSocketServer } from 'ws';
import {
  authTokenFromProtocols,
  PHOENIX_SUBPROTOCOL,
  type SocketAuthenticator,
  type SocketIdentity,
  UpgradeRateLimitedError,
} from './auth.ts';
import type { ChannelModule } from './channel.ts';
import { CLOSE_CODES } from './errors.ts';
import { LocalPresence, type PresenceTracker } from './presence.ts';
import { LocalPubSub, type PubSub } from './pubsub.ts';
import { Socket, type Router } from './socket.ts';

/** How far over maxFrameBytes a frame is still read (to be answered, not dropped). */
const OVERSIZE_FACTOR = 4;

/** `{topic: 'runner:*', module}`: a trailing `*` matches any suffix, otherwise the topic exactly. */
export interface ChannelRoute {
  topic: string;
  module: ChannelModule;
}

export interface GatewayOptions {
  server: Server;
  path?: string;
  authenticate: SocketAuthenticator;
  channels: ChannelRoute[];
  logger?: Logger;
  pubsub?: PubSub;
  presence?: PresenceTracker;
  /** Frames above this close the socket with 1009. Default 1 MiB. */
  maxFrameBytes?: number;
  /** A socket that sends nothing (not even a heartbeat) for this long is closed. Default 60 s. */
  idleTimeoutMs?: number;
  /** Default 100, as the issue asks. */
  maxChannelsPerSocket?: number;
  /** Default 16 MiB. */
  maxBufferedBytes?: number;
  /** Messages one channel may hold unhandled before the socket is closed (1008). Default 10 000. */
  maxPendingMessages?: number;
  /** false (default) accepts any Origin; a list or predicate refuses others with 403. */
  checkOrigin?: false | string[] | ((origin: string | null) => boolean);
}

export interface DisconnectOptions {
  code?: number;
  reason?: string;
}

export interface Gateway {
  readonly pubsub: PubSub;
  readonly presence: PresenceTracker;
  /** Live sockets on this node. */
  readonly socketCount: number;
  /** Sends `event` to every subscriber of `topic` (Phoenix's `Endpoint.broadcast`). */
  broadcast(topic: string, event: string, payload: unknown): void;
  /** Closes the live sockets whose identity matches (e.g. a revoked token). Returns how many. */
  disconnect(predicate: (identity: SocketIdentity) => boolean, options?: DisconnectOptions): number;
  /** Refuses new upgrades (503), closes every socket with 1001 so clients reconnect elsewhere. */
  drain(options?: { timeoutMs?: number }): Promise<void>;
  /** drain() then detach from the HTTP server. The HTTP server itself is the caller's. */
  close(): Promise<void>;
}

const SUPPORTED_VSN = /^2\.0\.\d+$/;

function routerFor(routes: ChannelRoute[]): Router {
  const exact = new Map<string, ChannelModule>();
  const prefixes: Array<[string, ChannelModule]> = [];
  for (const route of routes) {
    if (route.topic.endsWith('*')) prefixes.push([route.topic.slice(0, -1), route.module]);
    else exact.set(route.topic, route.module);
  }
  return (topic) => exact.get(topic) ?? prefixes.find(([prefix]) => topic.startsWith(prefix))?.[1] ?? null;
}

function originAllowed(check: GatewayOptions['checkOrigin'], origin: string | null): boolean {
  if (!check) return true;
  if (typeof check === 'function') return check(origin);
  return origin !== null && check.includes(origin);
}

// Module-level on purpose: a closure here would keep the whole upgrade scope (the request, its
// headers, the parsed URL) alive for as long as the connection lives.
function destroyOnError(this: Duplex): void {
  this.destroy();
}

function refuse(socket: Duplex, status: number, text: string, headers: Readonly<Record<string, string>> = {}): void {
  if (socket.destroyed) return;
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\n${extra}Content-Type: text/plain\r\nContent-Length: ${text.length}\r\n\r\n${text}`,
  );
}

export function createGateway(options: GatewayOptions): Gateway {
  const path = options.path ?? '/socket/websocket';
  const logger = options.logger ?? pino({ name: 'gateway' });
  const pubsub = options.pubsub ?? new LocalPubSub();
  const presence = options.presence ?? new LocalPresence(pubsub);
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const maxFrameBytes = options.maxFrameBytes ?? 1024 * 1024;
  const limits = {
    maxFrameBytes,
    maxChannels: options.maxChannelsPerSocket ?? 100,
    maxBufferedBytes: options.maxBufferedBytes ?? 16 * 1024 * 1024,
    maxPendingMessages: options.maxPendingMessages ?? 10_000,
  };
  const router = routerFor(options.channels);
  const sockets = new Set<Socket>();
  let draining = false;

  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    // Up to OVERSIZE_FACTOR x the frame limit is read so a channel can answer a too-large runner
    // result with a named error (Socket.#oversized); anything else over the limit still gets 1009.
    maxPayload: maxFrameBytes * OVERSIZE_FACTOR,
    perMessageDeflate: false,
    // Phoenix 1.8 clients offer ["phoenix", "base64url.bearer.phx.<token>"]; we answer "phoenix".
    handleProtocols: (protocols) => (protocols.has(PHOENIX_SUBPROTOCOL) ? PHOENIX_SUBPROTOCOL : false),
  });

  const onUpgrade = (request: IncomingMessage, tcp: Duplex, head: Buffer): void => {
    const url = new URL(request.url ?? '/', 'http://gateway.invalid');
    if (url.pathname !== path) {
      // Another upgrade handler may own this path; if there is none, answer instead of hanging.
      if (options.server.listenerCount('upgrade') === 1) refuse(tcp, 404, 'Not Found');
      return;
    }
    tcp.on('error', destroyOnError);
    const remoteAddress = request.socket.remoteAddress ?? null;
    const forwarded = request.headers['x-forwarded-for'];
    const forwardedFor = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded) ?? null;
    const origin = request.headers.origin ?? null;
    const refused = (status: number, text: string, code: string, sentence: string): void => {
      logger.info({ code, remoteAddress, origin }, sentence);
      refuse(tcp, status, text);
    };
    if (draining) return refused(503, 'Service Unavailable', 'draining', 'upgrade refused: gateway is draining');
    const vsn = url.searchParams.get('vsn');
    if (vsn === null || !SUPPORTED_VSN.test(vsn)) {
      return refused(
        403,
        'Forbidden',
        'unsupported_vsn',
        `upgrade refused: serializer vsn ${JSON.stringify(vsn)} is not supported (2.0.x only)`,
      );
    }
    let allowed: boolean;
    try {
      allowed = originAllowed(options.checkOrigin, origin);
    } catch (err) {
      logger.error({ code: 'origin_check_failed', err, origin }, 'upgrade refused: the origin check threw');
      allowed = false;
    }
    if (!allowed) {
      return refused(
        403,
        'Forbidden',
        'origin_refused',
        `upgrade refused: origin ${JSON.stringify(origin)} is not allowed`,
      );
    }
    const params: Record<string, string> = {};
    for (const [key, value] of url.searchParams) if (key !== 'vsn') params[key] = value;
    const authToken = authTokenFromProtocols(request.headers['sec-websocket-protocol']);
    // Through a resolved promise: an authenticator that throws synchronously is a rejection too.
    Promise.resolve()
      .then(() => options.authenticate.authenticate(params, { origin, remoteAddress, forwardedFor, authToken }))
      .then(
        (identity) => {
          if (!identity)
            return refused(403, 'Forbidden', 'bad_token', 'upgrade refused: missing, unknown or revoked token');
          if (draining) return refused(503, 'Service Unavailable', 'draining', 'upgrade refused: gateway is draining');
          if (tcp.destroyed) return;
          tcp.off('error', destroyOnError); // ws takes over error handling
          wss.handleUpgrade(request, tcp, head, (ws) => accept(ws, identity, remoteAddress));
        },
        (err: unknown) => {
          if (err instanceof UpgradeRateLimitedError) {
            logger.info({ code: err.code, remoteAddress, origin }, `upgrade refused: ${err.message}`);
            return refuse(tcp, 429, 'Too Many Requests', {
              'Retry-After': String(Math.max(1, Math.ceil(err.retryAfterMs / 1000))),
            });
          }
          logger.error(
            { code: 'authenticator_failed', err, remoteAddress },
            'upgrade refused: the authenticator threw (token store down?)',
          );
          refuse(tcp, 503, 'Service Unavailable');
        },
      );
  };

  const accept = (ws: import('ws').WebSocket, identity: SocketIdentity, remoteAddress: string | null): void => {
    const socket = new Socket({
      id: randomUUID(),
      ws,
      identity,
      router,
      pubsub,
      logger,
      limits,
      remoteAddress,
      registry: sockets,
    });
    logger.debug({ socketId: socket.id, identity: identity.kind, remoteAddress }, 'socket connected');
  };

  // One sweep for all sockets instead of a timer each: cheaper at 10 000 sockets.
  const sweepEveryMs = Math.max(50, Math.min(5_000, Math.floor(idleTimeoutMs / 4)));
  const sweeper = setInterval(() => {
    const deadline = Date.now() - idleTimeoutMs;
    for (const socket of sockets) {
      if (socket.lastActivity < deadline) {
        logger.info(
          { code: 'idle_timeout', socketId: socket.id, idleTimeoutMs },
          'socket silent too long (no heartbeat); closed',
        );
        socket.close(CLOSE_CODES.goingAway, 'idle timeout');
      }
    }
  }, sweepEveryMs);
  sweeper.unref();

  options.server.on('upgrade', onUpgrade);

  const drain = async ({ timeoutMs = 5_000 }: { timeoutMs?: number } = {}): Promise<void> => {
    draining = true;
    const closing = [...sockets];
    for (const socket of closing) socket.close(CLOSE_CODES.goingAway, 'server draining');
    logger.info(
      { code: 'draining', sockets: closing.length },
      'gateway draining: sockets closed with 1001, clients will reconnect',
    );
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const outcome = await Promise.race([Promise.all(closing.map((socket) => socket.finished)), deadline]);
    clearTimeout(timer);
    if (outcome === 'timeout') for (const socket of closing) socket.terminate();
  };

  return {
    pubsub,
    presence,
    get socketCount() {
      return sockets.size;
    },
    broadcast: (topic, event, payload) => pubsub.broadcast({ topic, event, payload }),
    disconnect(predicate, { code = CLOSE_CODES.policyViolation, reason = 'disconnected' } = {}) {
      let count = 0;
      for (const socket of [...sockets]) {
        if (predicate(socket.identity)) {
          socket.close(code, reason);
          count++;
        }
      }
      if (count > 0) logger.info({ code: 'sockets_disconnected', count, reason }, 'live sockets closed by the server');
      return count;
    },
    drain,
    async close() {
      await drain();
      clearInterval(sweeper);
      options.server.off('upgrade', onUpgrade);
      wss.close();
    },
  };
}
