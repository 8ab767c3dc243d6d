// Phoenix.PubSub over Postgres alone: a broadcast is delivered to this node's subscribers at once
// and appended to cluster_messages; NOTIFY nudges the other nodes, which read the log by id and
// deliver to theirs. A batch small enough rides in the NOTIFY itself and is delivered from it
// without reading the log (unless a read is under way: then the read delivers it, in order).
// LISTEN is only a nudge: every node also polls the log, so a notification lost to a dropped LISTEN
// connection costs one poll interval. A message is delivered once per node (ids are remembered,
// and ids committed out of order are re-read until they show up or expire).
import { createHash } from 'node:crypto';
import pg from 'pg';
import { type BroadcastMessage, LocalPubSub, type PubSub, type Subscriber } from '../../gateway/pubsub.ts';
import type { Logger } from '../logger.ts';
import { parseNote } from './notify-note.ts';
import { publishMessages, type OutgoingMessage } from './sql/publish-message.ts';
import { type LoggedMessage, lastMessageId, pruneMessages, readMessages } from './sql/read-messages.ts';

/** A PubSub that can also deliver to this node only (replicated state applying a remote change). */
export interface ClusterPubSub extends PubSub {
  broadcastLocal(message: BroadcastMessage): void;
  readonly nodeId: string;
}

const GAP_TTL_MS = 5_000;
const PRUNE_AFTER_MS = 60_000;
const READ_BATCH = 1_000;
const MAX_GAP = 1_000;

/** Binary payloads travel base64-encoded in the jsonb log. */
const BINARY = '__brabo_binary';
const encodePayload = (payload: unknown): unknown =>
  payload instanceof Uint8Array ? { [BINARY]: Buffer.from(payload).toString('base64') } : payload;
const decodePayload = (payload: unknown): unknown =>
  payload !== null && typeof payload === 'object' && BINARY in payload
    ? new Uint8Array(Buffer.from(String((payload as Record<string, unknown>)[BINARY]), 'base64'))
    : payload;

export class PostgresPubSub implements ClusterPubSub {
  readonly nodeId: string;
  readonly #local = new LocalPubSub();
  readonly #pool: pg.Pool;
  readonly #url: string;
  readonly #logger: Logger;
  readonly #pollMs: number;
  #channel = '';
  #listener: pg.Client | null = null;
  #after = 0;
  readonly #gaps = new Map<number, number>();
  #outbox: OutgoingMessage[] = [];
  #flushing: Promise<void> | null = null;
  #reading: Promise<void> | null = null;
  #readAgain = false;
  #poll: NodeJS.Timeout | null = null;
  #reconnect: NodeJS.Timeout | null = null;
  #lastPrune = 0;
  #closed = false;

  constructor(options: { pool: pg.Pool; url: string; nodeId: string; logger: Logger; pollMs: number }) {
    this.#pool = options.pool;
    this.#url = options.url;
    this.nodeId = options.nodeId;
    this.#logger = options.logger;
    this.#pollMs = options.pollMs;
  }

  /** Finds the log's end, starts listening and polling. */
  async start(): Promise<void> {
    const schema = await this.#pool.query('SELECT current_schema() AS s');
    // Channels are database-wide: one per schema, so clusters in different schemas never mix.
    this.#channel = `brabo_${createHash('sha256')
      .update(String((schema.rows[0] as { s: string }).s))
      .digest('hex')
      .slice(0, 40)}`;
    this.#after = await lastMessageId(this.#pool);
    await this.#listen();
    this.#poll = setInterval(() => this.#read(), this.#pollMs);
    this.#poll.unref();
  }

  subscribe(topic: string, subscriber: Subscriber): void {
    this.#local.subscribe(topic, subscriber);
  }

  unsubscribe(topic: string, subscriber: Subscriber): void {
    this.#local.unsubscribe(topic, subscriber);
  }

  localSubscriberCount(topic: string): number {
    return this.#local.localSubscriberCount(topic);
  }

  broadcastLocal(message: BroadcastMessage): void {
    this.#local.broadcast(message);
  }

  broadcast(message: BroadcastMessage): void {
    this.#local.broadcast(message);
    if (this.#closed) return;
    this.#outbox.push({ topic: message.topic, event: message.event, payload: encodePayload(message.payload) });
    this.#flush();
  }

  /** Resolves once everything broadcast so far is in the log (tests, shutdown). */
  async flushed(): Promise<void> {
    while (this.#flushing) await this.#flushing;
  }

  async close(): Promise<void> {
    await this.flushed();
    this.#closed = true;
    if (this.#poll) clearInterval(this.#poll);
    if (this.#reconnect) clearTimeout(this.#reconnect);
    await this.#reading;
    const listener = this.#listener;
    this.#listener = null;
    await listener?.end().catch(() => {});
  }

  /** One INSERT per batch, in broadcast order; a failed batch is logged and dropped (at-most-once, like Phoenix.PubSub). */
  #flush(): void {
    if (this.#flushing) return;
    this.#flushing = (async () => {
      while (this.#outbox.length > 0) {
        const batch = this.#outbox;
        this.#outbox = [];
        try {
          await publishMessages(this.#pool, this.#channel, this.nodeId, batch);
        } catch (err) {
          this.#logger.warn(
            { code: 'pubsub_publish_failed', count: batch.length, err },
            'cluster broadcast could not be written (Postgres unreachable?); other nodes miss it, their polling of durable state covers it',
          );
        }
      }
    })().finally(() => (this.#flushing = null));
  }

  #read(): void {
    if (this.#closed) return;
    if (this.#reading) {
      this.#readAgain = true;
      return;
    }
    this.#reading = this.#readOnce()
      .catch((err: unknown) =>
        this.#logger.warn(
          { code: 'pubsub_read_failed', err },
          'reading the cluster message log failed; retrying at the next poll',
        ),
      )
      .finally(() => {
        this.#reading = null;
        if (this.#readAgain) {
          this.#readAgain = false;
          this.#read();
        }
      });
  }

  async #readOnce(): Promise<void> {
    const now = Date.now();
    for (const [id, expires] of this.#gaps) if (expires < now) this.#gaps.delete(id);
    for (;;) {
      const messages = await readMessages(this.#pool, this.#after, [...this.#gaps.keys()], READ_BATCH);
      for (const message of messages) this.#accept(message, now);
      if (messages.length < READ_BATCH) break;
    }
    if (now - this.#lastPrune > PRUNE_AFTER_MS) {
      this.#lastPrune = now;
      await pruneMessages(this.#pool, PRUNE_AFTER_MS);
    }
  }

  /** Delivers a logged message to this node's subscribers unless it was delivered already. */
  #accept(message: LoggedMessage, now: number): void {
    if (message.id > this.#after) {
      // Ids skipped here may still be committing; a jump too large to be that is a rollback or a restart of the sequence.
      if (message.id - this.#after <= MAX_GAP)
        for (let missing = this.#after + 1; missing < message.id; missing++) this.#gaps.set(missing, now + GAP_TTL_MS);
      this.#after = message.id;
    } else if (!this.#gaps.delete(message.id)) return; // already delivered
    if (message.originNode === this.nodeId) return; // delivered locally when broadcast
    this.#local.broadcast({ topic: message.topic, event: message.event, payload: decodePayload(message.payload) });
  }

  /** A NOTIFY: its messages at once when it carries them and no read is under way; otherwise read the log. */
  #notified(body: string | undefined): void {
    const messages = this.#closed || this.#reading ? null : parseNote(body);
    if (!messages) {
      this.#read();
      return;
    }
    const now = Date.now();
    for (const message of messages) this.#accept(message, now);
  }

  async #listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, application_name: `brabo-listen ${this.nodeId}` });
    const lost = (err?: unknown): void => {
      if (this.#listener !== client || this.#closed) return;
      this.#listener = null;
      client.end().catch(() => {});
      this.#logger.warn(
        { code: 'pubsub_listen_lost', err },
        'the LISTEN connection dropped; polling continues, reconnecting',
      );
      this.#reconnect = setTimeout(() => void this.#listen().catch((e: unknown) => lost(e)), 1_000);
      this.#reconnect.unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (note) => this.#notified(note.payload));
    this.#listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN "${this.#channel}"`);
    } catch (err) {
      lost(err);
      return;
    }
    this.#read(); // anything published while we were not listening
  }
}
