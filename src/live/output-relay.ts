// Live output across the nodes of a cluster: every chunk a node keeps, and every end it sees, is
// broadcast on the internal `live_output` topic through the PubSub interface (on Postgres, a row
// of the cluster's message log that NOTIFY only nudges, so a chunk of up to the runner protocol's
// 1 MiB is carried by reference, never in the 8000-byte NOTIFY payload). The other nodes mirror it
// into their own bounded buffers: the SSE route, whose viewer may be on any node, reads those.
// Agent and console topics are not relayed here: the origin's broadcast on them is cluster-wide.
// No socket can join `live_output` (no channel route matches it), so only nodes write to it.
import { z } from 'zod';
import type { BroadcastMessage, PubSub, Subscriber } from '../../gateway/pubsub.ts';
import type { Logger } from '../logger.ts';
import type { LiveOutput, OutputRelay, OutputTarget, SettledStatus } from './live-output.ts';
import type { OutputChunk } from './output-buffer.ts';

export const LIVE_OUTPUT_TOPIC = 'live_output';
const EVENTS = { chunk: 'chunk', end: 'end' } as const;

const Relayed = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal(EVENTS.chunk),
    target: z.object({ actionId: z.string(), projectId: z.string(), proposerId: z.string() }),
    chunk: z.object({ seq: z.number().int().min(0), stream: z.enum(['stdout', 'stderr']), data: z.string() }),
    truncated: z.boolean(),
  }),
  z.object({
    kind: z.literal(EVENTS.end),
    actionId: z.string(),
    status: z.enum(['executed', 'failed', 'denied']),
    truncated: z.boolean(),
  }),
]);

export class PubSubOutputRelay implements OutputRelay, Subscriber {
  readonly #pubsub: PubSub;
  readonly #logger: Logger;
  #output: LiveOutput | null = null;

  constructor(pubsub: PubSub, logger: Logger) {
    this.#pubsub = pubsub;
    this.#logger = logger;
  }

  /** Mirrors what the other nodes relay into `output`; the returned function stops it. */
  attach(output: LiveOutput): () => void {
    this.#output = output;
    this.#pubsub.subscribe(LIVE_OUTPUT_TOPIC, this);
    return () => this.#pubsub.unsubscribe(LIVE_OUTPUT_TOPIC, this);
  }

  chunk(target: OutputTarget, chunk: OutputChunk, truncated: boolean): void {
    this.#send(EVENTS.chunk, { kind: EVENTS.chunk, target, chunk, truncated });
  }

  end(actionId: string, status: SettledStatus, truncated: boolean): void {
    this.#send(EVENTS.end, { kind: EVENTS.end, actionId, status, truncated });
  }

  deliver(message: BroadcastMessage): void {
    const parsed = Relayed.safeParse(message.payload);
    if (!parsed.success) {
      this.#logger.warn(
        { code: 'live_output_relay_invalid', event: message.event },
        'a relayed live output message did not parse; it is ignored (a node of another version?)',
      );
      return;
    }
    const relayed = parsed.data;
    if (relayed.kind === EVENTS.chunk) this.#output?.mirrorChunk(relayed.target, relayed.chunk, relayed.truncated);
    else this.#output?.mirrorEnd(relayed.actionId, relayed.status, relayed.truncated);
  }

  #send(event: string, payload: z.infer<typeof Relayed>): void {
    // `from`: this node's own mirror is the origin buffer already.
    this.#pubsub.broadcast({ topic: LIVE_OUTPUT_TOPIC, event, payload, from: this });
  }
}
