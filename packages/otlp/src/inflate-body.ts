import { gunzipSync, inflateSync } from 'node:zlib';

export type InflateResult = { ok: true; body: Buffer } | { ok: false; reason: string };

/** A limit on the inflated size, so a small compressed body cannot expand without bound. */
export const DEFAULT_MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/**
 * Inflates gzip (1f 8b) and zlib (78 xx) bodies, detected by their
 * magic bytes like the reference does, whatever Content-Encoding said. Anything else is returned
 * as is: a protobuf request starts with 0x0a, which neither header can be mistaken for.
 */
export function inflateBody(body: Uint8Array, maxInflatedBytes: number = DEFAULT_MAX_INFLATED_BYTES): InflateResult {
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const b0 = buf[0];
  const b1 = buf[1];
  if (b0 === undefined || b1 === undefined) return { ok: true, body: buf };
  const isGzip = b0 === 0x1f && b1 === 0x8b;
  // zlib with the 32 KiB window every encoder uses (0x78), and a valid header checksum.
  const isZlib = b0 === 0x78 && (b0 * 256 + b1) % 31 === 0;
  if (!isGzip && !isZlib) return { ok: true, body: buf };
  try {
    const options = { maxOutputLength: maxInflatedBytes };
    return { ok: true, body: isGzip ? gunzipSync(buf, options) : inflateSync(buf, options) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, reason: `cannot inflate ${isGzip ? 'gzip' : 'zlib'} body: ${message}` };
  }
}
