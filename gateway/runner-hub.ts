// The gateway side of `runner:<projectId>`: who is connected for which project (presence), handing
// an `execute` to a runner and waiting for its ack, and passing `output`/`result` to a pluggable
// sink whose answer becomes the reply. Knows runner-protocol messages, nothing about actions.
// Delivery goes through the PubSub interface (runner-delivery.ts) and reachability through the
// PresenceTracker: on a cluster both are Postgres-backed, so `execute` reaches the project's
// runner from any node. This node's own sockets are kept only for the one-runner join check.
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { z } from 'zod';
import {
  DELIVERY_ERRORS,
  Execute,
  type RunnerSandbox,
  ExecuteAck,
  JOIN_ERRORS,
  Output,
  PUSH_ERRORS,
  Refusal,
  Result,
  RUNNER_EVENTS,
  RUNNER_PROTOCOL_VERSION,
  RunnerJoin,
  type RunnerJoinReply,
} from '../runner-protocol/index.ts';
import { error, ok, type ChannelContext, type ChannelModule, type Reply } from './channel.ts';
import { InvalidOutgoingPayloadError } from './errors.ts';
import { PRESENCE_EVENTS, type PresenceTracker } from './presence.ts';
import type { PubSub } from './pubsub.ts';
import { deliveryKey, type DeliveryOutcome, RunnerDelivery } from './runner-delivery.ts';

export type { DeliveryOutcome } from './runner-delivery.ts';

export const RUNNER_TOPIC_PREFIX = 'runner:';

export type SinkAnswer = { ok: true } | { ok: false; reason: Refusal };

/** Which runner credential sent a message: what the events it causes record (never the secret). */
export interface RunnerReporter {
  tokenId: string;
}

/** Where incoming runner messages go (the execution dispatcher). */
export interface RunnerSink {
  /** The answer becomes the reply: `{ok:false}` (e.g. stale attempt) is an error reply with the Refusal. */
  onResult(projectId: string, result: Result, from?: RunnerReporter): Promise<SinkAnswer>;
  /**
   * A `result` whose frame was over the socket's limit: the sink records what fits and answers
   * with the refusal (result_too_large) the runner acts on. Without it such frames close the socket.
   */
  onOversizedResult?(projectId: string, result: Result, bytes: number, from?: RunnerReporter): Promise<SinkAnswer>;
  /** An answer `{ok:false}` (another project's dispatch) becomes an error reply, like onResult's. */
  onOutput?(projectId: string, output: Output, from?: RunnerReporter): void | Promise<void | SinkAnswer>;
}

export interface RunnerInfo {
  projectId: string;
  tokenId: string;
  socketId: string;
  joinedAt: Date;
  runnerVersion: string | null;
  hostname: string | null;
  /** How the runner contains commands (issue 9 B.3); null for runners that do not say. */
  sandbox: RunnerSandbox | null;
}

/**
 * The cluster-wide lock of one runner per project (src/cluster: a row in Postgres owned by the
 * node holding the socket, leased by that node's lease). Without it the check is this node's.
 */
export interface RunnerSessions {
  claim(
    info: RunnerInfo,
  ): Promise<{ ok: true } | { ok: false; holder: { nodeId: string; hostname: string | null; joinedAt: string } }>;
  /** The socket left: the lock is free (errors are the implementation's to log). */
  release(info: RunnerInfo): void;
}

export interface RunnerHubEvents {
  runnerJoined: [RunnerInfo];
  runnerLeft: [RunnerInfo & { reason: string }];
}

interface Connection {
  info: RunnerInfo;
  context: ChannelContext;
}

const refusal = (code: string, message: string): Reply => error({ code, message } satisfies Refusal);

const invalid = (what: string, issues: z.core.$ZodIssue[]): Reply =>
  refusal(
    PUSH_ERRORS.invalidPayload,
    `${what} does not match the runner protocol: ${z.prettifyError({ issues } as z.ZodError).slice(0, 1000)}`,
  );

export class RunnerHub extends EventEmitter<RunnerHubEvents> {
  readonly #presence: PresenceTracker;
  readonly #logger: Logger;
  readonly #delivery: RunnerDelivery;
  #sink: RunnerSink | null;
  /** projectId -> this node's runner channels (the join check and metrics; never the delivery route). */
  readonly #connections = new Map<string, Connection[]>();
  readonly #lastSeen = new Map<string, number>();
  readonly #sessions: RunnerSessions | null;
  /** Projects with a join waiting for the cluster lock: a second local join is refused meanwhile. */
  readonly #joining = new Set<string>();

  /** The channel module to route `runner:*` to. */
  readonly channel: ChannelModule;

  constructor(options: {
    presence: PresenceTracker;
    pubsub: PubSub;
    logger: Logger;
    deliveryTimeoutMs?: number;
    sink?: RunnerSink;
    sessions?: RunnerSessions;
  }) {
    super();
    this.#sessions = options.sessions ?? null;
    this.#presence = options.presence;
    this.#logger = options.logger;
    this.#delivery = new RunnerDelivery({
      pubsub: options.pubsub,
      logger: options.logger,
      timeoutMs: options.deliveryTimeoutMs ?? 10_000,
    });
    this.#sink = options.sink ?? null;
    this.channel = {
      join: (topic, payload, context) => this.#join(topic, payload, context),
      afterJoin: (context) => context.push(PRESENCE_EVENTS.state, this.#presence.list(context.topic)),
      handleIn: (event, payload, context) => this.#handleIn(event, payload, context),
      // Acks only settle a pending delivery in memory: never queued behind a result's store write.
      immediate: (event) => event === RUNNER_EVENTS.ack,
      acceptsOversized: (event) => event === RUNNER_EVENTS.result && this.#sink?.onOversizedResult !== undefined,
      handleOversized: (event, payload, bytes, context) => this.#handleOversized(event, payload, bytes, context),
      terminate: (reason, context) => this.#left(reason, context),
    };
  }

  setSink(sink: RunnerSink): void {
    this.#sink = sink;
  }

  /** A runner of the project is connected to this node. */
  isConnected(projectId: string): boolean {
    return (this.#connections.get(projectId)?.length ?? 0) > 0;
  }

  /** A runner of the project is connected to some node (presence): `execute` can reach it. */
  isReachable(projectId: string): boolean {
    return Object.keys(this.#presence.list(`${RUNNER_TOPIC_PREFIX}${projectId}`)).length > 0;
  }

  /** The sandbox state the project's runner reported in its join: this node's socket first, else presence. */
  sandboxOf(projectId: string): RunnerSandbox | null {
    const here = this.#connections.get(projectId)?.at(-1);
    if (here) return here.info.sandbox;
    const metas = Object.values(this.#presence.list(`${RUNNER_TOPIC_PREFIX}${projectId}`)).flatMap((p) => p.metas);
    return (metas.at(-1)?.['sandbox'] as RunnerSandbox | null | undefined) ?? null;
  }

  /** Now while a runner is connected; otherwise when the last one left. Null if none since start. */
  lastSeen(projectId: string): Date | null {
    if (this.isConnected(projectId)) return new Date();
    const at = this.#lastSeen.get(projectId);
    return at === undefined ? null : new Date(at);
  }

  connectedRunners(): RunnerInfo[] {
    return [...this.#connections.values()].flat().map((connection) => ({ ...connection.info }));
  }

  /** Pushes `execute` to the project's runner (one live runner per project, on any node) and waits for its ack. */
  execute(projectId: string, execute: Execute): Promise<DeliveryOutcome> {
    const parsed = Execute.safeParse(execute);
    if (!parsed.success)
      throw new InvalidOutgoingPayloadError(
        `execute does not match the runner protocol: ${z.prettifyError(parsed.error)}`,
      );
    if (!this.isReachable(projectId)) {
      return Promise.resolve({
        ok: false,
        code: DELIVERY_ERRORS.runnerNotConnected,
        message: `no runner is connected for project ${projectId}`,
      });
    }
    return this.#delivery.send(projectId, parsed.data);
  }

  #join(topic: string, payload: unknown, context: ChannelContext): Reply | Promise<Reply> {
    const projectId = topic.slice(RUNNER_TOPIC_PREFIX.length);
    const identity = context.identity;
    // Watchers (operator, upstream service, a member human): presence only, never a runner.
    if (identity.kind === 'admin' || identity.kind === 'service' || identity.kind === 'human')
      return ok({ protocolVersion: RUNNER_PROTOCOL_VERSION } satisfies RunnerJoinReply);
    if (identity.kind !== 'runner' || identity.projectId !== projectId || projectId === '') {
      this.#logger.warn(
        { code: JOIN_ERRORS.forbiddenTopic, topic, identity: identity.kind },
        'runner join refused: token is not scoped to this project',
      );
      return refusal(JOIN_ERRORS.forbiddenTopic, `this token may not join ${topic}`);
    }
    const join = RunnerJoin.safeParse(payload);
    if (!join.success) return invalid('join payload', join.error.issues);
    if (join.data.protocolVersion !== RUNNER_PROTOCOL_VERSION) {
      return refusal(
        JOIN_ERRORS.protocolVersionMismatch,
        `runner speaks protocol ${join.data.protocolVersion}, this gateway speaks ${RUNNER_PROTOCOL_VERSION}; upgrade the runner or the gateway`,
      );
    }
    // One live runner per project. Routing to a newcomer would let anyone holding a copy of the
    // token (a command run by the runner can read its environment) receive human-approved commands
    // and forge their results; the genuine runner keeps the topic, and a restarted runner gets in
    // on its next rejoin once the old socket is gone (closed, or idle-timed-out).
    const holder = (this.#connections.get(projectId) ?? []).find(
      (other) => other.context.socketId !== context.socketId,
    );
    if (holder !== undefined || this.#joining.has(projectId)) {
      return this.#alreadyConnected(
        projectId,
        identity.tokenId,
        join.data.hostname ?? null,
        holder ? { hostname: holder.info.hostname, since: holder.info.joinedAt.toISOString(), nodeId: null } : null,
      );
    }
    const info: RunnerInfo = {
      projectId,
      tokenId: identity.tokenId,
      socketId: context.socketId,
      joinedAt: new Date(),
      runnerVersion: join.data.runnerVersion ?? null,
      hostname: join.data.hostname ?? null,
      sandbox: join.data.sandbox ?? null,
    };
    const sessions = this.#sessions;
    if (!sessions) return this.#admit(topic, info, context);
    // Across the cluster: the lock row decides, and a local twin waits for it instead of racing it.
    this.#joining.add(projectId);
    return sessions.claim(info).then(
      (claimed) => {
        this.#joining.delete(projectId);
        if (!claimed.ok)
          return this.#alreadyConnected(projectId, identity.tokenId, info.hostname, {
            hostname: claimed.holder.hostname,
            since: claimed.holder.joinedAt,
            nodeId: claimed.holder.nodeId,
          });
        return this.#admit(topic, info, context);
      },
      (err: unknown) => {
        this.#joining.delete(projectId);
        this.#logger.error(
          { code: 'runner_session_failed', projectId, err },
          'the cluster runner lock could not be taken (Postgres unreachable?); the runner retries its join',
        );
        return refusal(
          'runner_session_unavailable',
          'the gateway could not record this runner session; this runner retries on its own',
        );
      },
    );
  }

  #alreadyConnected(
    projectId: string,
    tokenId: string,
    newHostname: string | null,
    holder: { hostname: string | null; since: string; nodeId: string | null } | null,
  ): Reply {
    this.#logger.warn(
      {
        code: JOIN_ERRORS.runnerAlreadyConnected,
        projectId,
        tokenId,
        holderHostname: holder?.hostname ?? null,
        holderNode: holder?.nodeId ?? null,
        newHostname,
      },
      'second runner refused: a runner is already connected for this project',
    );
    const where = holder
      ? ` (host ${holder.hostname ?? 'unknown'}, since ${holder.since}${holder.nodeId ? `, on gateway node ${holder.nodeId}` : ''})`
      : ' (its join is in progress)';
    return refusal(
      JOIN_ERRORS.runnerAlreadyConnected,
      `a runner is already connected for project ${projectId}${where}; ` +
        'stop the other runner, or revoke its token if you do not recognise it; this runner retries on its own',
    );
  }

  #admit(topic: string, info: RunnerInfo, context: ChannelContext): Reply {
    const { projectId, tokenId } = info;
    const connection: Connection = { info, context };
    context.assigns['connection'] = connection;
    // Subscribed before it is tracked: whoever sees it in presence can deliver to it.
    context.assigns['detach'] = this.#delivery.attach(projectId, context.socketId, (execute) =>
      context.push(RUNNER_EVENTS.execute, execute),
    );
    context.assigns['untrack'] = this.#presence.track(topic, tokenId, {
      socket_id: context.socketId,
      runner_version: info.runnerVersion,
      hostname: info.hostname,
      sandbox: info.sandbox,
      online_at: info.joinedAt.toISOString(),
    });
    const list = this.#connections.get(projectId) ?? [];
    list.push(connection);
    this.#connections.set(projectId, list);
    this.#logger.info(
      { code: 'runner_joined', projectId, tokenId, socketId: context.socketId, sandbox: info.sandbox },
      'runner connected',
    );
    this.emit('runnerJoined', { ...info });
    return ok({ protocolVersion: RUNNER_PROTOCOL_VERSION } satisfies RunnerJoinReply);
  }

  #left(reason: string, context: ChannelContext): void {
    const connection = context.assigns['connection'] as Connection | undefined;
    if (!connection) return;
    (context.assigns['untrack'] as () => void)();
    (context.assigns['detach'] as (reason: string) => void)(reason);
    this.#sessions?.release(connection.info);
    const { projectId } = connection.info;
    const list = (this.#connections.get(projectId) ?? []).filter((other) => other !== connection);
    if (list.length > 0) this.#connections.set(projectId, list);
    else this.#connections.delete(projectId);
    this.#lastSeen.set(projectId, Date.now());
    this.#logger.info({ code: 'runner_left', projectId, socketId: context.socketId, reason }, 'runner disconnected');
    this.emit('runnerLeft', { ...connection.info, reason });
  }

  async #handleIn(event: string, payload: unknown, context: ChannelContext): Promise<Reply> {
    const connection = context.assigns['connection'] as Connection | undefined;
    if (!connection) return refusal(PUSH_ERRORS.notARunner, 'watchers cannot push on a runner topic');
    const { projectId } = connection.info;
    const from: RunnerReporter = { tokenId: connection.info.tokenId };
    switch (event) {
      case RUNNER_EVENTS.ack: {
        const ack = ExecuteAck.safeParse(payload);
        if (!ack.success) return invalid('ack', ack.error.issues);
        if (!this.#delivery.acknowledge(deliveryKey(ack.data), projectId))
          return forbidden(projectId, ack.data.dispatchId, 'ack');
        return ok();
      }
      case RUNNER_EVENTS.output: {
        const output = Output.safeParse(payload);
        if (!output.success) return invalid('output', output.error.issues);
        if (!this.#delivery.acknowledge(deliveryKey(output.data), projectId))
          return forbidden(projectId, output.data.dispatchId, 'output');
        return this.#toSink(
          'output',
          projectId,
          async (sink) => (await sink.onOutput?.(projectId, output.data, from)) ?? { ok: true },
        );
      }
      case RUNNER_EVENTS.result: {
        const result = Result.safeParse(payload);
        if (!result.success) return invalid('result', result.error.issues);
        if (!this.#delivery.acknowledge(deliveryKey(result.data), projectId))
          return forbidden(projectId, result.data.dispatchId, 'result');
        return this.#toSink('result', projectId, (sink) => sink.onResult(projectId, result.data, from));
      }
      default:
        return refusal(
          PUSH_ERRORS.unknownEvent,
          `unknown event ${JSON.stringify(event).slice(0, 100)} on a runner topic`,
        );
    }
  }

  async #handleOversized(event: string, payload: unknown, bytes: number, context: ChannelContext): Promise<Reply> {
    const connection = context.assigns['connection'] as Connection | undefined;
    if (!connection) return refusal(PUSH_ERRORS.notARunner, 'watchers cannot push on a runner topic');
    const result = Result.safeParse(payload);
    if (event !== RUNNER_EVENTS.result || !result.success)
      return refusal(PUSH_ERRORS.invalidPayload, `an oversized ${event.slice(0, 100)} is not a valid result`);
    const { projectId, tokenId } = connection.info;
    if (!this.#delivery.acknowledge(deliveryKey(result.data), projectId))
      return forbidden(projectId, result.data.dispatchId, 'result');
    return this.#toSink('result', projectId, (sink) =>
      sink.onOversizedResult
        ? sink.onOversizedResult(projectId, result.data, bytes, { tokenId })
        : Promise.resolve({ ok: true as const }),
    );
  }

  async #toSink(what: string, projectId: string, call: (sink: RunnerSink) => Promise<SinkAnswer>): Promise<Reply> {
    const sink = this.#sink;
    if (!sink)
      return refusal(PUSH_ERRORS.sinkUnavailable, `no dispatcher is attached to take this ${what}; retry later`);
    try {
      const answer = await call(sink);
      return answer.ok ? ok() : error(answer.reason);
    } catch (err) {
      this.#logger.error(
        { code: PUSH_ERRORS.sinkFailed, projectId, what, err },
        `the dispatcher failed to record a runner ${what}; the runner was told to retry`,
      );
      return refusal(PUSH_ERRORS.sinkFailed, `the gateway could not record this ${what}; retry`);
    }
  }
}

const forbidden = (projectId: string, dispatchId: string, what: string): Reply =>
  refusal(
    PUSH_ERRORS.forbiddenDispatch,
    `dispatch ${dispatchId.slice(0, 100)} does not belong to project ${projectId}; this ${what} was refused`,
  );
