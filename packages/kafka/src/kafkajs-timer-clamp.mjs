// kafkajs 2.2 computes the delay of its request queue's next check as `throttledUntil - Date.now()`,
// and `throttledUntil` starts at -1: whenever the queue is idle with no broker throttle, the timer is
// set about -1.7e12 ms out. Node runs it after 1 ms (and Node >= 23 prints a TimeoutNegativeWarning),
// the check finds nothing, schedules itself again: a 1 ms poll for as long as the connection lives.
// This replaces that one method with the same decision taken on a delay that cannot go negative: a
// throttled queue is checked when the throttle ends, a queue with requests waiting after 10 ms (both
// as before), and an idle, unthrottled one not at all — the next request enqueued schedules its own
// check, as it always did. Plain JavaScript, so the local stack scripts (deploy/local/kafka.mjs, run
// before any TypeScript loader) apply the same fix as the kafkajs client of packages/kafka.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// kafkajs/src/network/requestQueue/index.js
const CHECK_PENDING_REQUESTS_INTERVAL = 10;
const CLAMPED = Symbol.for('llm.kafkajs.timer-clamp');

/**
 * Applies the clamp to kafkajs' request queue (idempotent). Returns whether the method is clamped:
 * false when the installed kafkajs no longer computes the delay this way (left as it is).
 */
export function clampKafkajsTimers() {
  const RequestQueue = require('kafkajs/src/network/requestQueue/index.js');
  const proto = RequestQueue.prototype;
  if (proto[CLAMPED]) return true;
  if (!String(proto.scheduleCheckPendingRequests).includes('this.throttledUntil - Date.now()')) return false;
  proto.scheduleCheckPendingRequests = function scheduleCheckPendingRequests() {
    if (this.throttleCheckTimeoutId) return;
    const throttledFor = Math.max(0, this.throttledUntil - Date.now());
    if (throttledFor === 0 && this.pending.length === 0) return;
    this.throttleCheckTimeoutId = setTimeout(() => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    }, throttledFor > 0 ? throttledFor : CHECK_PENDING_REQUESTS_INTERVAL);
  };
  proto[CLAMPED] = true;
  return true;
}
