// One WebSocket connection (the transport process of Phoenix.Socket): decodes frames, answers
// heartbeats, routes joins through the router, and keeps one ChannelServer per joined topic.
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { SocketIdentity } from './auth.ts';
import { CHANNEL_EVENTS, ChannelServer, type ChannelHost, type ChannelModule } from './channel.ts';
import { CLOSE_CODES, MalformedFrameError, PROTOCOL_REASONS } from './errors.ts';
import type { PubSub } from './pubsub.ts';
import { decode, encodeReply, type Frame, type Message } from './serializer.ts';

const SOCKET = Symbol('gateway.socket');
type SocketCarrier = WebSocket & { [SOCKET]: Socket };

function onMessage(this: WebSocket, data: Buffer, isBinary: boolean): void {
  Socket.frame((this as SocketCarrier)[SOCKET], data, isBinary);
}
function onClose(this: WebSocket): void {
  Socket.ended((this as SocketCarrier)[SOCKET]);
}
function onError(this: WebSocket, err: Error): void {
  const socket = (this as SocketCarrier)[SOCKET];
  socket.logger.warn({ code: 'socket_error', socketId: socket.id, err }, 'websocket error; the socket will close');
}

export const HEARTBEAT_TOPIC = 'phoenix';
const HEARTBEAT_EVENT = 'heartbeat';

export interface SocketLimits {
  maxChannels: number;
  /**
   * Frames above this many bytes close the socket with 1009, except an event a joined channel
   * accepts oversized (ChannelModule.acceptsOversized): it gets a named error reply instead. ws
   * itself closes frames above its hard cap (maxPayload) before they reach us.
   */
  maxFrameBytes?: number;
  /** Messages that may wait in one channel's mailbox (default 10 000); more closes the socket with 1008. */
  maxPendingMessages?: number;
  /** Above this many bytes queued for a slow client, the socket is closed. */
  maxBufferedBytes: number;
}

/** Topic -> channel module (Phoenix's `channel "runner:*", RunnerChannel`). */
export type Router = (topic: string) => ChannelModule | null;

export class Socket implements ChannelHost {
  readonly id: string;
  readonly identity: SocketIdentity;
  readonly logger: Logger;
  readonly pubsub: PubSub;
  readonly remoteAddress: string | null;
  /** Date.now() of the last frame received; the endpoint closes sockets silent for too long. */
  lastActivity = Date.now();
  readonly #ws: WebSocket;
  readonly #router: Router;
  readonly #limits: SocketLimits;
  readonly #channels = new Map<string, ChannelServer>();
  readonly #registry: Set<Socket>;
  #open = true;

  constructor(options: {
    id: string;
    ws: WebSocket;
    identity: SocketIdentity;
    router: Router;
    pubsub: PubSub;
    logger: Logger;
    limits: SocketLimits;
    remoteAddress: string | null;
    /** The endpoint's live sockets: the socket adds itself and leaves when it closes. */
    registry: Set<Socket>;
  }) {
    this.id = options.id;
    this.#ws = options.ws;
    this.identity = options.identity;
    this.#router = options.router;
    this.pubsub = options.pubsub;
    this.logger = options.logger;
    this.#limits = options.limits;
    this.remoteAddress = options.remoteAddress;
    this.#registry = options.registry;
    this.#registry.add(this);
    // Shared listeners find their Socket through the ws: no closures per connection.
    (this.#ws as SocketCarrier)[SOCKET] = this;
    this.#ws.on('message', onMessage);
    this.#ws.on('close', onClose);
    this.#ws.on('error', onError);
  }

  /** Resolves when the TCP connection is gone (close handshake done or connection dropped). */
  get finished(): Promise<void> {
    if (this.#ws.readyState === this.#ws.CLOSED) return Promise.resolve();
    return new Promise((resolve) => this.#ws.once('close', () => resolve()));
  }

  /** @internal entry points of the shared ws listeners. */
  static frame(socket: Socket, data: Buffer, isBinary: boolean): void {
    socket.#onFrame(data, isBinary);
  }
  static ended(socket: Socket): void {
    socket.#closed();
  }

  get channelCount(): number {
    return this.#channels.size;
  }

  get isOpen(): boolean {
    return this.#open;
  }

  send(frame: Frame): void {
    if (!this.#open) return;
    if (this.#ws.bufferedAmount > this.#limits.maxBufferedBytes) {
      this.logger.warn(
        { code: 'slow_consumer', socketId: this.id, buffered: this.#ws.bufferedAmount },
        'client does not read what we send; closing its socket',
      );
      this.close(CLOSE_CODES.policyViolation, 'slow consumer');
      return;
    }
    this.#ws.send(frame);
  }

  close(code: number, reason: string): void {
    if (!this.#open) return;
    this.#ws.close(code, reason);
    this.#closed();
  }

  /** Drops the TCP connection without a close handshake (drain deadline). */
  terminate(): void {
    this.#ws.terminate();
    this.#closed();
  }

  get maxPendingMessages(): number {
    return this.#limits.maxPendingMessages ?? 10_000;
  }

  overloaded(channel: ChannelServer): void {
    this.logger.warn(
      { code: 'channel_overloaded', socketId: this.id, topic: channel.topic, limit: this.maxPendingMessages },
      'client sends faster than its messages are handled; closing its socket',
    );
    this.close(CLOSE_CODES.policyViolation, 'too many pending messages');
  }

  channelEnded(channel: ChannelServer, unhandled: Message[]): void {
    if (this.#channels.get(channel.topic) === channel) this.#channels.delete(channel.topic);
    for (const message of unhandled) this.#unmatched(message);
  }

  #onFrame(data: Buffer, isBinary: boolean): void {
    this.lastActivity = Date.now();
    let message: Message;
    try {
      message = decode(data, isBinary);
    } catch (err) {
      if (!(err instanceof MalformedFrameError)) throw err;
      this.logger.warn(
        { code: err.code, socketId: this.id, remoteAddress: this.remoteAddress, reason: err.message },
        'malformed frame; closing this socket only (client bug or not a Phoenix v2 client)',
      );
      this.close(CLOSE_CODES.malformedFrame, 'malformed frame');
      return;
    }
    if (this.#limits.maxFrameBytes !== undefined && data.length > this.#limits.maxFrameBytes) {
      this.#oversized(message, data.length);
      return;
    }
    this.#dispatch(message);
  }

  #oversized(message: Message, bytes: number): void {
    const channel = this.#channels.get(message.topic);
    if (
      channel &&
      (message.joinRef === null || message.joinRef === channel.joinRef) &&
      channel.acceptsOversized(message.event)
    ) {
      channel.receive({ ...message, oversizedBytes: bytes });
      return;
    }
    this.logger.warn(
      {
        code: 'frame_too_large',
        socketId: this.id,
        bytes,
        limit: this.#limits.maxFrameBytes,
        topic: message.topic,
        event: message.event,
      },
      'frame over the size limit; closing this socket',
    );
    this.close(CLOSE_CODES.frameTooLarge, 'frame too large');
  }

  #dispatch(message: Message): void {
    const { topic, event } = message;
    if (topic === HEARTBEAT_TOPIC && event === HEARTBEAT_EVENT) {
      this.send(encodeReply(null, message.ref, HEARTBEAT_TOPIC, 'ok', {}));
      return;
    }
    const channel = this.#channels.get(topic);
    if (event === CHANNEL_EVENTS.join) {
      this.#join(message, channel);
      return;
    }
    if (!channel) {
      this.#unmatched(message);
      return;
    }
    // A message for an earlier join of this topic (the client rejoined since): drop it.
    if (message.joinRef !== null && message.joinRef !== channel.joinRef) {
      this.logger.debug(
        { socketId: this.id, topic, event, joinRef: message.joinRef },
        'dropping message with a stale join_ref',
      );
      return;
    }
    channel.receive(message);
  }

  #join(message: Message, existing: ChannelServer | undefined): void {
    const module = this.#router(message.topic);
    if (!module) {
      this.#unmatched(message);
      return;
    }
    if (existing) {
      // Phoenix: "Duplicate channel join ... Closing existing channel for new join."
      this.logger.debug({ socketId: this.id, topic: message.topic }, 'duplicate join; closing the existing channel');
      existing.stop('duplicate_join', true);
    } else if (this.#channels.size >= this.#limits.maxChannels) {
      const joinRef = message.joinRef ?? message.ref;
      this.logger.warn(
        { code: 'too_many_channels', socketId: this.id, topic: message.topic },
        'join refused: too many channels on this socket',
      );
      this.send(
        encodeReply(joinRef, message.ref, message.topic, 'error', { reason: PROTOCOL_REASONS.tooManyChannels }),
      );
      return;
    }
    // Registered before the (possibly async) join runs: later messages queue behind it.
    const channel = new ChannelServer(this, module, message);
    if (channel.state !== 'closed') this.#channels.set(message.topic, channel);
  }

  #unmatched(message: Message): void {
    this.logger.debug({ socketId: this.id, topic: message.topic, event: message.event }, 'ignoring unmatched topic');
    if (message.ref !== null) {
      this.send(encodeReply(null, message.ref, message.topic, 'error', { reason: PROTOCOL_REASONS.unmatchedTopic }));
    }
  }

  #closed(): void {
    if (!this.#open) return;
    this.#open = false;
    for (const channel of [...this.#channels.values()]) channel.stop('closed', false);
    this.#channels.clear();
    this.#registry.delete(this);
  }
}
