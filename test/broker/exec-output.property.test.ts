// The exec stream's framing (unit, fast-check): the supervisor's header line and end line are
// taken off stdout whatever the chunk boundaries; everything else reaches the collector byte for
// byte, including output that looks like (parts of) the nonce or a forged end line; a stream cut
// before the end line has no trailer; the cap applies to the command's bytes only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ExecHeader, OutputCollector, StdoutHeaderSplitter } from '../../broker/exec-output.ts';

const NONCE = '0123456789abcdef01234567';

/** Feeds `bytes` to a fresh splitter in the given chunk sizes; returns what came out. */
function feed(bytes: Buffer, cuts: number[], cap = 1 << 20) {
  const live: Buffer[] = [];
  const tapped = new OutputCollector(cap, (chunk) => live.push(Buffer.from(chunk)));
  let header: ExecHeader | undefined;
  const splitter = new StdoutHeaderSplitter(NONCE, tapped, (h) => (header = h));
  let at = 0;
  for (const size of [...cuts, bytes.length]) {
    const end = Math.min(bytes.length, at + Math.max(1, size));
    if (end > at) splitter.write(bytes.subarray(at, end));
    at = end;
    if (at >= bytes.length) break;
  }
  const trailer = splitter.finish();
  return { header, trailer, out: tapped.bytes(), live: Buffer.concat(live), truncated: tapped.truncated };
}

// Command output that tries hard to look like framing: nonce pieces, newlines, forged end lines.
const tricky = fc
  .array(
    fc.oneof(
      fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a)),
      fc
        .constantFrom(
          '\n',
          NONCE,
          NONCE.slice(0, 7),
          `${NONCE} end 0 done 1\n`,
          `${NONCE} end 3 kill 0`,
          ' end ',
          'é€𝄞',
        )
        .map((t) => Buffer.from(t)),
    ),
    { maxLength: 30 },
  )
  .map((parts) => Buffer.concat(parts));
const cuts = fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 40 });
const trailerOf = fc.record({
  status: fc.integer({ min: 0, max: 255 }),
  reason: fc.constantFrom('done', 'kill', 'timeout', 'eof'),
  confirmed: fc.boolean(),
});

describe('StdoutHeaderSplitter', () => {
  it('property: header and end line are removed at any chunking; the command bytes are exact, live and recorded', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99999 }), tricky, trailerOf, cuts, (pid, body, end, sizes) => {
        const stream = Buffer.concat([
          Buffer.from(`${NONCE} pid ${pid}\n`),
          body,
          Buffer.from(`${NONCE} end ${end.status} ${end.reason} ${end.confirmed ? 1 : 0}\n`),
        ]);
        const result = feed(stream, sizes);
        expect(result.header).toEqual({ kind: 'pid', pid });
        expect(result.trailer).toEqual(end);
        expect(result.out.equals(body)).toBe(true);
        expect(result.live.equals(body)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('property: a stream cut anywhere before its end line has no trailer, and nothing of the command is lost', () => {
    fc.assert(
      fc.property(tricky, cuts, fc.nat(), (body, sizes, cutSeed) => {
        const full = Buffer.concat([Buffer.from(`${NONCE} pid 7\n`), body, Buffer.from(`${NONCE} end 0 done 1\n`)]);
        const cutAt = full.length - 1 - (cutSeed % Math.max(1, Buffer.byteLength(`${NONCE} end 0 done 1\n`)));
        const result = feed(full.subarray(0, cutAt), sizes);
        // A forged end line *inside* the body may legitimately end a cut stream only if it is
        // its very last bytes; the real one is never complete here.
        if (result.trailer !== undefined) expect(full.subarray(0, cutAt).toString('latin1').endsWith('\n')).toBe(true);
        const kept = Buffer.concat([
          result.out,
          Buffer.from(
            result.trailer
              ? `${NONCE} end ${result.trailer.status} ${result.trailer.reason} ${result.trailer.confirmed ? 1 : 0}\n`
              : '',
          ),
        ]);
        expect(Buffer.concat([Buffer.from(`${NONCE} pid 7\n`), kept]).equals(full.subarray(0, cutAt))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('caps only the command bytes: the end line never counts against the cap or shows up in the output', () => {
    const body = Buffer.from('x'.repeat(100));
    const stream = Buffer.concat([Buffer.from(`${NONCE} pid 1\n`), body, Buffer.from(`${NONCE} end 0 done 1\n`)]);
    const capped = feed(stream, [3, 50, 7], 100);
    expect(capped).toMatchObject({ trailer: { status: 0, reason: 'done', confirmed: true }, truncated: false });
    expect(capped.out.toString()).toBe('x'.repeat(100));
    expect(feed(stream, [1000], 99).truncated).toBe(true);
  });

  it('a stream without a header line passes everything through (the header is not guessed)', () => {
    const result = feed(Buffer.from('plain output\n'), [4]);
    expect(result).toMatchObject({ header: undefined, trailer: undefined });
    expect(result.out.toString()).toBe('plain output\n');
  });
});
