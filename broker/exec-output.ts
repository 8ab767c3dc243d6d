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

export type ExecHeader =
  | { kind: 'pid'; pid: number }
  | { kind: 'outside'; resolved: string }
  | { kind: 'missing' };

/** A header line is short; anything longer without a newline is not one. */
const MAX_HEADER_BYTES = 8192;

/**
 * The wrapper's first stdout line is `<nonce> pid <n>`, `<nonce> outside <dir>` or
 * `<nonce> missing`. It is removed before the command's own output reaches the collector.
 */
export class StdoutHeaderSplitter extends Writable {
  #nonce: string;
  #sink: OutputCollector;
  #onHeader: (header: ExecHeader) => void;
  #pending: Buffer | undefined = Buffer.alloc(0);

  constructor(nonce: string, sink: OutputCollector, onHeader: (header: ExecHeader) => void) {
    super();
    this.#nonce = nonce;
    this.#sink = sink;
    this.#onHeader = onHeader;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.#pending === undefined) {
      this.#sink.take(chunk);
      return callback();
    }
    const buffered = Buffer.concat([this.#pending, chunk]);
    const newline = buffered.indexOf(0x0a);
    if (newline === -1 && buffered.length <= MAX_HEADER_BYTES) {
      this.#pending = buffered;
      return callback();
    }
    this.#pending = undefined;
    const header = newline === -1 ? undefined : parseHeader(buffered.subarray(0, newline).toString('utf8'), this.#nonce);
    if (header === undefined) {
      this.#sink.take(buffered);
    } else {
      this.#onHeader(header);
      this.#sink.take(buffered.subarray(newline + 1));
    }
    callback();
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
