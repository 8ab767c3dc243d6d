// One joined topic on one socket (Phoenix.Channel.Server). Messages for it are handled one at a
// time, in arrival order, like a channel process's mailbox; a handler that throws takes down
// this channel only (`phx_error`, the client rejoins), never the socket or other channels.
// Exception: events the module names `immediate` (a runner's `ack`) are handled on arrival, never
// queued behind another message's store write; the module keeps them cheap and order-free.
import type { Logger } from 'pino';
import type { SocketIdentity } from './auth.ts';
import { PROTOCOL_REASONS } from './errors.ts';
import { broadcastFrame, type BroadcastMessage, type PubSub, type Subscriber } from './pubsub.ts';
import { encodeControl, encodePush, encodeReply, type Frame, type Message, type ReplyStatus } from './serializer.ts';

export const CHANNEL_EVENTS = {
  join: 'phx_join',
  leave: 'phx_leave',
  close: 'phx_close',
  error: 'phx_error',
  reply: 'phx_reply',
} as const;

/** `{:ok, reply}` / `{:error, reply}` of `join/3` and `handle_in/3`. Binary responses are Uint8Array. */
export interface Reply {
  status: ReplyStatus;
  response?: unknown;
}
export const ok = (response: unknown = {}): Reply => ({ status: 'ok', response });
export const error = (response: unknown): Reply => ({ status: 'error', response });

export type TerminateReason = 'leave' | 'closed' | 'duplicate_join' | 'kicked' | 'crash' | 'shutdown';

/** What a channel module sees: Phoenix's `socket` inside a channel. */
export interface ChannelContext {
  readonly topic: string;
  readonly joinRef: string;
  readonly socketId: string;
  readonly identity: SocketIdentity;
  readonly logger: Logger;
  /** Per-channel state the module owns (Phoenix's `assigns`). */
  readonly assigns: Record<string, unknown>;
  /** True until the channel terminates. */
  readonly alive: boolean;
  /** Sends `event` to this client only. */
  push(event: string, payload: unknown): void;
  /** Sends `event` to every subscriber of this topic, this one included. */
  broadcast(event: string, payload: unknown): void;
  /** Same, except this channel. */
  broadcastFrom(event: string, payload: unknown): void;
  /** Server-side close (`phx_close`): the client drops the channel and does not rejoin. */
  close(): void;
}

export type MaybePromise<T> = T | Promise<T>;

/** A channel module (`use Phoenix.Channel`). */
export interface ChannelModule {
  join(topic: string, payload: unknown, context: ChannelContext): MaybePromise<Reply>;
  /**
   * The pub/sub topic this channel listens on, when it is narrower than the topic the client
   * joined (an agent token bound to a project hears its own project's `agent:<id>` events only).
   * Broadcasts on it reach the client under the joined topic. Default: the joined topic.
   */
  subscription?(topic: string, context: ChannelContext): string;
  /** Called once the join reply went out (Phoenix's `send(self(), :after_join)` idiom). */
  afterJoin?(context: ChannelContext): void;
  /** Undefined result = `{:noreply, socket}`. */
  handleIn?(event: string, payload: unknown, context: ChannelContext): MaybePromise<Reply | undefined>;
  /**
   * An `event` whose frame was over the socket's frame limit (but under its hard cap), so the
   * module can answer it with a named error instead of the socket closing (a runner's too-large
   * `result`). Events it does not accept close the socket with 1009, as any oversized frame.
   */
  acceptsOversized?(event: string): boolean;
  handleOversized?(
    event: string,
    payload: unknown,
    bytes: number,
    context: ChannelContext,
  ): MaybePromise<Reply | undefined>;
  /**
   * Events handled as soon as they arrive on a joined channel, beside the mailbox instead of in
   * it (their replies may overtake earlier messages' replies). For handlers that write nothing.
   */
  immediate?(event: string): boolean;
  terminate?(reason: TerminateReason, context: ChannelContext): void;
}

/** The socket as seen by its channels. */
export interface ChannelHost {
  readonly id: string;
  readonly identity: SocketIdentity;
  readonly logger: Logger;
  readonly pubsub: PubSub;
  send(frame: Frame): void;
  /** The channel ended: forget it, and answer the messages it had not handled yet. */
  channelEnded(channel: ChannelServer, unhandled: Message[]): void;
  /** How many messages may wait in one channel's mailbox; beyond it the client floods us. */
  readonly maxPendingMessages?: number;
  /** The client sent more than maxPendingMessages ahead of their handling: the socket closes (1008). */
  overloaded?(channel: ChannelServer): void;
}

const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> =>
  typeof (value as Promise<T> | undefined)?.then === 'function';

/**
 * The channel is its own context and its own pub/sub subscriber: no per-channel closures, which
 * keeps an idle joined socket small.
 */
export class ChannelServer implements ChannelContext, Subscriber {
  readonly topic: string;
  readonly joinRef: string;
  #state: 'joining' | 'joined' | 'closed' = 'joining';
  readonly #host: ChannelHost;
  readonly #module: ChannelModule;
  #mailbox: Message[] | null = null;
  #busy = false;
  #assigns: Record<string, unknown> | null = null;
  #subscription: string;

  constructor(host: ChannelHost, module: ChannelModule, join: Message) {
    this.#host = host;
    this.#module = module;
    this.topic = join.topic;
    this.#subscription = join.topic;
    this.joinRef = join.joinRef ?? join.ref ?? '';
    this.#busy = true;
    this.#join(join);
  }

  // ---- ChannelContext

  get socketId(): string {
    return this.#host.id;
  }
  get identity(): SocketIdentity {
    return this.#host.identity;
  }
  get logger(): Logger {
    return this.#host.logger;
  }
  get assigns(): Record<string, unknown> {
    return (this.#assigns ??= {});
  }
  get alive(): boolean {
    return this.#state !== 'closed';
  }
  push(event: string, payload: unknown): void {
    if (this.#state !== 'closed') this.#host.send(encodePush(this.joinRef, this.topic, event, payload));
  }
  broadcast(event: string, payload: unknown): void {
    this.#host.pubsub.broadcast({ topic: this.topic, event, payload });
  }
  broadcastFrom(event: string, payload: unknown): void {
    this.#host.pubsub.broadcast({ topic: this.topic, event, payload, from: this });
  }
  close(): void {
    this.stop('kicked', true);
  }

  // ---- Subscriber

  deliver(message: BroadcastMessage): void {
    if (this.#state !== 'joined') return;
    this.#host.send(broadcastFrame(message.topic === this.topic ? message : { ...message, topic: this.topic }));
  }

  // ---- lifecycle

  get state(): 'joining' | 'joined' | 'closed' {
    return this.#state;
  }

  /** Whether the module takes this event in a frame over the limit (see ChannelModule.acceptsOversized). */
  acceptsOversized(event: string): boolean {
    return (
      this.#state === 'joined' &&
      this.#module.acceptsOversized?.(event) === true &&
      this.#module.handleOversized !== undefined
    );
  }

  /** A client message for this channel; handled after the ones before it. `oversizedBytes`: its frame was over the limit. */
  receive(message: Message & { oversizedBytes?: number }): void {
    if (this.#state === 'closed') return;
    if (this.#state === 'joined' && this.#module.immediate?.(message.event) === true) {
      this.#handleNow(message);
      return;
    }
    const mailbox = (this.#mailbox ??= []);
    if (this.#host.maxPendingMessages !== undefined && mailbox.length >= this.#host.maxPendingMessages) {
      // Bounded per-socket state: a client that outruns its handler by this much is cut off (it
      // reconnects and re-sends what matters from its outbox) instead of growing our memory.
      this.#host.overloaded?.(this);
      return;
    }
    mailbox.push(message);
    if (!this.#busy) this.#drain();
  }

  /** Ends the channel from the server side. `notifyClient` sends `phx_close` (kick, duplicate join). */
  stop(reason: TerminateReason, notifyClient: boolean): void {
    if (this.#state === 'closed') return;
    if (notifyClient) this.#host.send(encodeControl(this.joinRef, this.topic, CHANNEL_EVENTS.close, {}));
    this.#end(reason, this.#takeMailbox());
  }

  #join(join: Message): void {
    let result: MaybePromise<Reply>;
    try {
      result = this.#module.join(this.topic, join.payload, this);
    } catch (err) {
      this.#joinCrashed(join, err);
      return;
    }
    if (isPromise(result)) {
      result.then(
        (reply) => this.#joined(join, reply),
        (err: unknown) => this.#joinCrashed(join, err),
      );
    } else {
      this.#joined(join, result);
    }
  }

  #joined(join: Message, reply: Reply): void {
    if (this.#state === 'closed') {
      // The socket went away while the join was pending: let the module release what it took.
      if (reply.status === 'ok') this.#terminate('closed');
      return;
    }
    if (reply.status !== 'ok') {
      this.#host.send(encodeReply(this.joinRef, join.ref, this.topic, 'error', reply.response));
      this.#end(null, this.#takeMailbox());
      return;
    }
    this.#state = 'joined';
    this.#subscription = this.#module.subscription?.(this.topic, this) ?? this.topic;
    this.#host.pubsub.subscribe(this.#subscription, this);
    this.#host.send(encodeReply(this.joinRef, join.ref, this.topic, 'ok', reply.response));
    try {
      this.#module.afterJoin?.(this);
    } catch (err) {
      this.#crash(err);
      return;
    }
    this.#drain();
  }

  #joinCrashed(join: Message, err: unknown): void {
    this.#host.logger.error(
      { code: 'join_crashed', topic: this.topic, err },
      'channel join threw; the client was told "join crashed" and will retry',
    );
    this.#joined(join, error({ reason: PROTOCOL_REASONS.joinCrashed }));
  }

  /** Runs queued messages; synchronous handlers never pay for a promise. */
  #drain(): void {
    this.#busy = true;
    while (this.#state === 'joined') {
      const message = this.#mailbox?.shift();
      if (!message) break;
      let result: MaybePromise<Reply | undefined>;
      try {
        result = this.#handle(message);
      } catch (err) {
        this.#crash(err);
        return;
      }
      if (isPromise(result)) {
        result.then(
          (reply) => {
            this.#replied(message, reply);
            this.#drain();
          },
          (err: unknown) => this.#crash(err),
        );
        return;
      }
      this.#replied(message, result);
    }
    this.#busy = false;
  }

  /** An `immediate` event: handled now; the mailbox goes on undisturbed. */
  #handleNow(message: Message): void {
    let result: MaybePromise<Reply | undefined>;
    try {
      result = this.#handle(message);
    } catch (err) {
      this.#crash(err);
      return;
    }
    if (isPromise(result)) {
      result.then(
        (reply) => this.#replied(message, reply),
        (err: unknown) => this.#crash(err),
      );
      return;
    }
    this.#replied(message, result);
  }

  #handle(message: Message & { oversizedBytes?: number }): MaybePromise<Reply | undefined> {
    if (message.oversizedBytes !== undefined && this.#module.handleOversized)
      return this.#module.handleOversized(message.event, message.payload, message.oversizedBytes, this);
    if (message.event === CHANNEL_EVENTS.leave) return ok();
    if (!this.#module.handleIn) return error({ reason: PROTOCOL_REASONS.unhandledEvent });
    return this.#module.handleIn(message.event, message.payload, this);
  }

  #replied(message: Message, reply: Reply | undefined): void {
    if (this.#state !== 'joined') return;
    if (reply && message.ref !== null) {
      this.#host.send(encodeReply(this.joinRef, message.ref, this.topic, reply.status, reply.response));
    }
    // Phoenix stops a left channel with {:shutdown, :left} and the socket confirms with phx_close.
    if (message.event === CHANNEL_EVENTS.leave) this.stop('leave', true);
  }

  #crash(err: unknown): void {
    if (this.#state === 'closed') return;
    this.#host.logger.error(
      { code: 'channel_crash', topic: this.topic, socketId: this.#host.id, err },
      'channel handler threw; the channel was closed with phx_error and the client will rejoin',
    );
    this.#host.send(
      encodeControl(this.joinRef, this.topic, CHANNEL_EVENTS.error, { reason: PROTOCOL_REASONS.channelCrash }),
    );
    this.#end('crash', this.#takeMailbox());
  }

  /**
   * `reason` null: the join failed, there is nothing to terminate. `unhandled` are the queued
   * messages the channel will never handle: the socket answers them as unmatched.
   */
  #end(reason: TerminateReason | null, unhandled: Message[]): void {
    const wasJoined = this.#state === 'joined';
    this.#state = 'closed';
    this.#mailbox = null;
    if (wasJoined) this.#host.pubsub.unsubscribe(this.#subscription, this);
    this.#host.channelEnded(this, unhandled);
    if (reason && wasJoined) this.#terminate(reason);
  }

  #takeMailbox(): Message[] {
    const messages = this.#mailbox ?? [];
    this.#mailbox = null;
    return messages;
  }

  #terminate(reason: TerminateReason): void {
    try {
      this.#module.terminate?.(reason, this);
    } catch (err) {
      this.#host.logger.error(
        { code: 'terminate_crashed', topic: this.topic, err },
        'channel terminate threw; ignored',
      );
    }
  }
}
