// Phoenix.Presence in miniature: who is on a topic, as `{key: {metas: [...]}}` (each meta with its
// own phx_ref), and `presence_diff {joins, leaves}` broadcast on the topic whenever it changes; a
// channel pushes `presence_state` (list()) after join. LocalPresence keeps one node's state in
// memory (the single-node server); on a cluster, src/cluster/postgres-presence.ts implements the
// same PresenceTracker over Postgres.
import { randomBytes } from 'node:crypto';
import type { PubSub } from './pubsub.ts';

export type PresenceMeta = Record<string, unknown> & { phx_ref: string };
export type PresenceState = Record<string, { metas: PresenceMeta[] }>;

export const PRESENCE_EVENTS = { state: 'presence_state', diff: 'presence_diff' } as const;

export interface PresenceTracker {
  /** Tracks `key` on `topic` with `meta`; the returned function untracks it (idempotent). */
  track(topic: string, key: string, meta: Record<string, unknown>): () => void;
  list(topic: string): PresenceState;
}

export class LocalPresence implements PresenceTracker {
  readonly #pubsub: PubSub;
  /** topic -> key -> phx_ref -> meta */
  readonly #topics = new Map<string, Map<string, Map<string, PresenceMeta>>>();

  constructor(pubsub: PubSub) {
    this.#pubsub = pubsub;
  }

  track(topic: string, key: string, meta: Record<string, unknown>): () => void {
    const entry: PresenceMeta = { ...meta, phx_ref: randomBytes(8).toString('base64url') };
    let keys = this.#topics.get(topic);
    if (!keys) this.#topics.set(topic, (keys = new Map()));
    let metas = keys.get(key);
    if (!metas) keys.set(key, (metas = new Map()));
    metas.set(entry.phx_ref, entry);
    this.#diff(topic, { [key]: { metas: [entry] } }, {});
    let tracked = true;
    return () => {
      if (!tracked) return;
      tracked = false;
      metas.delete(entry.phx_ref);
      if (metas.size === 0) keys.delete(key);
      if (keys.size === 0) this.#topics.delete(topic);
      this.#diff(topic, {}, { [key]: { metas: [entry] } });
    };
  }

  list(topic: string): PresenceState {
    const state: PresenceState = {};
    for (const [key, metas] of this.#topics.get(topic) ?? []) state[key] = { metas: [...metas.values()] };
    return state;
  }

  #diff(topic: string, joins: PresenceState, leaves: PresenceState): void {
    this.#pubsub.broadcast({ topic, event: PRESENCE_EVENTS.diff, payload: { joins, leaves } });
  }
}
