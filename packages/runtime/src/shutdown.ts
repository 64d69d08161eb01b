// Graceful shutdown in the house order: readiness 503 → drain window → stop accepting and let the
// requests in flight finish → stop consuming → flush writers → commit → close clients. Each step is
// bounded; a second signal exits at once.
import type { Logger } from '@llm/logging';

export type ShutdownStep = { name: string; run: () => Promise<void>; /** Overrides the default bound of a step. */ timeoutMs?: number };

export async function runShutdown(steps: ShutdownStep[], log: Logger, stepTimeoutMs = 15_000): Promise<void> {
  for (const s of steps) {
    const t0 = Date.now();
    try {
      await Promise.race([s.run(), new Promise((_, rej) => setTimeout(() => rej(new Error('timed out')), s.timeoutMs ?? stepTimeoutMs).unref())]);
      log.info({ step: s.name, ms: Date.now() - t0 }, 'shutdown step done');
    } catch (err) {
      log.error({ err, step: s.name }, 'shutdown step failed');
    }
  }
}

/** What the HTTP steps need (structural: the shapes of @llm/http's Readiness and RunningServer). */
export interface DrainableHttp {
  readiness: { shuttingDown: boolean };
  server: { close(graceMs?: number): Promise<void>; inFlight(): number };
  /** How long requests are still served after readiness turned 503 (SHUTDOWN_DRAIN_MS). */
  drainMs: number;
  /** How long requests in flight may take to finish once the server stops accepting (SHUTDOWN_GRACE_MS). */
  graceMs: number;
}

/**
 * The first steps of every HTTP entry's shutdown. Readiness answers 503 at once, but the server
 * keeps answering old and new requests for the drain window: load balancers act on readiness
 * seconds later, and requests they still send must not meet a closed port. Then the server stops
 * accepting and the requests in flight finish — before the caller's later steps stop projectors and
 * the producer, which those requests (an account write waits for its projection) still need.
 */
export function httpShutdownSteps(h: DrainableHttp, log: Logger): ShutdownStep[] {
  return [
    { name: 'readiness', run: async () => { h.readiness.shuttingDown = true; } },
    {
      name: 'drain window', timeoutMs: h.drainMs + 1_000,
      run: async () => {
        if (h.drainMs > 0) log.info({ ms: h.drainMs }, 'readiness 503; still serving during the drain window');
        await new Promise((r) => setTimeout(r, h.drainMs));
      },
    },
    {
      name: 'http', timeoutMs: h.graceMs + 5_000,
      run: async () => {
        const inFlight = h.server.inFlight();
        if (inFlight > 0) log.info({ in_flight: inFlight, grace_ms: h.graceMs }, 'no longer accepting; waiting for requests in flight');
        await h.server.close(h.graceMs);
      },
    },
  ];
}

export function onSignals(stop: () => Promise<void>, log: Logger): void {
  let stopping = false;
  const handler = (sig: string): void => {
    if (stopping) { log.warn({ sig }, 'second signal: exiting now'); process.exit(1); }
    stopping = true;
    log.info({ sig }, 'shutting down');
    stop().then(() => process.exit(0), (err) => { log.error({ err }, 'shutdown failed'); process.exit(1); });
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
  process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled rejection'));
}
