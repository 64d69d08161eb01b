// Attribute keys repeat across spans and requests (`gen_ai.usage.input_tokens` on every LLM span).
// Returning the same string object for the same bytes skips UTF-8 decoding and, more importantly,
// lets V8 reuse the key's cached hash and internalized form on every property store and Map
// lookup downstream, instead of re-hashing a fresh string each time.

const SLOTS = 4096; // power of two; a collision just means one more decode
const MAX_KEY_BYTES = 96;

const slotBytes: Array<Uint8Array | undefined> = new Array<Uint8Array | undefined>(SLOTS).fill(undefined);
const slotStrings: string[] = new Array<string>(SLOTS).fill('');

/** The UTF-8 string in buf[start, end), shared with earlier identical keys when possible. */
export function cachedKey(buf: Buffer, start: number, end: number): string {
  const len = end - start;
  if (len === 0) return '';
  if (len > MAX_KEY_BYTES) return buf.toString('utf8', start, end);
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ (buf[i] as number), 0x01000193);
  const slot = (hash >>> 0) & (SLOTS - 1);
  const known = slotBytes[slot];
  if (known !== undefined && known.length === len) {
    let same = true;
    for (let i = 0; i < len; i++) {
      if (known[i] !== buf[start + i]) {
        same = false;
        break;
      }
    }
    if (same) return slotStrings[slot] as string;
  }
  const key = buf.toString('utf8', start, end);
  slotBytes[slot] = Uint8Array.prototype.slice.call(buf, start, end);
  slotStrings[slot] = key;
  return key;
}
