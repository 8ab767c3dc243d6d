// The live output of one dispatch, kept while it runs and for a while after, so a viewer who
// arrives late (the console's action page, `GET /api/actions/:id/output`) sees everything from the
// start. Bounded like the recorded outcome: at most `capBytes` UTF-8 bytes per stream, the rest is
// counted as dropped and `truncated` is set, so a chatty command cannot grow the gateway's memory.
import { capText } from '../execution/outcome.ts';

export type OutputStream = 'stdout' | 'stderr';

/** One kept piece of output. `seq` orders chunks of both streams of one action (0, 1, 2...). */
export interface OutputChunk {
  seq: number;
  stream: OutputStream;
  data: string;
}

export class OutputBuffer {
  readonly capBytes: number;
  readonly #chunks: OutputChunk[] = [];
  readonly #kept: Record<OutputStream, number> = { stdout: 0, stderr: 0 };
  /** A stream that hit its cap keeps nothing more: a later small chunk must not leave a gap. */
  readonly #full: Record<OutputStream, boolean> = { stdout: false, stderr: false };
  #nextSeq = 0;
  truncated = false;
  /** Bytes that arrived past the cap (not kept, not forwarded). */
  droppedBytes = 0;

  constructor(capBytes: number) {
    if (!Number.isInteger(capBytes) || capBytes < 0)
      throw new RangeError(`output buffer cap must be a whole number of bytes, got ${capBytes}`);
    this.capBytes = capBytes;
  }

  /** Keeps what fits under the stream's cap; returns the chunk kept (null when nothing fit). */
  append(stream: OutputStream, data: string): OutputChunk | null {
    if (data.length === 0) return null;
    const bytes = Buffer.byteLength(data, 'utf8');
    if (this.#full[stream]) {
      this.droppedBytes += bytes;
      return null;
    }
    const room = this.capBytes - this.#kept[stream];
    const { text } = bytes <= room ? { text: data } : capText(data, Math.max(0, room));
    const keptBytes = text === data ? bytes : Buffer.byteLength(text, 'utf8');
    if (keptBytes < bytes) {
      this.truncated = true;
      this.#full[stream] = true;
      this.droppedBytes += bytes - keptBytes;
    }
    if (text.length === 0) return null;
    this.#kept[stream] += keptBytes;
    const chunk: OutputChunk = { seq: this.#nextSeq++, stream, data: text };
    this.#chunks.push(chunk);
    return chunk;
  }

  /**
   * A chunk another node kept (its seq is that node's): a mirror of the origin's buffer, so a
   * viewer on this node replays the same seqs. Repeats and older seqs are ignored; a seq lost on
   * the way leaves a gap (never a reorder). The cap still bounds what is kept here.
   */
  accept(chunk: OutputChunk, truncated: boolean): boolean {
    if (truncated) this.truncated = true;
    if (chunk.seq < this.#nextSeq || chunk.data.length === 0) return false;
    const bytes = Buffer.byteLength(chunk.data, 'utf8');
    if (this.#full[chunk.stream] || this.#kept[chunk.stream] + bytes > this.capBytes) {
      this.#full[chunk.stream] = true;
      this.truncated = true;
      this.droppedBytes += bytes;
      return false;
    }
    this.#kept[chunk.stream] += bytes;
    this.#nextSeq = chunk.seq + 1;
    this.#chunks.push({ seq: chunk.seq, stream: chunk.stream, data: chunk.data });
    return true;
  }

  /** Chunks with `seq` greater than `after` (-1 = all), in order. */
  since(after: number): OutputChunk[] {
    if (after < 0) return [...this.#chunks];
    // Seqs increase with the index (a mirror may have gaps): the first one past `after`, by halving.
    let low = 0;
    let high = this.#chunks.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.#chunks[mid] as OutputChunk).seq <= after) low = mid + 1;
      else high = mid;
    }
    return this.#chunks.slice(low);
  }

  get keptBytes(): number {
    return this.#kept.stdout + this.#kept.stderr;
  }
}
