// The sender: claims due deliveries from the schedule and attempts them, at most `concurrency` at
// once in this process and at most `perSubscription` per subscription, so a slow or dead receiver
// occupies only its own slots: the other subscriptions' deliveries (and the fan-out consumer,
// which never sends) go on. It wakes when the fan-out scheduled something, when a slot frees, and
// when the next retry falls due; otherwise it looks every `pollMs` (other replicas' fan-outs).
import { randomUUID } from 'node:crypto';
import type { Logger } from '@llm/logging';
import type { Pool } from '@llm/postgres';
import { scheduleStore, type Task } from '../schedule/schedule-store.ts';
import { attemptDelivery, type AttemptDeps } from './attempt.ts';

export interface SenderOptions {
  concurrency: number;
  perSubscription: number;
  /** A claim's lease; longer than an attempt can take. */
  leaseMs: number;
  /** Longest sleep between looks at the schedule. */
  pollMs: number;
}

export interface Sender {
  start(): void;
  /** Stops claiming and waits for the attempts in flight (each bounded by the request timeout). */
  stop(): Promise<void>;
  /** Something was scheduled: look now. */
  wake(): void;
}

export function createSender(deps: Omit<AttemptDeps, 'owner' | 'store' | 'leaseMs'> & { pool: Pool; log: Logger }, opts: SenderOptions): Sender {
  const log = deps.log.child({ component: 'webhook-sender' });
  const owner = `${process.pid}:${randomUUID()}`;
  const store = scheduleStore(deps.pool);
  const attemptDeps: AttemptDeps = { ...deps, log, owner, store, leaseMs: opts.leaseMs };
  const inFlight = new Map<string, number>();
  // Deliveries being worked on here: never claimed again by this process, even if a slow record
  // let their lease run out.
  const inFlightIds = new Set<string>();
  const running = new Set<Promise<void>>();
  let stopped = true;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let woken = false;

  const wake = (): void => { woken = true; wakeUp?.(); };
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => {
    if (woken) { woken = false; resolve(); return; }
    const t = setTimeout(() => { wakeUp = undefined; resolve(); }, ms);
    wakeUp = () => { clearTimeout(t); wakeUp = undefined; woken = false; resolve(); };
  });

  function launch(task: Task): void {
    inFlight.set(task.subscriptionId, (inFlight.get(task.subscriptionId) ?? 0) + 1);
    inFlightIds.add(task.deliveryId);
    const p = attemptDelivery(attemptDeps, task).finally(() => {
      inFlightIds.delete(task.deliveryId);
      const n = (inFlight.get(task.subscriptionId) ?? 1) - 1;
      if (n <= 0) inFlight.delete(task.subscriptionId); else inFlight.set(task.subscriptionId, n);
      running.delete(p);
      wake();
    });
    running.add(p);
  }

  async function run(): Promise<void> {
    let failures = 0;
    while (!stopped) {
      try {
        const free = opts.concurrency - running.size;
        const tasks = free > 0
          ? await store.claim({ limit: free, perSubscription: opts.perSubscription, inFlight, exclude: inFlightIds, leaseMs: opts.leaseMs, owner })
          : [];
        failures = 0;
        // Launched even when stopping meanwhile: stop() waits for them, rather than leaving the
        // rows leased until the lease runs out.
        for (const t of tasks) launch(t);
        if (tasks.length > 0 && tasks.length === free) continue;
        const next = await store.nextDueInMs(inFlight, opts.perSubscription);
        // Rows due now that could not be claimed (their subscription is at its limit here, or
        // another replica is claiming them): only a freed slot (which wakes the loop) or another
        // look changes that, so no spinning; otherwise sleep until the next row falls due.
        const wait = next === undefined || (tasks.length === 0 && next === 0) ? opts.pollMs : Math.min(opts.pollMs, Math.max(next, 5));
        await sleep(wait);
      } catch (err) {
        failures++;
        log.error({ err, failures }, 'webhook schedule unavailable; retrying');
        await sleep(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)));
      }
    }
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      loop = run();
    },
    async stop() {
      stopped = true;
      wake();
      await loop;
      await Promise.allSettled([...running]);
    },
    wake,
  };
}
