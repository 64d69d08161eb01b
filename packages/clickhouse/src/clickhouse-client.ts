// The only module that imports a ClickHouse client. @clickhouse/client everywhere; with no
// CLICKHOUSE_URL it talks to the embedded chDB engine through chdb/connection (one process per data
// directory, so the embedded default runs the projector and the query side in one process).
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

export type { ClickHouseClient };

export interface ClickhouseSettings {
  url?: string;
  dataDir: string;
  database: string;
}

export interface Clickhouse {
  client: ClickHouseClient;
  database: string;
  embedded: boolean;
  close(): Promise<void>;
}

const embeddedByPath = new Map<string, { client: ClickHouseClient; refs: number }>();

export async function openClickhouse(s: ClickhouseSettings): Promise<Clickhouse> {
  if (s.url) {
    const client = createClient({
      url: s.url,
      request_timeout: 30_000,
      clickhouse_settings: { date_time_input_format: 'best_effort' },
    });
    await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${s.database}` });
    return { client, database: s.database, embedded: false, close: () => client.close() };
  }
  const dir = path.resolve(s.dataDir);
  let entry = embeddedByPath.get(dir);
  if (!entry) {
    mkdirSync(dir, { recursive: true });
    const { createChdbConnection } = await import('chdb/connection');
    const connection = createChdbConnection({ path: dir });
    const client = createClient({ connection } as unknown as Parameters<typeof createClient>[0]);
    entry = { client, refs: 0 };
    embeddedByPath.set(dir, entry);
  }
  entry.refs++;
  const e = entry;
  await e.client.command({ query: `CREATE DATABASE IF NOT EXISTS ${s.database}` });
  let closed = false;
  return {
    client: e.client,
    database: s.database,
    embedded: true,
    async close() {
      if (closed) return;
      closed = true;
      if (--e.refs === 0) {
        embeddedByPath.delete(dir);
        await e.client.close();
      }
    },
  };
}
