// Worker-thread entry: runs prepareOtlp off the request thread (decode, adapt, normalise, encode are
// the CPU-heavy part of ingest; the request thread keeps HTTP, Kafka and, in the all-in-one, the
// projectors).
import { parentPort } from 'node:worker_threads';
import { prepareOtlp, type OtlpScopeMeta } from '../domain/prepare-otlp.ts';
import { packRecords } from '../domain/pack-records.ts';

parentPort!.on('message', (msg: { id: number; body: Uint8Array; meta: OtlpScopeMeta }) => {
  try {
    const result = prepareOtlp(msg.body, msg.meta);
    if (!result.ok) { parentPort!.postMessage({ id: msg.id, result }); return; }
    // The records' bytes go back in one buffer that is moved, not cloned record by record.
    const packed = packRecords(result.records);
    parentPort!.postMessage({ id: msg.id, result: { ...result, records: packed.records } }, [packed.buffer]);
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, error: (err as Error).message });
  }
});
