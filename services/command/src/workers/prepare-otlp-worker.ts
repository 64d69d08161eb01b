// Worker-thread entry: runs prepareOtlp off the request thread (decode, adapt, normalise, encode are
// the CPU-heavy part of ingest; the request thread keeps HTTP, Kafka and, in the all-in-one, the
// projectors).
import { parentPort } from 'node:worker_threads';
import { prepareOtlp, type OtlpEncoding, type OtlpScopeMeta } from '../ingest/domain/prepare-otlp.ts';
import { packRecords, transferList } from '../ingest/domain/pack-records.ts';
import type { WorkerAnswer } from '../ingest/adapters/otlp-worker-pool.ts';

const answer = (m: WorkerAnswer, transfer: ArrayBuffer[] = []): void => parentPort!.postMessage(m, transfer);

parentPort!.on('message', (msg: { id: number; body: Uint8Array; meta: OtlpScopeMeta; encoding: OtlpEncoding }) => {
  try {
    const result = prepareOtlp(msg.body, msg.meta, msg.encoding);
    if (!result.ok) { answer({ id: msg.id, result }); return; }
    // The records go back as flat values that are moved, not cloned record by record.
    const { records, ...done } = result;
    const packed = packRecords(records);
    answer({ id: msg.id, done, packed }, transferList(packed));
  } catch (err) {
    answer({ id: msg.id, error: (err as Error).message });
  }
});
