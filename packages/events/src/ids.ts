// Event and record ids. UUIDv7 for new facts (time-ordered: ids page in creation order, as the
// reference's UUID7 ids do); UUIDv5 for ids derived from something else (a record's position, an
// event and a subscription), so that a re-delivery derives the same id and stays idempotent.
import { createHash, randomBytes } from 'node:crypto';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const format = (h: string): string => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;

let lastMs = 0;
let seq = 0;

/** A UUIDv7 (RFC 9562): 48-bit unix milliseconds, then random bits; monotonic within this process. */
export function uuidv7(now: number = Date.now()): string {
  const b = randomBytes(16);
  // Within one millisecond a 12-bit counter in rand_a keeps the ids of this process ordered.
  if (now <= lastMs) { seq = (seq + 1) & 0xfff; if (seq === 0) lastMs += 1; now = lastMs; } else { lastMs = now; seq = b.readUInt16BE(6) & 0x7ff; }
  b.writeUIntBE(now, 0, 6);
  b[6] = 0x70 | ((seq >> 8) & 0x0f);
  b[7] = seq & 0xff;
  b[8] = (b[8]! & 0x3f) | 0x80;
  return format(hex(b));
}

/** A UUIDv5 (RFC 9562): SHA-1 of the namespace's bytes and the name (UTF-8). */
export function uuidv5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (ns.length !== 16) throw new TypeError(`namespace '${namespace}' is not a UUID`);
  const h = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16);
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  return format(hex(h));
}

/** The RFC 9562 DNS namespace. */
export const NAMESPACE_DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
const RECORDS = uuidv5('records.llm-backend', NAMESPACE_DNS);

/** The id of an event derived from the record at this position (same position → same id, on every replay). */
export const derivedEventId = (topic: string, partition: number, offset: bigint | string): string =>
  uuidv5(`${topic}:${partition}:${offset.toString()}`, RECORDS);
