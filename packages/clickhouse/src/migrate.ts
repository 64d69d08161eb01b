// Versioned ClickHouse migrations: files `NNNN-name.sql` applied in order, recorded in
// `<db>.schema_migrations`. `{db}` in a file is replaced by the (validated) database name and
// `{suffix}` by a table suffix (used by replay to build fresh tables beside the live ones).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Clickhouse } from './clickhouse-client.ts';

export async function migrateClickhouse(ch: Clickhouse, dir: string, opts: { suffix?: string } = {}): Promise<string[]> {
  const db = ch.database;
  const suffix = opts.suffix ?? '';
  if (!/^[A-Za-z0-9_]*$/.test(suffix)) throw new Error(`bad table suffix '${suffix}'`);
  const ledger = `schema_migrations${suffix}`;
  await ch.client.command({
    query: `CREATE TABLE IF NOT EXISTS ${db}.${ledger} (name String, applied_at DateTime64(3) DEFAULT now64(3)) ENGINE = MergeTree ORDER BY name`,
  });
  const res = await ch.client.query({ query: `SELECT name FROM ${db}.${ledger}`, format: 'JSONEachRow' });
  const done = new Set((await res.json<{ name: string }>()).map((r) => r.name));
  const files = readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  for (const f of files) {
    if (done.has(f)) continue;
    const sql = readFileSync(path.join(dir, f), 'utf8').replaceAll('{db}', db).replaceAll('{suffix}', suffix);
    for (const stmt of sql.split(/;\s*(?:\n|$)/).map((s) => s.replace(/^\s*--.*$/gm, '').trim()).filter(Boolean)) {
      await ch.client.command({ query: stmt });
    }
    await ch.client.insert({ table: `${db}.${ledger}`, values: [{ name: f }], format: 'JSONEachRow' });
    applied.push(f);
  }
  return applied;
}
