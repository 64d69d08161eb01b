// Encoded records as three flat values — one buffer of every value's bytes, the keys joined by
// newlines (keys are `<project id>:<trace id>`, never a newline) and each value's end offset — so a
// worker thread moves a whole result to the request thread in one transfer, instead of the
// structured clone of an object, a string and a view per record.
export interface PackedRecords {
  buffer: ArrayBuffer;
  keys: string;
  ends: Uint32Array;
}

export interface EncodedRecord {
  key: string;
  value: Uint8Array;
}

export function packRecords(records: ReadonlyArray<EncodedRecord>): PackedRecords {
  let total = 0;
  for (const r of records) total += r.value.byteLength;
  const bytes = new Uint8Array(total);
  const ends = new Uint32Array(records.length);
  const keys: string[] = [];
  let at = 0;
  records.forEach((r, i) => {
    if (r.key.includes('\n')) throw new Error('a record key holds a newline');
    bytes.set(r.value, at);
    at += r.value.byteLength;
    ends[i] = at;
    keys.push(r.key);
  });
  return { buffer: bytes.buffer, keys: keys.join('\n'), ends };
}

/** The records again, each value a view of the one buffer. */
export function unpackRecords(p: PackedRecords): EncodedRecord[] {
  if (p.ends.length === 0) return [];
  const keys = p.keys.split('\n');
  const out: EncodedRecord[] = new Array(p.ends.length);
  let start = 0;
  for (let i = 0; i < p.ends.length; i++) {
    const end = p.ends[i]!;
    out[i] = { key: keys[i]!, value: new Uint8Array(p.buffer, start, end - start) };
    start = end;
  }
  return out;
}

/** What a transfer of the packed records moves (their buffers are unusable in the sender after it). */
export const transferList = (p: PackedRecords): ArrayBuffer[] => [p.buffer, p.ends.buffer as ArrayBuffer];
