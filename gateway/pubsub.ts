// Phoenix.PubSub in miniature: topic-keyed fan-out to Subscriber objects, skipping the sender
// (`from`), and each broadcast encoded once however many sockets get it (broadcastFrame).
// LocalPubSub serves one node, and is also the local delivery inside the cluster's PubSub
// (src/cluster/postgres-pubsub.ts: Postgres log plus LISTEN/NOTIFY).
import { encodeBroadcast, type Frame } from './serializer.ts';

/** A message for every subscriber of `topic`. `payload` is JSON-serialisable or a Uint8Array. */
export interface BroadcastMessage {
  readonly topic: string;
  readonly event: string;
  readonly payload: unknown;
  /** Local subscriber to skip (Phoenix's `broadcast_from`); never sent to other nodes. */
  readonly from?: Subscriber;
}

/** An object rather than a closure: one per joined channel, so 10 000 sockets stay cheap. */
export interface Subscriber {
  deliver(message: BroadcastMessage): void;
}

export interface PubSub {
  subscribe(topic: string, subscriber: Subscriber): void;
  unsubscribe(topic: string, subscriber: Subscriber): void;
  /** Delivers to every subscriber of the topic, on every node. */
  broadcast(message: BroadcastMessage): void;
  /** Subscribers on this node (diagnostics, tests). */
  localSubscriberCount(topic: string): number;
}

export class LocalPubSub implements PubSub {
  readonly #topics = new Map<string, Set<Subscriber>>();

  subscribe(topic: string, subscriber: Subscriber): void {
    let subscribers = this.#topics.get(topic);
    if (!subscribers) this.#topics.set(topic, (subscribers = new Set()));
    subscribers.add(subscriber);
  }

  unsubscribe(topic: string, subscriber: Subscriber): void {
    const subscribers = this.#topics.get(topic);
    if (!subscribers?.delete(subscriber)) return;
    if (subscribers.size === 0) this.#topics.delete(topic);
  }

  broadcast(message: BroadcastMessage): void {
    const subscribers = this.#topics.get(message.topic);
    if (!subscribers) return;
    // A copy: a subscriber may unsubscribe (or subscribe) while we iterate.
    for (const subscriber of [...subscribers]) if (subscriber !== message.from) subscriber.deliver(message);
  }

  localSubscriberCount(topic: string): number {
    return this.#topics.get(topic)?.size ?? 0;
  }
}

// Fastlane: a broadcast is encoded once however many sockets receive it.
const encodedBroadcasts = new WeakMap<BroadcastMessage, Frame>();

export function broadcastFrame(message: BroadcastMessage): Frame {
  let frame = encodedBroadcasts.get(message);
  if (frame === undefined) {
    frame = encodeBroadcast(message.topic, message.event, message.payload);
    encodedBroadcasts.set(message, frame);
  }
  return frame;
}
