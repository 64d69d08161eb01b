// Encoded records copied into one buffer, each value a view of it: a worker thread can then move
// the whole result to the request thread in one transfer instead of cloning every record.
export interface PackedRecords {
  buffer: ArrayBuffer;
  records: Array<{ key: string; value: Uint8Array }>;
}

export function packRecords(records: ReadonlyArray<{ key: string; value: Uint8Array }>): PackedRecords {
  let total = 0;
  for (const r of records) total += r.value.byteLength;
  const buffer = new ArrayBuffer(total);
  const out: PackedRecords['records'] = [];
  let at = 0;
  for (const r of records) {
    const view = new Uint8Array(buffer, at, r.value.byteLength);
    view.set(r.value);
    out.push({ key: r.key, value: view });
    at += r.value.byteLength;
  }
  return { buffer, records: out };
}
