import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@llm/logging';
import { createHttpApp, createReadiness, listen, type RunningServer } from '@llm/http';

let server: RunningServer | undefined;
afterEach(async () => { await server?.close(); server = undefined; });

describe('health', () => {
  it('when the process is shutting down, then /readyz answers 503 while /healthz stays 200', async () => {
    const readiness = createReadiness();
    server = await listen(createHttpApp({ log: createLogger({ name: 't', level: 'silent' }), readiness, jsonLimitBytes: 1024 }, []), 0, '127.0.0.1');
    const base = `http://127.0.0.1:${server.port}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    readiness.shuttingDown = true;
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    expect((await fetch(`${base}/api/healthz`)).status).toBe(200);
  });

  it('when a dependency check fails, then /readyz names it', async () => {
    const readiness = createReadiness();
    readiness.checks.push({ name: 'db', check: async () => { throw new Error('down'); } });
    server = await listen(createHttpApp({ log: createLogger({ name: 't', level: 'silent' }), readiness, jsonLimitBytes: 1024 }, []), 0, '127.0.0.1');
    const r = await fetch(`http://127.0.0.1:${server.port}/readyz`);
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({ status: 'not_ready', failed: ['db'] });
  });

  it('when the JSON body is malformed or too large, then 422 and 413', async () => {
    server = await listen(createHttpApp({ log: createLogger({ name: 't', level: 'silent' }), readiness: createReadiness(), jsonLimitBytes: 64 }, []), 0, '127.0.0.1');
    const base = `http://127.0.0.1:${server.port}`;
    const bad = await fetch(`${base}/anything`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: Array<{ type: string }> }).detail[0]!.type).toBe('json_invalid');
    const big = await fetch(`${base}/anything`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ a: 'x'.repeat(200) }) });
    expect(big.status).toBe(413);
  });
});
