// The embedded engine's own logs (issue 30): ClickHouse servers keep query, part, trace and metric
// logs in system tables that grow without bound unless given a TTL (deploy/clickhouse/ has the
// server's). The embedded chDB engine must keep none at all: after a workload of writes, merges and
// mutations, and then an idle stretch of the reads a deployment polls with, no system log table
// exists, nothing is logged to files, and the data directory has not grown.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickhouse, type Clickhouse } from '../src/index.ts';

let dir: string;
let ch: Clickhouse;

/** Bytes under a directory. */
function sizeOf(d: string): number {
  let n = 0;
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    n += e.isDirectory() ? sizeOf(p) : statSync(p).size;
  }
  return n;
}

async function rows<T>(query: string): Promise<T[]> {
  return (await ch.client.query({ query, format: 'JSONEachRow' })).json<T>();
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'chdb-system-logs-'));
  ch = await openClickhouse({ dataDir: dir, database: 'llm' });
  await ch.client.command({ query: 'CREATE TABLE llm.t (a UInt32) ENGINE = MergeTree ORDER BY a' });
  for (let i = 0; i < 20; i++) await ch.client.insert({ table: 'llm.t', values: [{ a: i }], format: 'JSONEachRow' });
  await ch.client.command({ query: 'ALTER TABLE llm.t DELETE WHERE a < 5', clickhouse_settings: { mutations_sync: '1' } });
  await ch.client.command({ query: 'OPTIMIZE TABLE llm.t FINAL' });
  await ch.client.command({ query: 'SYSTEM FLUSH LOGS' });
}, 60_000);
afterAll(async () => { await ch?.close(); if (dir) rmSync(dir, { recursive: true, force: true }); });

describe('embedded engine system logs', () => {
  it('when the engine has run writes, merges and mutations, then it keeps no system log table and logs to no file', async () => {
    const logs = await rows<{ name: string }>("SELECT name FROM system.tables WHERE database = 'system' AND endsWith(name, '_log')");
    expect(logs).toEqual([]);
    const files = await rows<{ name: string; value: string }>("SELECT name, value FROM system.server_settings WHERE name IN ('logger.log', 'logger.errorlog')");
    expect(files).toEqual([{ name: 'logger.log', value: '' }, { name: 'logger.errorlog', value: '' }]);
    // Only the application's database is on disk: no `system` database directory.
    expect(readdirSync(path.join(dir, 'metadata')).filter((f) => !f.startsWith('llm')).sort()).toEqual([]);
  });

  it('when the engine then idles on the reads a deployment polls with, then its data directory does not grow', async () => {
    const before = sizeOf(dir);
    for (let i = 0; i < 200; i++) await rows('SELECT 1');
    await ch.client.command({ query: 'SYSTEM FLUSH LOGS' });
    expect(sizeOf(dir)).toBeLessThanOrEqual(before);
  });
});
