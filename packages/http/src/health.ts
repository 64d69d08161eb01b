// The operations endpoints, on a listener of their own (MANAGEMENT_PORT), never on the public API
// port: /healthz (process alive), /readyz (dependencies up and not shutting down) and /metrics
// (Prometheus: process, route and tenant-shaped labels that only the operator's scraper should see).
// The API port keeps GET /health (the reference's check) and the OTLP liveness probe.
import express, { type Express } from 'express';
import { METRICS_CONTENT_TYPE, renderMetrics } from '@llm/metrics';
import { listen, type RunningServer } from './http-app.ts';
import { closeOnShutdown, type Readiness } from './readiness.ts';

/** The management app: /healthz, /readyz and /metrics, and a JSON 404 for anything else. */
export function createManagementApp(readiness: Readiness): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(closeOnShutdown(readiness));
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
  app.use((_req, res) => { res.status(404).json({ detail: 'Not Found' }); });
  return app;
}

/**
 * Starts the management listener. It stays up through the drain window (so /readyz shows 503 to
 * the load balancer) and is closed last, after the API's listener and the consumers.
 */
export function listenManagement(readiness: Readiness, port: number, host: string): Promise<RunningServer> {
  return listen(createManagementApp(readiness), port, host);
}

