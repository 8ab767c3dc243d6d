// `brabo check --jsonl`: one JSON request per input line, one JSON answer per output line, in the
// same order, always exactly one answer per line (blank and malformed lines get `{"error"}` and
// the batch goes on). Input is read chunk by chunk and output waits for the pipe to drain, so
// memory stays bounded whatever the input size; a line longer than MAX_LINE_BYTES is answered
// with an error without ever being held in memory.
import { once } from 'node:events';
import { decide } from '../policy/index.ts';
import { CheckUsageError, requestToInput } from './check.ts';

export const MAX_LINE_BYTES = 8 * 1024 * 1024;
const NEWLINE = 0x0a;

export type Line = { text: string } | { tooLongBytes: number };

/** Splits a byte stream on `\n`; a final line without `\n` still counts when non-empty. */
export async function* readLines(
  input: AsyncIterable<Buffer | string>,
  maxBytes = MAX_LINE_BYTES,
): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let size = 0;
  let dropped = 0; // bytes of the current line thrown away because it is too long
  const finish = (): Line => {
    const line: Line =
      dropped > 0 ? { tooLongBytes: dropped + size } : { text: Buffer.concat(parts, size).toString('utf8') };
    parts = [];
    size = 0;
    dropped = 0;
    return line;
  };
  const keep = (piece: Buffer): void => {
    if (dropped > 0 || size + piece.length > maxBytes) {
      dropped += size + piece.length;
      parts = [];
      size = 0;
      return;
    }
    parts.push(piece);
    size += piece.length;
  };
  for await (const raw of input) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      keep(chunk.subarray(start, end));
      yield finish();
      start = end + 1;
    }
    // copy: the stream may reuse its chunk buffers
    if (start < chunk.length) keep(Buffer.from(chunk.subarray(start)));
  }
  if (size > 0 || dropped > 0) yield finish();
}

export type Answer = { policy: string; reasonCode: string; reason: string; fragments?: unknown[] } | { error: string };

/** The answer for one input line. Never throws. */
export function answerLine(line: Line, defaultRoot: string): Answer {
  if ('tooLongBytes' in line) {
    return { error: `line too long: ${line.tooLongBytes} bytes (at most ${MAX_LINE_BYTES} per request)` };
  }
  const text = line.text.endsWith('\r') ? line.text.slice(0, -1) : line.text;
  if (text.trim() === '') return { error: 'blank line: expected one JSON request object' };
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch (error) {
    return { error: `invalid JSON: ${(error as Error).message}` };
  }
  try {
    const decision = decide(requestToInput(request, defaultRoot));
    return {
      policy: decision.policy,
      reasonCode: decision.reasonCode,
      reason: decision.reason,
      ...(decision.fragments ? { fragments: decision.fragments } : {}),
    };
  } catch (error) {
    if (error instanceof CheckUsageError) return { error: error.message };
    // decide() promises never to throw; should it, this line says so and the batch goes on.
    return { error: `internal error: ${(error as Error).message}` };
  }
}

interface Output {
  write(chunk: string): boolean;
  once(event: 'drain' | 'error' | 'close', listener: (...args: unknown[]) => void): unknown;
}

export async function runJsonl(
  input: AsyncIterable<Buffer | string>,
  output: Output & NodeJS.EventEmitter,
  defaultRoot = process.cwd(),
): Promise<number> {
  try {
    for await (const line of readLines(input)) {
      if (!output.write(`${JSON.stringify(answerLine(line, defaultRoot))}\n`)) await once(output, 'drain');
    }
  } catch (error) {
    // The reader went away (EPIPE) or stdin failed: nothing more can be answered.
    process.stderr.write(`brabo check --jsonl: ${(error as Error).message}\n`);
    return 2;
  }
  return 0;
}
