// The v2 serializer against the phoenix client's own Serializer: what the client encodes we
// decode, what we encode the client decodes; arbitrary bytes never escape as anything but
// MalformedFrameError.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MalformedFrameError } from '../../gateway/errors.ts';
import { decode, encodeBroadcast, encodePush, encodeReply } from '../../gateway/serializer.ts';
import { Serializer } from './phoenix-clients.ts';

const field = fc.string({ maxLength: 40 });
const json = fc.jsonValue() as fc.Arbitrary<unknown>;
const bytes = fc.uint8Array({ maxLength: 200 });
// The client always pushes an object (or an ArrayBuffer).
const object = fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue(), { maxKeys: 5 }) as fc.Arbitrary<unknown>;

const clientEncode = (message: Record<string, unknown>): string | ArrayBuffer =>
  Serializer.encode(message, (out: string | ArrayBuffer) => out);
const clientDecode = (
  frame: string | Buffer,
): { join_ref: unknown; ref: unknown; topic: string; event: string; payload: any } => {
  const raw =
    typeof frame === 'string' ? frame : frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.byteLength);
  return Serializer.decode(raw, (message: any) => message);
};
const asBuffer = (frame: string | ArrayBuffer) => (typeof frame === 'string' ? Buffer.from(frame) : Buffer.from(frame));

describe('v2 serializer', () => {
  it('decodes every JSON and binary push the phoenix client encodes', () => {
    fc.assert(
      fc.property(
        field,
        field,
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.oneof(object, bytes),
        (joinRef, ref, topic, event, payload) => {
          const binary = payload instanceof Uint8Array;
          const out = clientEncode({
            join_ref: joinRef,
            ref,
            topic,
            event,
            payload: binary ? payload.slice().buffer : payload,
          });
          const decoded = decode(asBuffer(out), binary);
          expect(decoded.topic).toBe(topic);
          expect(decoded.event).toBe(event);
          if (binary) expect([...(decoded.payload as Buffer)]).toEqual([...payload]);
          else expect(decoded.payload).toEqual(JSON.parse(JSON.stringify(payload)));
        },
      ),
    );
  });

  it('encodes replies, pushes and broadcasts (JSON and binary) the phoenix client decodes', () => {
    fc.assert(
      fc.property(field, field, fc.string({ maxLength: 40 }), fc.oneof(json, bytes), (joinRef, ref, topic, payload) => {
        const binary = payload instanceof Uint8Array;
        const reply = clientDecode(encodeReply(joinRef, ref, topic, 'ok', payload));
        expect([reply.topic, reply.event, reply.payload.status]).toEqual([topic, 'phx_reply', 'ok']);
        const push = clientDecode(encodePush(joinRef, topic, 'evt', payload));
        expect([push.join_ref, push.topic, push.event]).toEqual([joinRef, topic, 'evt']);
        const broadcast = clientDecode(encodeBroadcast(topic, 'evt', payload));
        expect([broadcast.join_ref, broadcast.topic]).toEqual([null, topic]);
        if (binary) expect([...new Uint8Array(broadcast.payload)]).toEqual([...payload]);
      }),
    );
  });

  it('arbitrary input is either a message or a MalformedFrameError, never another exception', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          bytes,
          fc.string().map((s) => new TextEncoder().encode(s)),
        ),
        fc.boolean(),
        (input, binary) => {
          try {
            decode(Buffer.from(input), binary);
          } catch (err) {
            expect(err).toBeInstanceOf(MalformedFrameError);
          }
        },
      ),
    );
  });
});
