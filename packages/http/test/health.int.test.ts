import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@llm/logging';
import { createHttpApp, createReadiness, listen, listenManagement, type RunningServer } from '@llm/http';

const servers: RunningServer[] = [];
afterEach(async () => { await Promise.all(servers.splice(0).map((s) => s.close())); });
const started = (s: RunningServer): string => { servers.push(s); return `http://127.0.0.1:${s.port}`; };

describe('health', () => {
  it('when the process is shutting down, then /readyz answers 503 while /healthz stays 200, and the API closes each connection after its answer', async () => {
    const readiness = createReadiness();
    const management = started(await listenManagement(readiness, 0, '127.0.0.1'));
    const api = started(await listen(createHttpApp({ log: createLogger({ name: 't', level: 'silent' }), readiness, jsonLimitBytes: 1024 }, []), 0, '127.0.0.1'));
    expect((await fetch(`${management}/readyz`)).status).toBe(200);
    readiness.shuttingDown = true;
    expect((await fetch(`${management}/readyz`)).status).toBe(503);
    expect((await fetch(`${management}/healthz`)).status).toBe(200);
    expect((await fetch(`${api}/nothing`)).headers.get('connection')).toBe('close');
  });

  it('when a dependency check fails, then /readyz names it', async () => {
    const readiness = createReadiness();
    readiness.checks.push({ name: 'db', check: async () => { throw new Error('down'); } });
    const r = await fetch(`${started(await listenManagement(readiness, 0, '127.0.0.1'))}/readyz`);
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({ status: 'not_ready', failed: ['db'] });
  });

  it('when /healthz, /readyz or /metrics is asked on the API listener, then it is 404: they are served on the management listener only', async () => {
    const readiness = createReadiness();
    const api = started(await listen(createHttpApp({ log: createLogger({ name: 't', level: 'silent' }), readiness, jsonLimitBytes: 1024 }, []), 0, '127.0.0.1'));
    const management = started(await listenManagement(readiness, 0, '127.0.0.1'));
    for (const path of ['/healthz', '/readyz', '/metrics', '/api/metrics']) expect((await fetch(`${api}${path}`)).status, path).toBe(404);
    const metrics = await fetch(`${management}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await metrics.text()).toMatch(/^# HELP /m);
    expect((await fetch(`${management}/anything`)).status).toBe(404);
  });

  it('when the JSON body is malformed or too large, then 422 and 413', async () => {
    const base = started(await listen(createHttpApp({ log: createLogger({ name: 't', level: 'silent' }), readiness: createReadiness(), jsonLimitBytes: 64 }, []), 0, '127.0.0.1'));
    const bad = await fetch(`${base}/anything`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: Array<{ type: string }> }).detail[0]!.type).toBe('json_invalid');
    const big = await fetch(`${base}/anything`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ a: 'x'.repeat(200) }) });
    expect(big.status).toBe(413);
  });
});
