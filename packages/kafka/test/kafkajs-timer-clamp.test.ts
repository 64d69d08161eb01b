// kafkajs' request queue set its idle timer at `throttledUntil - Date.now()` with throttledUntil = -1,
// a delay of about -1.7e12 ms that Node >= 23 reports as a TimeoutNegativeWarning (and that Node runs
// after 1 ms, again and again). The clamp fixes the computation; these tests watch the timers the
// queue sets, and the warning in a fresh process.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clampKafkajsTimers } from '../src/kafkajs-timer-clamp.mjs';

const require = createRequire(import.meta.url);
interface Queue { pending: unknown[]; throttledUntil: number; throttleCheckTimeoutId: NodeJS.Timeout | null; scheduleCheckPendingRequests(): void }
const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as new (o: Record<string, unknown>) => Queue;
const newQueue = (): Queue => new RequestQueue({
  instrumentationEmitter: null, maxInFlightRequests: 1, requestTimeout: 30_000, enforceRequestTimeout: true, clientId: 'test', broker: 'localhost:0',
  logger: { debug() {}, info() {}, warn() {}, error() {} }, isConnected: () => true,
});

const clampScript = path.join(import.meta.dirname, '../src/kafkajs-timer-clamp.mjs');
const queueScript = require.resolve('kafkajs/src/network/requestQueue/index.js');
/** A fresh node that schedules one idle check of a new queue, with or without the clamp; its stderr. */
function warningsOfFreshProcess(clamped: boolean): string {
  const code = `
    import { createRequire } from 'node:module';
    ${clamped ? `(await import(${JSON.stringify(clampScript)})).clampKafkajsTimers();` : ''}
    const RequestQueue = createRequire(import.meta.url)(${JSON.stringify(queueScript)});
    const q = new RequestQueue({ maxInFlightRequests: 1, requestTimeout: 30000, clientId: 't', broker: 'b', logger: { debug() {} }, isConnected: () => true });
    q.scheduleCheckPendingRequests();
    setTimeout(() => q.destroy(), 20);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  expect(r.status).toBe(0);
  return r.stderr;
}

/** The delays of the timers set from now until the test ends. */
function recordTimers(): number[] {
  const delays: number[] = [];
  const real = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => { delays.push(ms ?? 0); return real(fn, ms); }) as typeof setTimeout);
  return delays;
}

afterEach(() => { vi.restoreAllMocks(); });

describe('the kafkajs timer clamp', () => {
  it('when the installed kafkajs is the one the clamp knows, then it is applied', () => {
    expect(clampKafkajsTimers()).toBe(true);
    expect(clampKafkajsTimers()).toBe(true);
  });

  it('when a queue is idle with no broker throttle, then it sets no timer (the next request schedules its own check)', () => {
    clampKafkajsTimers();
    const delays = recordTimers();
    const q = newQueue();
    q.scheduleCheckPendingRequests();
    expect(delays).toEqual([]);
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('when requests wait and no broker throttles, then the next check is in 10 ms, as before', () => {
    clampKafkajsTimers();
    const delays = recordTimers();
    const q = newQueue();
    q.pending.push({});
    q.scheduleCheckPendingRequests();
    clearTimeout(q.throttleCheckTimeoutId!);
    expect(delays).toEqual([10]);
  });

  it('when a broker throttles the queue, then the check waits until the throttle ends', () => {
    clampKafkajsTimers();
    const delays = recordTimers();
    const q = newQueue();
    q.throttledUntil = Date.now() + 60_000;
    q.pending.push({});
    q.scheduleCheckPendingRequests();
    clearTimeout(q.throttleCheckTimeoutId!);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThan(50_000);
  });

  // Node reports negative timers from 23 on.
  it.runIf(Number(process.versions.node.split('.')[0]) >= 23)('when a fresh process schedules an idle check, then Node warns without the clamp and not with it', () => {
    expect(warningsOfFreshProcess(false)).toContain('TimeoutNegativeWarning');
    expect(warningsOfFreshProcess(true)).not.toContain('TimeoutNegativeWarning');
  });
});
