// Readiness: the checks /readyz runs, and the flag SIGTERM flips first so load balancers stop
// sending traffic while the requests in flight finish (see health.ts for the endpoints).
import type { RequestHandler } from 'express';

export interface Readiness {
  /** Flipped to false first on SIGTERM so load balancers stop sending traffic. */
  shuttingDown: boolean;
  checks: Array<{ name: string; check: () => Promise<void> }>;
}

export function createReadiness(): Readiness {
  return { shuttingDown: false, checks: [] };
}

/**
 * During the drain window requests are still answered, but each connection is closed after its
 * answer, so keep-alive clients reconnect through the load balancer to a replica that stays.
 */
export function closeOnShutdown(readiness: Readiness): RequestHandler {
  return (_req, res, next) => {
    if (readiness.shuttingDown) res.setHeader('Connection', 'close');
    next();
  };
}
