import express from 'express';
import { describe, expect, it } from 'vitest';
import { closeOnShutdown, createManagementApp, createReadiness, listen } from '@llm/http';
import { createLogger } from '@llm/logging';
import { httpShutdownSteps, runShutdown } from '../src/shutdown.ts';

// Behaviour only: what is answered, refused, cut or closed, and in which order. How long each step
// takes is measured by test/bench/bounded-work.bench.ts (wall-clock bounds fail on a loaded machine).

const log = createLogger({ name: 'shutdown-test', level: 'silent' });

/** An app with a request that answers only when the test lets it (a write waiting for its projection). */
async function serverWithGate() {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const readiness = createReadiness();
  const app = express();
  app.use(closeOnShutdown(readiness));
  app.get('/slow', async (_req, res) => { await gate; res.json({ api_key: 'projected' }); });
  app.get('/fast', (_req, res) => { res.json({ ok: true }); });
  // The management endpoints on the same listener here, so one server shows both sides of the drain.
  app.use(createManagementApp(readiness));
  const server = await listen(app, 0, '127.0.0.1');
  return { readiness, server, release, base: `http://127.0.0.1:${server.port}` };
}

async function until(cond: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const refused = (url: string): Promise<boolean> => fetch(url).then(() => false, () => true);

describe('http shutdown', () => {
  it('when SIGTERM comes with a request in flight, then /readyz is 503 at once, new requests are still served during the drain window, and the request in flight gets its normal answer before the server closes', async () => {
    const { readiness, server, release, base } = await serverWithGate();
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const inFlight = fetch(`${base}/slow`);
    await until(() => server.inFlight() === 1);

    let closed = false;
    // A drain window long enough for the checks inside it, however slow the machine.
    const shutdown = runShutdown(httpShutdownSteps({ readiness, server, drainMs: 3_000, graceMs: 10_000 }, log), log).then(() => { closed = true; });

    // Drain window: not ready, yet still answering (load balancers act on readiness later).
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'shutting_down' });
    const fresh = await fetch(`${base}/fast`);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('connection')).toBe('close');
    expect(closed).toBe(false);

    // After the window: no new connections, but the request in flight keeps the server open.
    await until(() => refused(`${base}/fast`), 15_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(false);
    expect(server.inFlight()).toBe(1);

    release();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ api_key: 'projected' });
    await shutdown;
    expect(closed).toBe(true);
    // The response's own 'close' may come a tick after the server's.
    await until(() => server.inFlight() === 0, 2_000);
  });

  it('when a request in flight outlasts the grace period, then its connection is cut and shutdown still completes', async () => {
    const { readiness, server, base } = await serverWithGate();
    const stuck = fetch(`${base}/slow`).then(() => 'answered', () => 'cut');
    await until(() => server.inFlight() === 1);
    // Completes (this test would time out otherwise) while the request still hangs: it was cut.
    await runShutdown(httpShutdownSteps({ readiness, server, drainMs: 0, graceMs: 200 }, log), log);
    expect(await stuck).toBe('cut');
    expect(await refused(`${base}/fast`)).toBe(true);
  });

  it('when nothing is in flight and the drain window is 0, then the server closes at once, idle keep-alive connections included', async () => {
    const { readiness, server, base } = await serverWithGate();
    expect((await fetch(`${base}/fast`)).status).toBe(200); // leaves an idle keep-alive connection
    // A grace far beyond this test's timeout: waiting on the idle connection would fail the test.
    await runShutdown(httpShutdownSteps({ readiness, server, drainMs: 0, graceMs: 3_600_000 }, log), log);
    expect(await refused(`${base}/fast`)).toBe(true);
  });
});
