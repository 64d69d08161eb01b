// /healthz (process alive) and /readyz (dependencies up and not shutting down).
import type { Express } from 'express';
import { METRICS_CONTENT_TYPE, renderMetrics } from '@llm/metrics';

export interface Readiness {
  /** Flipped to false first on SIGTERM so load balancers stop sending traffic. */
  shuttingDown: boolean;
  checks: Array<{ name: string; check: () => Promise<void> }>;
}

export function createReadiness(): Readiness {
  return { shuttingDown: false, checks: [] };
}

export function mountHealth(app: Express, readiness: Readiness): void {
  // During the drain window requests are still answered, but each connection is closed after its
  // answer, so keep-alive clients reconnect through the load balancer to a replica that stays.
  app.use((_req, res, next) => {
    if (readiness.shuttingDown) res.setHeader('Connection', 'close');
    next();
  });
  app.get('/healthz', (_req, res) => { res.json({ status: 'ok' }); });
  app.get('/metrics', async (_req, res) => {
    // Collectors may ask Kafka (consumer lag); they bound their own wait, so a scrape always answers.
    try { res.setHeader('Content-Type', METRICS_CONTENT_TYPE); res.send(await renderMetrics()); } catch { res.status(500).type('text/plain').send('metrics unavailable\n'); }
  });
  app.get('/readyz', async (_req, res) => {
    if (readiness.shuttingDown) { res.status(503).json({ status: 'shutting_down' }); return; }
    const failed: string[] = [];
    await Promise.all(readiness.checks.map(async (c) => {
      try { await c.check(); } catch { failed.push(c.name); }
    }));
    if (failed.length) res.status(503).json({ status: 'not_ready', failed });
    else res.json({ status: 'ready' });
  });
}
