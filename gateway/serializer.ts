// Phoenix V2 serializer (Phoenix.Socket.V2.JSONSerializer): text frames are the JSON array
// `[join_ref, ref, topic, event, payload]`; binary frames carry a raw payload after a header of
// one kind byte and one length byte per field (push 0, reply 1, broadcast 2).
import { MalformedFrameError, UnencodableMessageError } from './errors.ts';

/** One decoded client frame. `payload` is a JSON value, or a Buffer for binary pushes. */
export interface Message {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

export type ReplyStatus = 'ok' | 'error';
export type Frame = string | Buffer;

const KIND = { push: 0, reply: 1, broadcast: 2 } as const;
export const REPLY_EVENT = 'phx_reply';

const isBinary = (payload: unknown): payload is Uint8Array => payload instanceof Uint8Array;

const nullableString = (value: unknown): value is string | null => value === null || typeof value === 'string';

/** Decodes a client frame; throws MalformedFrameError for anything that is not a v2 message. */
export function decode(data: Buffer, binary: boolean): Message {
  return binary ? decodeBinaryPush(data) : decodeText(data.toString('utf8'));
}

function decodeText(text: string): Message {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new MalformedFrameError('text frame is not JSON');
  }
  if (!Array.isArray(parsed) || parsed.length !== 5) {
    throw new MalformedFrameError('text frame is not a 5-element array [join_ref, ref, topic, event, payload]');
  }
  const [joinRef, ref, topic, event, payload] = parsed as unknown[];
  if (!nullableString(joinRef) || !nullableString(ref))
    throw new MalformedFrameError('join_ref and ref must be strings or null');
  if (typeof topic !== 'string' || typeof event !== 'string')
    throw new MalformedFrameError('topic and event must be strings');
  return { joinRef, ref, topic, event, payload };
}

// Client pushes: kind, join_ref size, ref size, topic size, event size, the fields, then the payload.
function decodeBinaryPush(data: Buffer): Message {
  if (data.length < 5) throw new MalformedFrameError('binary frame shorter than its header');
  if (data[0] !== KIND.push)
    throw new MalformedFrameError(`binary frame of kind ${data[0]}; clients only send pushes (0)`);
  const sizes = [data[1]!, data[2]!, data[3]!, data[4]!];
  let offset = 5;
  const fields = sizes.map((size) => {
    if (offset + size > data.length) throw new MalformedFrameError('binary frame fields exceed its length');
    const field = data.toString('utf8', offset, offset + size);
    offset += size;
    return field;
  });
  const [joinRef, ref, topic, event] = fields as [string, string, string, string];
  return { joinRef: joinRef || null, ref: ref || null, topic, event, payload: data.subarray(offset) };
}

function fieldBytes(value: string | null, name: string): Buffer {
  const bytes = Buffer.from(value ?? '', 'utf8');
  if (bytes.length > 255)
    throw new UnencodableMessageError(`${name} is ${bytes.length} bytes; binary frames allow 255`);
  return bytes;
}

function binaryFrame(kind: number, fields: Array<[string | null, string]>, payload: Uint8Array): Buffer {
  const encoded = fields.map(([value, name]) => fieldBytes(value, name));
  const header = Buffer.from([kind, ...encoded.map((field) => field.length)]);
  return Buffer.concat([header, ...encoded, payload]);
}

/** A reply to the client push `ref`: `phx_reply` with `{status, response}`. */
export function encodeReply(
  joinRef: string | null,
  ref: string | null,
  topic: string,
  status: ReplyStatus,
  response: unknown,
): Frame {
  if (isBinary(response)) {
    return binaryFrame(
      KIND.reply,
      [
        [joinRef, 'join_ref'],
        [ref, 'ref'],
        [topic, 'topic'],
        [status, 'status'],
      ],
      response,
    );
  }
  return JSON.stringify([joinRef, ref, topic, REPLY_EVENT, { status, response: response ?? {} }]);
}

/** A message the server sends to one channel (carries the channel's join_ref, no ref). */
export function encodePush(joinRef: string | null, topic: string, event: string, payload: unknown): Frame {
  if (isBinary(payload))
    return binaryFrame(
      KIND.push,
      [
        [joinRef, 'join_ref'],
        [topic, 'topic'],
        [event, 'event'],
      ],
      payload,
    );
  return JSON.stringify([joinRef, null, topic, event, payload ?? {}]);
}

/** A message for every subscriber of a topic (no join_ref, no ref). */
export function encodeBroadcast(topic: string, event: string, payload: unknown): Frame {
  if (isBinary(payload))
    return binaryFrame(
      KIND.broadcast,
      [
        [topic, 'topic'],
        [event, 'event'],
      ],
      payload,
    );
  return JSON.stringify([null, null, topic, event, payload ?? {}]);
}

/** `phx_close` / `phx_error` for a channel: Phoenix sends them with ref = join_ref. */
export function encodeControl(joinRef: string, topic: string, event: string, payload: unknown): Frame {
  return JSON.stringify([joinRef, joinRef, topic, event, payload]);
}
