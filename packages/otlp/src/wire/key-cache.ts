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
  // FNV-style mixing four bytes at a time: the full key feeds the slot, so indexed keys
  // (`llm.input_messages.0…` / `.1…`) do not fight over one slot.
  let hash = len;
  let i = start;
  for (; i + 4 <= end; i += 4) {
    const word = (buf[i] as number) | ((buf[i + 1] as number) << 8) | ((buf[i + 2] as number) << 16) | ((buf[i + 3] as number) << 24);
    hash = Math.imul(hash ^ word, 0x01000193);
  }
  for (; i < end; i++) hash = Math.imul(hash ^ (buf[i] as number), 0x01000193);
  const slot = ((hash ^ (hash >>> 15)) >>> 0) & (SLOTS - 1);
  const known = slotBytes[slot];
  if (known !== undefined && known.length === len) {
    // Compared in full: the cache is shared by all clients, and a hash match alone would let one
    // client's crafted key be read back as another's.
    let j = 0;
    while (j < len && known[j] === buf[start + j]) j++;
    if (j === len) return slotStrings[slot] as string;
  }
  const key = buf.toString('utf8', start, end);
  slotBytes[slot] = Uint8Array.prototype.slice.call(buf, start, end);
  slotStrings[slot] = key;
  return key;
}
