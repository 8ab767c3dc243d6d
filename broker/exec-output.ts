// Sinks for docker-modem's demuxStream: byte-exact collection with a per-stream cap, and the
// splitter that takes the exec wrapper's one-line header off the front of stdout.
import { Writable } from 'node:stream';

/** Keeps the first `cap` bytes of a stream, counts the rest, decodes once at the end. */
export class OutputCollector extends Writable {
  readonly cap: number;
  truncated = false;
  #chunks: Buffer[] = [];
  #kept = 0;
  readonly #tap: ((chunk: Buffer) => void) | undefined;

  /** `tap` sees every chunk (live output), before the cap; it gets its own bound downstream. */
  constructor(cap: number, tap?: (chunk: Buffer) => void) {
    super();
    this.cap = cap;
    this.#tap = tap;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.take(chunk);
    callback();
  }

  take(chunk: Buffer): void {
    if (chunk.length > 0) this.#tap?.(chunk);
    const room = this.cap - this.#kept;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#chunks.push(kept);
    this.#kept += kept.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.#chunks, this.#kept);
  }

  /** Decoded once from all bytes, so a UTF-8 character split across frames survives. */
  text(): string {
    return this.bytes().toString('utf8');
  }
}

export type ExecHeader = { kind: 'pid'; pid: number } | { kind: 'outside'; resolved: string } | { kind: 'missing' };

/** A header line is short; anything longer without a newline is not one. */
const MAX_HEADER_BYTES = 8192;

/** What the supervisor's last stdout line says: how the exec ended (see exec-supervisor.ts). */
export interface ExecTrailer {
  status: number;
  /** done: the command finished; kill: the broker's kill; timeout: the in-container deadline; eof: the broker's stdin closed. */
  reason: 'done' | 'kill' | 'timeout' | 'eof';
  /** The supervisor saw no process of the exec left after its final sweep. */
  confirmed: boolean;
}

/** The trailer is short: a nonce further back than this from the end is not the trailer's. */
const TRAILER_HOLDBACK = 160;

/**
 * The supervisor's first stdout line is `<nonce> pid <n>`, `<nonce> outside <dir>` or
 * `<nonce> missing`, and its last one `<nonce> end <status> <reason> <0|1>`. Both are removed
 * before the command's own output reaches the collector; `finish()` is called once the stream
 * ended and returns the trailer, if the stream carried one.
 */
export class StdoutHeaderSplitter extends Writable {
  #nonce: string;
  #sink: OutputCollector;
  #onHeader: (header: ExecHeader) => void;
  #pending: Buffer | undefined = Buffer.alloc(0);
  /** The last bytes seen after the header, not yet passed on: they may be the trailer. */
  #tail: Buffer = Buffer.alloc(0);

  constructor(nonce: string, sink: OutputCollector, onHeader: (header: ExecHeader) => void) {
    super();
    this.#nonce = nonce;
    this.#sink = sink;
    this.#onHeader = onHeader;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.#pending === undefined) {
      this.#pass(chunk);
      return callback();
    }
    const buffered = Buffer.concat([this.#pending, chunk]);
    const newline = buffered.indexOf(0x0a);
    if (newline === -1 && buffered.length <= MAX_HEADER_BYTES) {
      this.#pending = buffered;
      return callback();
    }
    this.#pending = undefined;
    const header =
      newline === -1 ? undefined : parseHeader(buffered.subarray(0, newline).toString('utf8'), this.#nonce);
    if (header === undefined) {
      this.#pass(buffered);
    } else {
      this.#onHeader(header);
      this.#pass(buffered.subarray(newline + 1));
    }
    callback();
  }

  /** The stream ended: strip and return the trailer; everything else goes to the collector. */
  finish(): ExecTrailer | undefined {
    if (this.#pending !== undefined) {
      // A stream shorter than one line: it may still be just a header.
      const buffered = this.#pending;
      this.#pending = undefined;
      const newline = buffered.indexOf(0x0a);
      const header =
        newline === -1 ? undefined : parseHeader(buffered.subarray(0, newline).toString('utf8'), this.#nonce);
      if (header === undefined) this.#tail = buffered;
      else {
        this.#onHeader(header);
        this.#tail = buffered.subarray(newline + 1);
      }
    }
    const tail = this.#tail.toString('latin1');
    const match = new RegExp(`${this.#nonce} end ([0-9]{1,3}) (done|kill|timeout|eof) ([01])\n$`).exec(tail);
    const kept = match === null ? this.#tail : this.#tail.subarray(0, match.index);
    this.#sink.take(kept);
    this.#tail = Buffer.alloc(0);
    if (match === null) return undefined;
    return { status: Number(match[1]), reason: match[2] as ExecTrailer['reason'], confirmed: match[3] === '1' };
  }

  #pass(chunk: Buffer): void {
    const joined = this.#tail.length === 0 ? chunk : Buffer.concat([this.#tail, chunk]);
    const hold = this.#holdFrom(joined);
    if (hold > 0) this.#sink.take(joined.subarray(0, hold));
    this.#tail = hold === joined.length ? Buffer.alloc(0) : Buffer.from(joined.subarray(hold));
  }

  /**
   * Where the bytes that may still become the trailer begin: a last `<nonce>` with no newline
   * after it but a final one, or a tail that is the start of the nonce. Everything before goes on
   * at once, so live output is never held back by more than a partial trailer.
   */
  #holdFrom(buffer: Buffer): number {
    const nonce = Buffer.from(this.#nonce, 'latin1');
    const full = buffer.lastIndexOf(nonce);
    if (full !== -1 && buffer.length - full <= TRAILER_HOLDBACK) {
      const newline = buffer.indexOf(0x0a, full);
      if (newline === -1 || newline === buffer.length - 1) return full;
    }
    for (let k = Math.min(nonce.length - 1, buffer.length); k > 0; k--) {
      if (buffer.subarray(buffer.length - k).equals(nonce.subarray(0, k))) return buffer.length - k;
    }
    return buffer.length;
  }
}

function parseHeader(line: string, nonce: string): ExecHeader | undefined {
  if (!line.startsWith(nonce + ' ')) return undefined;
  const rest = line.slice(nonce.length + 1);
  if (rest === 'missing') return { kind: 'missing' };
  if (rest.startsWith('outside ')) return { kind: 'outside', resolved: rest.slice('outside '.length) };
  const pid = /^pid ([0-9]{1,10})$/.exec(rest);
  return pid?.[1] === undefined ? undefined : { kind: 'pid', pid: Number(pid[1]) };
}
