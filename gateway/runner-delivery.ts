// Runner delivery through the PubSub interface: the routing table of "which socket holds the
// project's runner" is the pub/sub subscription itself. The socket holding a project's runner
// subscribes to `runner_delivery:<projectId>`; `send` broadcasts `execute` there from any node,
// and the socket's node pushes it and answers the ack (or the runner's disconnect) on the sender's
// own inbox topic. On one node LocalPubSub does this synchronously in memory; on a cluster the
// Postgres-backed PubSub (src/cluster) carries it to the node holding the socket. The dispatcher
// still claims on that node (src/cluster/runner-directory.ts forwards the action there): a claim
// made where the socket is knows whether `execute` went out, while a stale presence replica
// elsewhere (a node killed a moment ago) would send it to nobody and leave outcome_unknown.
// No socket can join these topics: no channel route matches them, so only the gateway writes there.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { DELIVERY_ERRORS, Execute } from '../runner-protocol/index.ts';
import type { BroadcastMessage, PubSub, Subscriber } from './pubsub.ts';

export const DELIVERY_TOPIC_PREFIX = 'runner_delivery:';
const INBOX_PREFIX = 'runner_replies:';
const EVENTS = { execute: 'execute', delivered: 'delivered' } as const;

export type DeliveryOutcome =
  { ok: true } | { ok: false; code: (typeof DELIVERY_ERRORS)[keyof typeof DELIVERY_ERRORS]; message: string };

const Envelope = z.object({ execute: Execute, replyTo: z.string().startsWith(INBOX_PREFIX) });
const Reply = z.object({
  key: z.string(),
  outcome: z.union([
    z.object({ ok: z.literal(true) }),
    z.object({
      ok: z.literal(false),
      code: z.enum([DELIVERY_ERRORS.runnerNotConnected, DELIVERY_ERRORS.deliveryTimeout]),
      message: z.string(),
    }),
  ]),
});

export const deliveryKey = (message: { dispatchId: string; attempt: number }): string =>
  `${message.dispatchId}#${message.attempt}`;

/** Sender side: a delivery waiting for its ack. */
interface Pending {
  resolve: (outcome: DeliveryOutcome) => void;
  timer: NodeJS.Timeout;
}

/** Socket side: an `execute` pushed to a local runner, not acknowledged yet. */
interface Pushed {
  projectId: string;
  socketId: string;
  replyTo: string;
  timer: NodeJS.Timeout;
}

export class RunnerDelivery {
  readonly #pubsub: PubSub;
  readonly #logger: Logger;
  readonly #timeoutMs: number;
  readonly #inbox = `${INBOX_PREFIX}${randomBytes(12).toString('base64url')}`;
  readonly #pending = new Map<string, Pending>();
  readonly #pushed = new Map<string, Pushed>();

  constructor(options: { pubsub: PubSub; logger: Logger; timeoutMs: number }) {
    this.#pubsub = options.pubsub;
    this.#logger = options.logger;
    this.#timeoutMs = options.timeoutMs;
    this.#pubsub.subscribe(this.#inbox, { deliver: (message) => this.#replied(message) });
  }

  /** Broadcasts `execute` to wherever the project's runner socket is; resolves on its ack (or why not). */
  send(projectId: string, execute: Execute): Promise<DeliveryOutcome> {
    const key = deliveryKey(execute);
    this.#settle(key, {
      ok: false,
      code: DELIVERY_ERRORS.deliveryTimeout,
      message: 'superseded by a new delivery of the same attempt',
    });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#settle(key, {
          ok: false,
          code: DELIVERY_ERRORS.deliveryTimeout,
          message: `runner for project ${projectId} did not acknowledge dispatch ${execute.dispatchId} within ${this.#timeoutMs} ms`,
        });
      }, this.#timeoutMs);
      this.#pending.set(key, { resolve, timer });
      this.#pubsub.broadcast({
        topic: `${DELIVERY_TOPIC_PREFIX}${projectId}`,
        event: EVENTS.execute,
        payload: { execute, replyTo: this.#inbox },
      });
    });
  }

  /**
   * The runner socket `socketId` of `projectId` takes the project's deliveries on this node. The
   * returned function detaches it; deliveries it had not acknowledged are answered
   * runner_not_connected with `reason`.
   */
  attach(projectId: string, socketId: string, push: (execute: Execute) => void): (reason: string) => void {
    const topic = `${DELIVERY_TOPIC_PREFIX}${projectId}`;
    const subscriber: Subscriber = {
      deliver: (message) => {
        if (message.event !== EVENTS.execute) return;
        const envelope = Envelope.safeParse(message.payload);
        if (!envelope.success) {
          this.#logger.warn(
            { code: 'runner_delivery_invalid', projectId },
            'a relayed execute did not parse; not pushed (a gateway node of another version?)',
          );
          return;
        }
        const { execute, replyTo } = envelope.data;
        const key = deliveryKey(execute);
        const previous = this.#pushed.get(key);
        if (previous) clearTimeout(previous.timer);
        // Forgotten after the sender's own timeout: a late ack then changes nothing, as on one node.
        const timer = setTimeout(() => this.#pushed.delete(key), this.#timeoutMs);
        timer.unref();
        this.#pushed.set(key, { projectId, socketId, replyTo, timer });
        push(execute);
      },
    };
    this.#pubsub.subscribe(topic, subscriber);
    return (reason) => {
      this.#pubsub.unsubscribe(topic, subscriber);
      for (const [key, pushed] of this.#pushed) {
        if (pushed.socketId !== socketId) continue;
        this.#answer(key, pushed, {
          ok: false,
          code: DELIVERY_ERRORS.runnerNotConnected,
          message: `runner disconnected (${reason}) before acknowledging the dispatch`,
        });
      }
    };
  }

  /**
   * The runner of `projectId` acknowledged `key` (an ack, or its first output or result). False when
   * that delivery was pushed to another project's runner: the caller refuses it (forbidden_dispatch).
   */
  acknowledge(key: string, projectId: string): boolean {
    const pushed = this.#pushed.get(key);
    if (!pushed) return true;
    if (pushed.projectId !== projectId) return false;
    this.#answer(key, pushed, { ok: true });
    return true;
  }

  #answer(key: string, pushed: Pushed, outcome: DeliveryOutcome): void {
    this.#pushed.delete(key);
    clearTimeout(pushed.timer);
    this.#pubsub.broadcast({ topic: pushed.replyTo, event: EVENTS.delivered, payload: { key, outcome } });
  }

  #replied(message: BroadcastMessage): void {
    const reply = Reply.safeParse(message.payload);
    if (message.event === EVENTS.delivered && reply.success) this.#settle(reply.data.key, reply.data.outcome);
  }

  #settle(key: string, outcome: DeliveryOutcome): void {
    const pending = this.#pending.get(key);
    if (!pending) return;
    this.#pending.delete(key);
    clearTimeout(pending.timer);
    pending.resolve(outcome);
  }
}
