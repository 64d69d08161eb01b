import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { packRecords } from '../src/domain/pack-records.ts';

describe('packRecords', () => {
  it('when records are packed, then each value reads back byte for byte from one shared buffer', () => {
    const records = [{ key: 'a', value: new Uint8Array([1, 2, 3]) }, { key: 'b', value: new Uint8Array([]) }, { key: 'c', value: Buffer.from('xyz') }];
    const packed = packRecords(records);
    expect(packed.buffer.byteLength).toBe(6);
    expect(packed.records.map((r) => r.key)).toEqual(['a', 'b', 'c']);
    expect(packed.records.map((r) => [...r.value])).toEqual(records.map((r) => [...r.value]));
    expect(packed.records.every((r) => r.value.buffer === packed.buffer)).toBe(true);
  });

  it('when the packed buffer is moved to another thread, then the views travel with it', () => {
    const packed = packRecords([{ key: 'k', value: new Uint8Array([9, 8]) }]);
    const { port1, port2 } = new MessageChannel();
    return new Promise<void>((resolve) => {
      port2.once('message', (data: { records: Array<{ value: Uint8Array }> }) => {
        expect([...data.records[0]!.value]).toEqual([9, 8]);
        expect(packed.buffer.byteLength).toBe(0); // moved, not copied
        port1.close(); port2.close();
        resolve();
      });
      port1.postMessage({ records: packed.records }, [packed.buffer]);
    });
  });
});
