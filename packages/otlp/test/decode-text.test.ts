// Strings from protobuf never reach the JSON routes' text checks (@llm/contracts text.ts), so this
// pins what the decoder itself makes of text the stores could not hold. Invalid UTF-8 (including
// the 3-byte form of a lone surrogate, ED A0 80) is decoded to U+FFFD, never to a lone surrogate;
// NUL is valid UTF-8 and is kept as sent (span content goes to ClickHouse, which stores it).
import { describe, expect, it } from 'vitest';
import { decodeOtlpTraces } from '../src/index.ts';
import { requestOf, span } from './fixtures/build-request.ts';

const MARK = '@@@';
const LONE_HIGH_SURROGATE_UTF8 = [0xed, 0xa0, 0x80];

/** The request with every `@@@` replaced, byte for byte, by `bytes` (same length, so lengths hold). */
function patched(body: Uint8Array, bytes: number[]): Uint8Array {
  const out = Uint8Array.from(body);
  const mark = Buffer.from(MARK);
  let found = 0;
  for (let i = 0; i + mark.length <= out.length; i++) {
    if (mark.every((b, j) => out[i + j] === b)) {
      out.set(bytes, i);
      found++;
    }
  }
  expect(found).toBeGreaterThan(0);
  return out;
}

const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

describe('decodeOtlpTraces: text the stores cannot hold', () => {
  const request = () => requestOf([span({
    name: `name${MARK}`,
    attributes: {
      [`short.key${MARK}`]: `value${MARK}`,
      // Keys longer than the key cache's limit take the other decoding path.
      [`long.key.${'x'.repeat(120)}${MARK}`]: [`item${MARK}`],
    },
    events: [{ name: `event${MARK}` }],
    status: { code: 2, message: `message${MARK}` },
  })]);

  it('when strings hold the UTF-8 form of a lone surrogate, then they decode to U+FFFD and are well-formed', () => {
    const r = decodeOtlpTraces(patched(request(), LONE_HIGH_SURROGATE_UTF8), { adapt: false });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const s = r.spans[0]!;
    const text = JSON.stringify(s);
    expect(text).toContain('\uFFFD');
    const strings: string[] = [];
    JSON.parse(text, (k: string, v: unknown) => {
      strings.push(k);
      if (typeof v === 'string') strings.push(v);
      return v;
    });
    expect(strings.every(wellFormed)).toBe(true);
    expect(s.span_name).toBe('name\uFFFD\uFFFD\uFFFD');
  });

  it('when strings hold NUL, then it is kept as sent', () => {
    const r = decodeOtlpTraces(patched(request(), [0x61, 0x00, 0x62]), { adapt: false });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.spans[0]!.span_name).toBe('namea\u0000b');
    expect(r.spans[0]!.status_message).toBe('messagea\u0000b');
  });
});
