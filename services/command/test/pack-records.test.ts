import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { packRecords, transferList, unpackRecords, type PackedRecords } from '../src/ingest/domain/pack-records.ts';

const records = [
  { key: 'p:a', value: new Uint8Array([1, 2, 3]) },
  { key: 'p:b', value: new Uint8Array([]) },
  { key: 'p:c', value: Buffer.from('xyz') },
];

describe('packRecords / unpackRecords', () => {
  it('when records are packed and unpacked, then each key and value reads back byte for byte, the values views of one buffer', () => {
    const packed = packRecords(records);
    expect(packed.buffer.byteLength).toBe(6);
    const back = unpackRecords(packed);
    expect(back.map((r) => r.key)).toEqual(['p:a', 'p:b', 'p:c']);
    expect(back.map((r) => [...r.value])).toEqual(records.map((r) => [...r.value]));
    expect(back.every((r) => r.value.buffer === packed.buffer)).toBe(true);
    expect(unpackRecords(packRecords([]))).toEqual([]);
  });

  it('when a key holds a newline, then packing refuses it (keys are joined by newlines)', () => {
    expect(() => packRecords([{ key: 'a\nb', value: new Uint8Array([1]) }])).toThrow(/newline/);
  });

  it('when the packed records are moved to another thread, then they arrive whole and leave the sender', async () => {
    const packed = packRecords(records);
    const { port1, port2 } = new MessageChannel();
    const got = new Promise<PackedRecords>((resolve) => port2.once('message', resolve));
    port1.postMessage(packed, transferList(packed));
    const arrived = await got;
    port1.close(); port2.close();
    expect(unpackRecords(arrived).map((r) => [r.key, [...r.value]])).toEqual(records.map((r) => [r.key, [...r.value]]));
    expect(packed.buffer.byteLength).toBe(0); // moved, not copied
  });
});
