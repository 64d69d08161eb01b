// Logs under attack stay useful (issue 24): a burst of refused requests — bad credentials,
// forbidden, throttled, overload 503s thrown as errors or answered directly, a store down — writes
// no error line, at most the sampled number of info lines, and every refusal is counted.
import { Writable } from 'node:stream';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, unauthenticated, unavailable } from '@llm/errors';
import { createLogger } from '@llm/logging';
import { renderMetrics } from '@llm/metrics';
import { errorHandler, listen, requestContext, tagRoute, type RunningServer } from '../src/index.ts';

let server: RunningServer | undefined;
afterEach(async () => { await server?.close(0); server = undefined; });

function memoryLog(): { log: ReturnType<typeof createLogger>; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const sink = new Writable({ write(c: Buffer, _e, cb) { chunks.push(c.toString()); cb(); } });
  const log = createLogger({ name: 'refusal-test', level: 'info' }, sink);
  return { log, lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

async function refusedTotal(): Promise<number> {
  const text = await renderMetrics();
  return text.split('\n').filter((l) => l.startsWith('http_requests_refused_total{') && l.includes('route="refusal.test"'))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

describe('refused requests in the log', () => {
  it('when 600 requests are refused with 401, 403, 429 and 503 in every way the services refuse, then no error line is written, at most the sampled lines, and every refusal is counted', async () => {
    const { log, lines } = memoryLog();
    let clock = 1_767_225_600_000;
    const app = express();
    app.use(requestContext(log, { refusals: { perWindow: 10, windowMs: 10_000, now: () => clock } }));
    const kinds = [
      () => unauthenticated(),
      () => new AppError({ code: 'forbidden', kind: 'forbidden', message: 'Forbidden.' }),
      () => new AppError({ code: 'over_quota', kind: 'rate_limited', message: 'Too many.' }),
      () => unavailable('ingest_lag', 'The span projector is behind; retry shortly.'),
      () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ];
    app.get('/refuse/:n', tagRoute('refusal.test'), (req, res) => {
      const n = Number(req.params.n);
      if (n % 7 === 5) { res.status(503).set('Retry-After', '1').type('application/x-protobuf').send(Buffer.from([8, 14])); return; } // the OTLP overload answer
      if (n % 7 === 6) { res.status(429).json({ detail: 'Rate limit exceeded.' }); return; } // the throttle's answer
      throw kinds[n % 7]!();
    });
    app.get('/bug', () => { throw new TypeError('a bug'); });
    app.use(errorHandler());
    server = await listen(app, 0, '127.0.0.1');
    const base = `http://127.0.0.1:${server.port}`;
    const before = await refusedTotal();

    const statuses: number[] = [];
    for (let i = 0; i < 600; i += 50) {
      statuses.push(...await Promise.all(Array.from({ length: 50 }, (_, k) => fetch(`${base}/refuse/${i + k}`).then(async (r) => { await r.arrayBuffer(); return r.status; }))));
    }
    expect(new Set(statuses)).toEqual(new Set([401, 403, 429, 503]));
    const during = lines();
    expect(during.filter((l) => Number(l.level) >= 50)).toEqual([]);
    expect(during.filter((l) => Number(l.level) >= 40)).toEqual([]);
    expect(during).toHaveLength(10);
    expect(during[0]).toMatchObject({ level: 30, msg: 'request refused', route: 'refusal.test', method: 'GET' });
    expect(during.some((l) => l.reason === 'ingest_lag')).toBe(true);
    expect(await refusedTotal()).toBe(before + 600);

    // The next window's first line says how many were left out.
    clock += 10_000;
    await fetch(`${base}/refuse/0`).then((r) => r.arrayBuffer());
    const next = lines().slice(10);
    expect(next).toHaveLength(1);
    const notLogged = next[0]!.refusals_not_logged as Record<string, number>;
    expect(Object.values(notLogged).reduce((a, b) => a + b, 0)).toBe(590);

    // A server error is still one error line each.
    expect((await fetch(`${base}/bug`)).status).toBe(500);
    expect(lines().filter((l) => Number(l.level) >= 50).length).toBeGreaterThanOrEqual(1);
  });
});
