// node --import tsx test/bench/bounded-work.bench.ts [-- --runs 5]: how long the bounded-work paths
// take — the timings the unit and integration tests used to assert, which failed for the wrong
// reason on a loaded machine. The tests keep the behaviour (what is refused, cut, aborted or
// closed, and how much of the input is read); this prints the figures, median and worst of a few
// runs, beside the figure each path was designed for. Nothing is asserted: read them, compare runs.
//
//   canonical JSON length  a 60 MB document measured against a 1 KiB limit          design: < 100 ms
//   payload budget         9,000 leaves copying a 40 KB context / 2,000 copying 1 MB  design: < 1 s each
//   JSONPath descent       `$..i` over 300,000 items (visit budget)                   design: < 2 s
//   test delivery          a draft resolving to hundreds of MiB, refused              design: < 2 s
//   send timeout           a receiver that never answers, timeoutMs 300               design: < 3 s
//   HTTP shutdown          readiness 503 after SIGTERM; drain window (1.5 s) end;     design: < 1.5 s; ≈ 1.5 s;
//                          grace cut (200 ms); idle keep-alive close (drain 0)                < 2 s; < 500 ms
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import express from 'express';
import { topicsFor } from '@llm/events';
import { closeOnShutdown, createManagementApp, createReadiness, listen } from '@llm/http';
import type { Producer } from '@llm/kafka';
import { createLogger } from '@llm/logging';
import { createOutboundClient, type OutboundClient } from '@llm/outbound';
import type { Pool } from '@llm/postgres';
import { httpShutdownSteps, runShutdown } from '@llm/runtime';
import { canonicalJsonLength, jsonPath, prepareDelivery, resolvePayload, sendDelivery } from '@llm/webhooks';
import { testDelivery } from '../../services/command/src/webhooks/adapters/webhook-test-delivery.ts';

const { values: opt } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Math.max(1, Number(opt.runs));
const log = createLogger({ name: 'bench', level: 'silent' });

const rows: Array<{ path: string; design: string; median: string; worst: string }> = [];
async function measure(path: string, design: string, f: () => unknown): Promise<void> {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  rows.push({ path, design, median: `${ms[Math.floor(ms.length / 2)]!.toFixed(1)} ms`, worst: `${ms[ms.length - 1]!.toFixed(1)} ms` });
  console.error(`  ${path}: done`);
}
const refusedWith = (f: () => unknown): void => {
  try { f(); } catch { return; }
  throw new Error('expected a refusal');
};

// Payload side (packages/webhooks).
const huge = { list: Array.from({ length: 1_000_000 }, (_, i) => ({ i })), text: 'x'.repeat(50_000_000) };
await measure('canonicalJsonLength, 60 MB vs 1 KiB', '< 100 ms', () => canonicalJsonLength(huge, 1024));
const big = {
  event: { event_id: 'e1', event_type: 'traces.queried', attributes: { ids: Array.from({ length: 1000 }, (_, i) => `0190a5b2-7c3e-7a10-8000-${String(i).padStart(12, '0')}`) } },
  subscription: { id: 's1', name: null, tags: null, meta: null },
  scope: { project_id: 'p1' },
};
const everything = Object.fromEntries(Array.from({ length: 9000 }, (_, i) => [`k${i}`, '$']));
await measure('resolvePayload, 9,000 × "$" (40 KB)', '< 1 s', () => refusedWith(() => resolvePayload(everything, big)));
const withMeta = { ...big, subscription: { ...big.subscription, meta: { blob: 'm'.repeat(1_000_000) } } };
for (const leaf of ['$.subscription.meta', '/subscription/meta', '$..blob']) {
  await measure(`resolvePayload, 2,000 × ${leaf} (1 MB)`, '< 1 s', () => refusedWith(() => resolvePayload(Array.from({ length: 2000 }, () => leaf), withMeta)));
}
const wide = { list: Array.from({ length: 300_000 }, (_, i) => ({ i })) };
await measure('jsonPath $..i over 300,000 items', '< 2 s', () => jsonPath(wide, '$..i'));

// The command's test delivery over the budget (services/command adapters/webhook-test-delivery.ts).
const deliveryDeps = {
  topics: topicsFor({ prefix: 'bench.', spansPartitions: 1, accountsPartitions: 1, spansRetentionMs: 1, dlqRetentionMs: 1 }),
  timeoutMs: 1000,
  outbound: { request: async () => { throw new Error('nothing may be sent'); } } as unknown as OutboundClient,
  producer: { send: async () => undefined } as unknown as Producer,
  pool: { query: async () => ({ rows: [{ applied: true }] }) } as unknown as Pool,
};
const caller = {
  projectId: '0190a5b2-7c3e-7a10-8000-0000000000aa', organizationId: '0190a5b2-7c3e-7a10-8000-0000000000bb',
  userId: '0190a5b2-7c3e-7a10-8000-0000000000cc', requestId: '0190a5b2-7c3e-7a10-8000-0000000000dd',
};
const oversized = { url: 'https://hooks.example/in', auth_mode: 'signature' as const, meta: { blob: 'm'.repeat(1_000_000) }, payload_fields: Array.from({ length: 2000 }, () => '$.subscription.meta') };
await measure('testDelivery, draft over 1 MiB', '< 2 s', () => testDelivery(deliveryDeps, caller, { subscription: oversized, secret: 'whsec' }));

// A receiver that never answers (packages/webhooks send.ts through the outbound guard).
const held: http.ServerResponse[] = [];
const receiver = http.createServer((_req, res) => { held.push(res); });
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const port = (receiver.address() as AddressInfo).port;
const client = createOutboundClient({ allowInsecure: true, allowPrivateHosts: [`127.0.0.1:${port}`], connectTimeoutMs: 2000 });
const hang = prepareDelivery({
  deliveryId: '9ee5e94c-9bee-5093-81c2-ef8a0eb2ac3a', projectId: caller.projectId,
  event: { event_id: '0190a5b2-7c3e-7a10-8000-000000000001', event_type: 'webhooks.subscriptions.tested', timestamp: '2024-07-01T10:00:00.000Z', created_at: '2024-07-01T10:00:00.000Z', attributes: {} },
  subscription: { id: 'draft', url: `http://127.0.0.1:${port}/hang`, auth_mode: 'signature' },
});
await measure('sendDelivery, receiver silent, timeoutMs 300', '< 3 s', () => sendDelivery(client, hang, { mode: 'signature', secret: 's' }, { timeoutMs: 300 }));
receiver.closeAllConnections();
receiver.close();

// HTTP shutdown (packages/runtime shutdown.ts) on a real server.
async function serverWithGate() {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const readiness = createReadiness();
  const app = express();
  app.use(closeOnShutdown(readiness));
  app.get('/slow', async (_req, res) => { await gate; res.json({ ok: true }); });
  app.get('/fast', (_req, res) => { res.json({ ok: true }); });
  app.use(createManagementApp(readiness));
  const server = await listen(app, 0, '127.0.0.1');
  return { readiness, server, release, base: `http://127.0.0.1:${server.port}` };
}
const refused = (url: string): Promise<boolean> => fetch(url).then(() => false, () => true);
const whenTrue = async (cond: () => boolean | Promise<boolean>): Promise<void> => { while (!(await cond())) await new Promise((r) => setTimeout(r, 5)); };
{
  const ready: number[] = [];
  const drained: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { readiness, server, release, base } = await serverWithGate();
    const inFlight = fetch(`${base}/slow`);
    await whenTrue(() => server.inFlight() === 1);
    const t0 = performance.now();
    const shutdown = runShutdown(httpShutdownSteps({ readiness, server, drainMs: 1_500, graceMs: 10_000 }, log), log);
    await whenTrue(async () => (await fetch(`${base}/readyz`)).status === 503);
    ready.push(performance.now() - t0);
    await whenTrue(() => refused(`${base}/fast`));
    drained.push(performance.now() - t0);
    release();
    await inFlight;
    await shutdown;
  }
  const fmt = (ms: number[]) => { ms.sort((a, b) => a - b); return { median: `${ms[Math.floor(ms.length / 2)]!.toFixed(1)} ms`, worst: `${ms[ms.length - 1]!.toFixed(1)} ms` }; };
  rows.push({ path: 'shutdown: readiness 503 after SIGTERM', design: '< 1.5 s', ...fmt(ready) });
  rows.push({ path: 'shutdown: new connections refused (drain 1.5 s)', design: '≈ 1.5 s', ...fmt(drained) });
}
await measure('shutdown: request outlasting a 200 ms grace, cut', '< 2 s', async () => {
  const { readiness, server, base } = await serverWithGate();
  const stuck = fetch(`${base}/slow`).catch(() => undefined);
  await whenTrue(() => server.inFlight() === 1);
  await runShutdown(httpShutdownSteps({ readiness, server, drainMs: 0, graceMs: 200 }, log), log);
  await stuck;
});
await measure('shutdown: idle keep-alive, drain 0', '< 500 ms', async () => {
  const { readiness, server, base } = await serverWithGate();
  await fetch(`${base}/fast`);
  await runShutdown(httpShutdownSteps({ readiness, server, drainMs: 0, graceMs: 10_000 }, log), log);
});

console.log(`bounded-work bench, ${RUNS} run(s) each, Node ${process.version}`);
console.table(rows);
process.exit(0);
