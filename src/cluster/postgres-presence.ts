// Phoenix.Tracker over Postgres: each node owns its presences (rows with its node id, alive while
// its lease is) and replicates them to the others as diffs on the internal `phx_tracker` topic;
// every node keeps a replica of the whole cluster, so list() stays synchronous. A periodic resync
// from the rows repairs lost diffs and drops the presences of dead nodes (emitting their leaves).
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import {
  PRESENCE_EVENTS,
  type PresenceMeta,
  type PresenceState,
  type PresenceTracker,
} from '../../gateway/presence.ts';
import type { BroadcastMessage, Subscriber } from '../../gateway/pubsub.ts';
import type { Logger } from '../logger.ts';
import type { ClusterPubSub } from './postgres-pubsub.ts';
import { deleteNodePresence, deletePresence, insertPresence, livePresence } from './sql/presence-rows.ts';

export const TRACKER_TOPIC = 'phx_tracker';

interface Entry {
  topic: string;
  key: string;
  meta: PresenceMeta;
  nodeId: string;
  /** When this node learned of it: a resync never undoes a diff younger than its row's commit. */
  seenAt?: number;
}

/** A diff may overtake the row write it describes; a resync leaves such young changes alone. */
const SETTLE_MS = 5_000;

interface TrackerDiff {
  nodeId: string;
  topic: string;
  key: string;
  meta: PresenceMeta;
  kind: 'join' | 'leave';
}

export interface PresenceEvents {
  join: [topic: string, key: string, meta: PresenceMeta];
  leave: [topic: string, key: string, meta: PresenceMeta];
}

export class PostgresPresence extends EventEmitter<PresenceEvents> implements PresenceTracker, Subscriber {
  readonly #pubsub: ClusterPubSub;
  readonly #pool: pg.Pool;
  readonly #logger: Logger;
  readonly #resyncMs: number;
  /** topic -> phx_ref -> entry (this node's and the replicas of the others'). */
  readonly #topics = new Map<string, Map<string, Entry>>();
  readonly #writes = new Set<Promise<void>>();
  /** topic\0ref of entries that left recently: a resync must not bring them back from a row not yet deleted. */
  readonly #departed = new Map<string, number>();
  #timer: NodeJS.Timeout | null = null;
  #syncing: Promise<void> | null = null;

  constructor(options: { pubsub: ClusterPubSub; pool: pg.Pool; logger: Logger; resyncMs: number }) {
    super();
    this.#pubsub = options.pubsub;
    this.#pool = options.pool;
    this.#logger = options.logger;
    this.#resyncMs = options.resyncMs;
  }

  get nodeId(): string {
    return this.#pubsub.nodeId;
  }

  async start(): Promise<void> {
    await deleteNodePresence(this.#pool, this.nodeId);
    this.#pubsub.subscribe(TRACKER_TOPIC, this);
    await this.resync();
    this.#timer = setInterval(() => void this.resync(), this.#resyncMs);
    this.#timer.unref();
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#pubsub.unsubscribe(TRACKER_TOPIC, this);
    await Promise.allSettled([...this.#writes]);
    await this.#syncing;
  }

  track(topic: string, key: string, meta: Record<string, unknown>): () => void {
    const entry: Entry = {
      topic,
      key,
      meta: { ...meta, phx_ref: randomBytes(8).toString('base64url') },
      nodeId: this.nodeId,
    };
    this.#apply(entry, 'join');
    this.#replicate(entry, 'join');
    this.#write(
      insertPresence(this.#pool, { topic, key, ref: entry.meta.phx_ref, nodeId: this.nodeId, meta: entry.meta }),
    );
    let tracked = true;
    return () => {
      if (!tracked) return;
      tracked = false;
      this.#apply(entry, 'leave');
      this.#replicate(entry, 'leave');
      this.#write(deletePresence(this.#pool, topic, entry.meta.phx_ref));
    };
  }

  /**
   * This node's entries again, after it lost its lease: a reaper deleted its rows and the others
   * dropped them from their replicas on their next resync.
   */
  reassert(): void {
    for (const entries of this.#topics.values()) {
      for (const entry of entries.values()) {
        if (entry.nodeId !== this.nodeId) continue;
        this.#replicate(entry, 'join');
        this.#write(
          insertPresence(this.#pool, {
            topic: entry.topic,
            key: entry.key,
            ref: entry.meta.phx_ref,
            nodeId: this.nodeId,
            meta: entry.meta,
          }),
        );
      }
    }
  }

  list(topic: string): PresenceState {
    const state: PresenceState = {};
    for (const entry of this.#topics.get(topic)?.values() ?? [])
      (state[entry.key] ??= { metas: [] }).metas.push(entry.meta);
    return state;
  }

  /** Entries of one topic with the node holding each (the runner directory asks this). */
  entries(topic: string): Array<{ key: string; nodeId: string; meta: PresenceMeta }> {
    return [...(this.#topics.get(topic)?.values() ?? [])].map(({ key, nodeId, meta }) => ({ key, nodeId, meta }));
  }

  /** Every topic with entries whose name starts with `prefix`. */
  topics(prefix: string): string[] {
    return [...this.#topics.keys()].filter((topic) => topic.startsWith(prefix));
  }

  /** Subscriber of TRACKER_TOPIC: another node's join or leave. */
  deliver(message: BroadcastMessage): void {
    const diff = message.payload as TrackerDiff;
    if (!diff || diff.nodeId === this.nodeId) return;
    this.#apply({ topic: diff.topic, key: diff.key, meta: diff.meta, nodeId: diff.nodeId }, diff.kind);
  }

  /** Replaces the replica of the other nodes with the live rows, emitting the differences. */
  resync(): Promise<void> {
    this.#syncing ??= (async () => {
      try {
        const rows = await livePresence(this.#pool, this.nodeId);
        const young = Date.now() - SETTLE_MS;
        for (const [id, at] of this.#departed) if (at < young) this.#departed.delete(id);
        const live = new Map(rows.map((row) => [`${row.topic}\u0000${row.ref}`, row]));
        for (const entries of [...this.#topics.values()]) {
          for (const entry of [...entries.values()]) {
            if (entry.nodeId === this.nodeId || (entry.seenAt ?? 0) > young) continue;
            if (!live.has(`${entry.topic}\u0000${entry.meta.phx_ref}`)) this.#apply(entry, 'leave');
          }
        }
        for (const row of rows) {
          if (this.#departed.has(`${row.topic}\u0000${row.ref}`)) continue;
          if (!this.#topics.get(row.topic)?.has(row.ref))
            this.#apply(
              { topic: row.topic, key: row.key, meta: { ...row.meta, phx_ref: row.ref }, nodeId: row.nodeId },
              'join',
            );
        }
      } catch (err) {
        this.#logger.warn(
          { code: 'presence_resync_failed', err },
          'presence resync from Postgres failed; the replica may be stale until the next one',
        );
      }
    })().finally(() => (this.#syncing = null));
    return this.#syncing;
  }

  #apply(entry: Entry, kind: 'join' | 'leave'): void {
    let entries = this.#topics.get(entry.topic);
    if (kind === 'join') {
      if (!entries) this.#topics.set(entry.topic, (entries = new Map()));
      if (entries.has(entry.meta.phx_ref)) return;
      entries.set(entry.meta.phx_ref, { ...entry, seenAt: Date.now() });
    } else {
      if (!entries?.delete(entry.meta.phx_ref)) return;
      this.#departed.set(`${entry.topic}\u0000${entry.meta.phx_ref}`, Date.now());
      if (entries.size === 0) this.#topics.delete(entry.topic);
    }
    const change = { [entry.key]: { metas: [entry.meta] } };
    this.#pubsub.broadcastLocal({
      topic: entry.topic,
      event: PRESENCE_EVENTS.diff,
      payload: kind === 'join' ? { joins: change, leaves: {} } : { joins: {}, leaves: change },
    });
    this.emit(kind, entry.topic, entry.key, entry.meta);
  }

  #replicate(entry: Entry, kind: 'join' | 'leave'): void {
    this.#pubsub.broadcast({
      topic: TRACKER_TOPIC,
      event: kind,
      payload: {
        nodeId: this.nodeId,
        topic: entry.topic,
        key: entry.key,
        meta: entry.meta,
        kind,
      } satisfies TrackerDiff,
    });
  }

  #write(work: Promise<void>): void {
    const tracked = work.catch((err: unknown) =>
      this.#logger.warn(
        { code: 'presence_write_failed', err },
        'a presence row could not be written; the next resync of other nodes may miss it until it is tracked again',
      ),
    );
    this.#writes.add(tracked);
    void tracked.finally(() => this.#writes.delete(tracked));
  }
}
