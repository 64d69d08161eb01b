// A small pool of worker threads running prepareOtlp. Size 0 runs it on the request thread.
// Requests go to the worker with the fewest in flight; a worker that dies is replaced and its
// requests fail (the client gets a 503 and retries: nothing was acknowledged).
import { Worker } from 'node:worker_threads';
import { unavailable } from '@llm/errors';
import { prepareOtlp, type OtlpEncoding, type OtlpScopeMeta, type PreparedOtlp } from '../domain/prepare-otlp.ts';
import { unpackRecords, type PackedRecords } from '../domain/pack-records.ts';

interface Slot {
  worker: Worker;
  inFlight: Map<number, { resolve: (r: PreparedOtlp) => void; reject: (e: Error) => void }>;
}

/** What the worker answers (prepare-otlp-worker.ts): a refusal, the prepared records packed, or its failure. */
export type WorkerAnswer =
  | { id: number; result: Extract<PreparedOtlp, { ok: false }> }
  | { id: number; done: Omit<Extract<PreparedOtlp, { ok: true }>, 'records'>; packed: PackedRecords }
  | { id: number; error: string };

const WORKER_URL = new URL('../../workers/prepare-otlp-worker.mjs', import.meta.url);

export class OtlpWorkerPool {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private closed = false;

  constructor(size: number) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    // Named: the thread shows as `otlp-worker` in /proc (the bench's cost table reads it).
    const worker = new Worker(WORKER_URL, { name: 'otlp-worker' });
    const slot: Slot = { worker, inFlight: new Map() };
    worker.on('message', (m: WorkerAnswer) => {
      const p = slot.inFlight.get(m.id);
      if (!p) return;
      slot.inFlight.delete(m.id);
      if ('done' in m) p.resolve({ ...m.done, records: unpackRecords(m.packed) });
      else if ('result' in m) p.resolve(m.result);
      else p.reject(unavailable('ingest_worker_failed', `The ingest worker failed (${m.error}); retry the request.`));
    });
    worker.on('error', (err) => this.fail(slot, err));
    worker.on('exit', (code) => {
      this.fail(slot, new Error(`ingest worker exited with code ${code}`));
      if (!this.closed) this.slots[this.slots.indexOf(slot)] = this.spawn();
    });
    worker.unref();
    return slot;
  }

  private fail(slot: Slot, err: Error): void {
    for (const p of slot.inFlight.values()) p.reject(unavailable('ingest_worker_failed', 'The ingest worker failed; retry the request.', err));
    slot.inFlight.clear();
  }

  run(body: Uint8Array, meta: OtlpScopeMeta, encoding: OtlpEncoding = 'protobuf'): Promise<PreparedOtlp> {
    if (this.slots.length === 0) return Promise.resolve(prepareOtlp(body, meta, encoding));
    const slot = this.slots.reduce((a, b) => (b.inFlight.size < a.inFlight.size ? b : a));
    const id = this.nextId++;
    return new Promise<PreparedOtlp>((resolve, reject) => {
      slot.inFlight.set(id, { resolve, reject });
      // A body that owns its whole buffer (bodies over 4 KiB are not pooled) moves to the worker
      // instead of being copied; the request thread does not read it again.
      const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer;
      slot.worker.postMessage({ id, body, meta, encoding }, owned ? [body.buffer as ArrayBuffer] : []);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
