// A result must fit in one WebSocket frame (the gateway's limit, 1 MiB by default) with its Phoenix
// envelope, or the socket closes with 1009 and the result is re-sent on every reconnect, forever.
// The journal keeps the full result; what is sent is cut to fit: the larger stream first, by its
// serialized (JSON-escaped) size, marked `truncated`.
import type { Result } from '../../runner-protocol/index.ts';

/** The gateway's default frame limit minus room for the envelope (refs, topic, event). */
export const RESULT_FRAME_BUDGET = 1024 * 1024 - 16 * 1024;

const serializedBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Cuts `text` to about `chars` characters without leaving half of a surrogate pair. */
function cutChars(text: string, chars: number): string {
  let cut = text.slice(0, Math.max(0, chars));
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return cut;
}

/** The result as sent: itself when it fits in `budget` serialized bytes, else with stdout/stderr cut until it does. */
export function fitResult(result: Result, budget = RESULT_FRAME_BUDGET): Result {
  if (serializedBytes(result) <= budget) return result;
  const fitted: Result = { ...result, truncated: true };
  for (let round = 0; round < 64; round++) {
    const over = serializedBytes(fitted) - budget;
    if (over <= 0) return fitted;
    const stdout = fitted.stdout ?? '';
    const stderr = fitted.stderr ?? '';
    const stream = serializedBytes(stdout) >= serializedBytes(stderr) ? 'stdout' : 'stderr';
    const text = stream === 'stdout' ? stdout : stderr;
    if (text.length === 0) break; // nothing left to cut: the rest (reason) is bounded by the protocol
    // Bytes per character of this stream as serialized (escapes count), so one round usually suffices.
    const ratio = Math.max(1, serializedBytes(text) / text.length);
    const remove = Math.max(Math.ceil(over / ratio) + 16, Math.ceil(text.length / 64));
    fitted[stream] = cutChars(text, text.length - remove);
  }
  return fitted;
}
