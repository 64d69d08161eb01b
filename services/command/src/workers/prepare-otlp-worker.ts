// Worker-thread entry: runs prepareOtlp off the request thread (decode, adapt, normalise, encode are
// the CPU-heavy part of ingest; the request thread keeps HTTP, Kafka and, in the all-in-one, the
// projectors).
import { parentPort } from 'node:worker_threads';
import { prepareOtlp, type OtlpScopeMeta } from '../domain/prepare-otlp.ts';

parentPort!.on('message', (msg: { id: number; body: Uint8Array; meta: OtlpScopeMeta }) => {
  try {
    parentPort!.postMessage({ id: msg.id, result: prepareOtlp(msg.body, msg.meta) });
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, error: (err as Error).message });
  }
});
