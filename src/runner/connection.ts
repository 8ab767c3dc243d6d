// The runner's link to the gateway: a phoenix Socket (transport `ws`) with jittered backoff, the
// `runner:<projectId>` channel joined with the RunnerJoin payload, `execute` handed to the
// dispatcher, and the two ways the runner gives up instead of retrying forever: the token is
// refused at the upgrade (HTTP 403, found by a probe), or the join is refused for a reason that
// retrying cannot fix.
import WebSocket from 'ws';
import type { Logger } from 'pino';
import { JOIN_ERRORS, RUNNER_EVENTS, runnerTopic } from '../../runner-protocol/index.ts';
import type { ExecuteAck, Output, RunnerJoin } from '../../runner-protocol/index.ts';
import type { RunnerObserver } from './observer.ts';
import { createPhoenixSocket } from './phoenix-client.ts';
import type { PhoenixChannel, PhoenixSocketLike } from './phoenix-client.ts';
import type { PushChannel } from './result-outbox.ts';
import { readRefusal } from './reply.ts';
import type { PushReply } from './reply.ts';
import { probeUpgrade } from './upgrade-probe.ts';

export type StopReason =
  | { kind: 'stopped' }
  | { kind: 'token_refused'; status: number }
  | { kind: 'join_refused'; code: string; message: string }
  /** The first upgrade was answered with an HTTP status that no retry fixes (404: not a socket mount). */
  | { kind: 'bad_url'; status: number };

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

export interface RunnerConnectionOptions {
  /** The socket mount, e.g. ws://host:4000/socket (phoenix appends /websocket). */
  url: string;
  token: string;
  projectId: string;
  joinPayload: () => RunnerJoin;
  onExecute: (payload: unknown) => void;
  onJoined: () => void;
  observer: RunnerObserver;
  logger: Logger;
  backoff: BackoffOptions;
  /** Consecutive connection errors after which the upgrade is probed for a 403 again. */
  probeAfterErrors: number;
}

const FATAL_JOIN_CODES: ReadonlySet<string> = new Set([
  JOIN_ERRORS.protocolVersionMismatch,
  JOIN_ERRORS.forbiddenTopic,
  JOIN_ERRORS.invalidPayload,
]);

/** Exponential backoff with "equal jitter": half fixed, half random, so runners do not stampede. */
export function jitteredBackoff({ baseMs, maxMs }: BackoffOptions): (tries: number) => number {
  return (tries) => {
    const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(tries - 1, 30)));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  };
}

const HANDSHAKE_TIMEOUT_MS = 15_000;

/** `ws` with a handshake timeout: an upgrade nobody answers (a black-holing proxy) is an error to retry, not a hang. */
class TimedWebSocket extends WebSocket {
  constructor(url: string, protocols?: string | string[]) {
    super(url, protocols, { handshakeTimeout: HANDSHAKE_TIMEOUT_MS });
  }
}

export class RunnerConnection implements PushChannel {
  readonly #options: RunnerConnectionOptions;
  readonly #socket: PhoenixSocketLike;
  readonly #channel: PhoenixChannel;
  readonly #topic: string;
  #consecutiveErrors = 0;
  #probing = false;
  #connected = false;
  #reportedUnreachable = false;
  /** Set once the runner gives up or is stopped: later socket events are not news to the user. */
  #ended = false;
  #finish: (reason: StopReason) => void = () => {};
  readonly #finished: Promise<StopReason>;

  constructor(options: RunnerConnectionOptions) {
    this.#options = options;
    this.#topic = runnerTopic(options.projectId);
    this.#finished = new Promise((resolve) => {
      this.#finish = resolve;
    });
    const log = options.logger.child({ component: 'phoenix' });
    this.#socket = createPhoenixSocket(options.url, {
      transport: TimedWebSocket,
      params: () => ({ token: options.token }),
      reconnectAfterMs: jitteredBackoff(options.backoff),
      rejoinAfterMs: jitteredBackoff(options.backoff),
      logger: (kind, message, data) => log.trace({ kind, data: describe(data) }, message),
    });
    this.#channel = this.#socket.channel(this.#topic, () => options.joinPayload());
    this.#wire();
  }

  /** The URL the phoenix client connects to, with the token redacted (for display and logs). */
  get displayUrl(): string {
    return this.#socket.endPointURL().replace(/([?&]token=)[^&]*/, '$1***');
  }

  /** Checks the token once, connects, and resolves when the runner must stop. */
  async run(): Promise<StopReason> {
    const first = await probeUpgrade(this.#socket.endPointURL(), HANDSHAKE_TIMEOUT_MS);
    if (first.kind === 'refused' && first.status === 403) return { kind: 'token_refused', status: 403 };
    if (first.kind === 'refused' && isPermanentUpgradeStatus(first.status))
      return { kind: 'bad_url', status: first.status };
    if (first.kind === 'refused') {
      this.#options.observer.warning(
        'upgrade_refused',
        `the server answered the WebSocket upgrade with HTTP ${first.status}; check --url (it should end in /socket); retrying`,
      );
    }
    this.#options.observer.connecting(this.displayUrl);
    this.#socket.connect();
    this.#join();
    return this.#finished;
  }

  stop(): void {
    this.#end({ kind: 'stopped' });
  }

  canPush(): boolean {
    return this.#socket.isConnected() && this.#channel.isJoined();
  }

  push(event: string, payload: object, timeoutMs: number): Promise<PushReply> {
    return new Promise((resolve) => {
      this.#channel
        .push(event, payload, timeoutMs)
        .receive('ok', (response) => resolve({ status: 'ok', response }))
        .receive('error', (response) => resolve({ status: 'error', response }))
        .receive('timeout', () => resolve({ status: 'timeout', response: null }));
    });
  }

  /** Tells the gateway the execute arrived (its delivery waits for this). Best effort. */
  sendAck(ack: ExecuteAck): void {
    if (this.canPush()) this.#channel.push(RUNNER_EVENTS.ack, ack);
  }

  /** Output chunks are best effort: dropped while not joined (the final result carries the text). */
  sendOutput(message: Output): void {
    if (this.canPush()) this.#channel.push(RUNNER_EVENTS.output, message);
  }

  #wire(): void {
    const { observer } = this.#options;
    this.#socket.onOpen(() => {
      this.#consecutiveErrors = 0;
      this.#connected = true;
      this.#reportedUnreachable = false;
    });
    this.#socket.onClose((event) => {
      if (this.#ended) return; // our own disconnect: "stopped" is the last word, not "reconnecting"
      const code = closeCode(event);
      if (this.#connected)
        observer.disconnected(`connection closed${code === null ? '' : ` (${code})`}; reconnecting with backoff`);
      this.#connected = false;
      // 1008 is how the gateway drops a socket whose token was revoked: check now, not after retries.
      if (code === POLICY_VIOLATION) void this.#probeAgain();
    });
    this.#socket.onError((error) => {
      if (this.#ended) return;
      this.#consecutiveErrors += 1;
      if (!this.#connected && !this.#reportedUnreachable) {
        this.#reportedUnreachable = true;
        observer.warning(
          'server_unreachable',
          `cannot connect to ${this.displayUrl} (${describe(error)}); retrying with backoff`,
        );
      }
      if (this.#consecutiveErrors % this.#options.probeAfterErrors === 0) void this.#probeAgain();
    });
    this.#channel.on(RUNNER_EVENTS.execute, (payload) => this.#options.onExecute(payload));
  }

  /** The join's replies are kept by phoenix and fire again on every rejoin. */
  #join(): void {
    this.#channel
      .join()
      .receive('ok', () => this.#options.onJoined())
      .receive('error', (response) => {
        const refusal = readRefusal(response);
        const code = refusal.code || 'join_refused';
        const { message } = refusal;
        this.#options.observer.joinRefused(code, message);
        if (FATAL_JOIN_CODES.has(code)) this.#end({ kind: 'join_refused', code, message });
      });
  }

  async #probeAgain(): Promise<void> {
    if (this.#probing) return;
    this.#probing = true;
    try {
      const outcome = await probeUpgrade(this.#socket.endPointURL(), HANDSHAKE_TIMEOUT_MS);
      if (outcome.kind === 'refused' && outcome.status === 403) this.#end({ kind: 'token_refused', status: 403 });
    } finally {
      this.#probing = false;
    }
  }

  #end(reason: StopReason): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#channel.leave();
    this.#socket.disconnect();
    this.#finish(reason);
  }
}

const POLICY_VIOLATION = 1008;

/**
 * Statuses that say the URL is wrong rather than the server busy: 404/400/405 (no socket mount
 * there), 426 (not a WebSocket endpoint) and any 2xx/3xx (a web page answered instead). 403 has
 * its own meaning (the token); 408, 429 and 5xx are worth retrying.
 */
export function isPermanentUpgradeStatus(status: number): boolean {
  if (status === 403 || status === 408 || status === 429 || status >= 500) return false;
  return status >= 200 && status < 500;
}

function closeCode(event: unknown): number | null {
  const code = typeof event === 'object' && event !== null ? (event as { code?: unknown }).code : undefined;
  return typeof code === 'number' ? code : null;
}

function describe(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === 'object' && value !== null && 'message' in value && typeof value.message === 'string')
    return value.message;
  return typeof value === 'string' ? value : '';
}
