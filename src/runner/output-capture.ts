// Keeps the first `maxBytes` of one output stream for the final result; the rest is counted and
// dropped so a command printing gigabytes cannot exhaust the runner's memory.

export class OutputCapture {
  readonly maxBytes: number;
  #chunks: Buffer[] = [];
  #kept = 0;
  #seen = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  push(chunk: Buffer): void {
    this.#seen += chunk.length;
    const room = this.maxBytes - this.#kept;
    if (room <= 0) return;
    const slice = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.#chunks.push(slice);
    this.#kept += slice.length;
  }

  get truncated(): boolean {
    return this.#seen > this.#kept;
  }

  get bytesSeen(): number {
    return this.#seen;
  }

  /** UTF-8 text of what was kept; a character cut at the cap becomes U+FFFD. */
  text(): string {
    return Buffer.concat(this.#chunks, this.#kept).toString('utf8');
  }
}
