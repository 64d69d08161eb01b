// Starts the real Kafka, Postgres and stripe-mock once per test run (unless KAFKA_BROKERS /
// DATABASE_URL / STRIPE_MOCK_URL point at running ones) and hands their addresses to the test files.
// ClickHouse is embedded per test file.
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    kafkaBrokers: string;
    databaseUrl: string;
    runDir: string;
    /** Base URL of a stripe-mock (http://127.0.0.1:<port>). */
    stripeMockUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = path.resolve(import.meta.dirname, '..');
  mkdirSync(path.join(root, '.data'), { recursive: true });
  const runDir = mkdtempSync(path.join(root, '.data', 'test-'));
  const stops: Array<() => Promise<void>> = [];
  // @ts-expect-error plain .mjs modules without types (deploy scripts run before npm install)
  const ports = await import('../deploy/local/ports.mjs');
  let brokers = process.env.KAFKA_BROKERS;
  let dbUrl = process.env.DATABASE_URL;
  let stripeMockUrl = process.env.STRIPE_MOCK_URL;
  const starts: Promise<void>[] = [];
  if (!brokers) {
    // @ts-expect-error see above
    const { startKafka } = await import('../deploy/local/kafka.mjs');
    const port = await ports.freePort();
    const controllerPort = await ports.freePort();
    starts.push(startKafka({ dataDir: path.join(runDir, 'kafka'), port, controllerPort, log: () => undefined, heap: '512m' }).then((k: { brokers: string; stop: () => Promise<void> }) => {
      brokers = k.brokers;
      stops.push(() => k.stop());
    }));
  }
  if (!dbUrl) {
    // @ts-expect-error see above
    const { startPostgres } = await import('../deploy/local/postgres.mjs');
    const port = await ports.freePort();
    starts.push(startPostgres({ dataDir: path.join(runDir, 'postgres'), port, log: () => undefined }).then((pg: { url: string; stop: () => Promise<void> }) => {
      dbUrl = pg.url;
      stops.push(() => pg.stop());
    }));
  }
  if (!stripeMockUrl) {
    // @ts-expect-error see above
    const { startStripeMock } = await import('../deploy/local/stripe-mock.mjs');
    const port = await ports.freePort();
    starts.push(startStripeMock({ port, log: () => undefined }).then((sm: { url: string; stop: () => Promise<void> }) => {
      stripeMockUrl = sm.url;
      stops.push(() => sm.stop());
    }));
  }
  await Promise.all(starts);
  project.provide('kafkaBrokers', brokers!);
  project.provide('databaseUrl', dbUrl!);
  project.provide('runDir', runDir);
  project.provide('stripeMockUrl', stripeMockUrl!);
  return async () => {
    for (const s of stops) await s().catch(() => undefined);
    rmSync(runDir, { recursive: true, force: true });
  };
}
