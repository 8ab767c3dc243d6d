// Turns a command's raw output into `output` messages: per-stream UTF-8 decoding (a character is
// never split across chunks), coalescing (at most one message per stream per flush interval unless
// a chunk fills up), seq numbers shared by both streams, and a per-stream byte budget after which
// streaming stops (the final result still says `truncated`).
import { StringDecoder } from 'node:string_decoder';
import type { Output } from '../../runner-protocol/index.ts';
import type { StreamName } from './run-command.ts';

export interface OutputStreamerOptions {
  dispatchId: string;
  attempt: number;
  /** Flush a stream's buffer once it holds this many characters. */
  chunkChars: number;
  flushIntervalMs: number;
  /** Characters per stream streamed at most; the rest only shows as `truncated` in the result. */
  budgetChars: number;
  send: (message: Output) => void;
}

interface StreamState {
  decoder: StringDecoder;
  pending: string;
  streamed: number;
}

export class OutputStreamer {
  readonly #options: OutputStreamerOptions;
  readonly #streams: Record<StreamName, StreamState>;
  #seq = 0;
  #timer: NodeJS.Timeout | null = null;

  constructor(options: OutputStreamerOptions) {
    this.#options = options;
    const state = (): StreamState => ({ decoder: new StringDecoder('utf8'), pending: '', streamed: 0 });
    this.#streams = { stdout: state(), stderr: state() };
  }

  write(stream: StreamName, data: Buffer): void {
    const state = this.#streams[stream];
    const room = this.#options.budgetChars - state.streamed - state.pending.length;
    if (room <= 0) return;
    const text = state.decoder.write(data);
    state.pending += text.length <= room ? text : text.slice(0, room);
    while (state.pending.length >= this.#options.chunkChars) {
      this.#emit(stream, state.pending.slice(0, this.#options.chunkChars));
      state.pending = state.pending.slice(this.#options.chunkChars);
    }
    if (state.pending.length > 0 && this.#timer === null) {
      this.#timer = setTimeout(() => this.flush(), this.#options.flushIntervalMs);
    }
  }

  /** Sends whatever is buffered; call once more when the command ends. */
  flush(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    for (const stream of ['stdout', 'stderr'] as const) {
      const state = this.#streams[stream];
      if (state.pending.length > 0) this.#emit(stream, state.pending);
      state.pending = '';
    }
  }

  get messagesSent(): number {
    return this.#seq;
  }

  #emit(stream: StreamName, data: string): void {
    this.#streams[stream].streamed += data.length;
    this.#options.send({
      dispatchId: this.#options.dispatchId,
      attempt: this.#options.attempt,
      stream,
      seq: this.#seq++,
      data,
    });
  }
}
