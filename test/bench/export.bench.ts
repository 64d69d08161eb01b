// npm run bench:export [-- --spans 1000000 --pad 200 --formats jsonl,csv,parquet --engine]:
// the streamed export (POST /spans/export) of a large project through the HTTP route, one format
// after the other, each read at full speed by a client that only counts: records, bytes, seconds,
// and how much the process's RSS grew while it streamed (the all-in-one server runs in this process,
// embedded ClickHouse included). Spans go straight into the span table and its trace index with one
// INSERT … SELECT FROM numbers() (test/support/span-export.ts); a fresh stack under .data/bench-export
// each run. `--engine` also measures the alternative the export does not take: the embedded engine
// writing the whole result as Parquet itself (`FORMAT Parquet`), which chDB hands over as one buffer.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parquetMetadata } from 'hyparquet';
import { openClickhouse } from '@llm/clickhouse';
import { parseConfig } from '@llm/config';
import { createLogger } from '@llm/logging';
import { allInOneConfig, startAllInOne } from '@llm/service-all-in-one';
import { createAccount } from '@llm/testing/accounts';
import { testSecretsEnv } from '@llm/testing/secrets';
import { insertSyntheticSpans, streamExport } from '../support/span-export.ts';

const { values: opt } = parseArgs({
  options: {
    spans: { type: 'string', default: '1000000' },
    pad: { type: 'string', default: '200' },
    formats: { type: 'string', default: 'jsonl,csv,parquet' },
    engine: { type: 'boolean', default: false },
  },
});
const N = Number(opt.spans);
const PAD = Number(opt.pad);
const FORMATS = opt.formats.split(',') as Array<'jsonl' | 'csv' | 'parquet'>;
if (!Number.isSafeInteger(N) || N < 1 || FORMATS.some((f) => !['jsonl', 'csv', 'parquet'].includes(f))) throw new Error('--spans N (≥ 1), --formats jsonl,csv,parquet');
const MiB = 1024 * 1024;
const root = path.resolve(import.meta.dirname, '../..');
const dir = path.join(root, '.data', 'bench-export');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

// @ts-expect-error plain .mjs without types
const { startKafka } = await import('../../deploy/local/kafka.mjs');
// @ts-expect-error plain .mjs without types
const { startPostgres } = await import('../../deploy/local/postgres.mjs');
const kafkaPort = Number(process.env.BENCH_KAFKA_PORT ?? 29192);
const pgPort = Number(process.env.BENCH_POSTGRES_PORT ?? 25532);
const quiet = (): void => undefined;
const kafkaProc = await startKafka({ dataDir: path.join(dir, 'kafka'), port: kafkaPort, controllerPort: kafkaPort + 1, log: quiet });
const pg = await startPostgres({ dataDir: path.join(dir, 'postgres'), port: pgPort, log: quiet });
const adminToken = 'bench-admin-token-0123456789abcdef';
const parsed = parseConfig(allInOneConfig, {
  PORT: '0', MANAGEMENT_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', KAFKA_BROKERS: kafkaProc.brokers, KAFKA_TOPIC_PREFIX: 'bench.',
  DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${pgPort}/postgres`, CLICKHOUSE_DATA_DIR: path.join(dir, 'clickhouse'),
  ADMIN_TOKEN: adminToken, ...testSecretsEnv(),
});
if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
const app = await startAllInOne(parsed.config, createLogger({ name: 'bench', level: 'warn' }));
const base = `http://127.0.0.1:${app.port}`;
const ch = await openClickhouse({ dataDir: parsed.config.CLICKHOUSE_DATA_DIR, database: parsed.config.CLICKHOUSE_DATABASE });

try {
  const acc = await createAccount(base, adminToken);
  const t0 = performance.now();
  await insertSyntheticSpans(ch, acc.projectId, N, { endUs: Date.now() * 1000, padBytes: PAD });
  console.log(`loaded ${N.toLocaleString('en')} spans (${PAD} B of input text each) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const rows: string[][] = [];
  for (const format of FORMATS) {
    const s = performance.now();
    const r = await streamExport(base, acc.auth, '/spans/export', { format }, { keep: 16 * MiB });
    const seconds = (performance.now() - s) / 1000;
    if (r.status !== 200) throw new Error(`${format}: ${r.status} ${r.head.toString()}`);
    let records: number;
    if (format === 'parquet') {
      const footer = r.tail.readUInt32LE(r.tail.length - 8);
      const tail = r.tail.subarray(r.tail.length - 8 - footer);
      records = Number(parquetMetadata(tail.buffer.slice(tail.byteOffset, tail.byteOffset + tail.byteLength) as ArrayBuffer).num_rows);
    } else {
      records = format === 'csv' ? r.lines - 1 : r.lines;
    }
    if (records !== N) throw new Error(`${format}: ${records} records exported, ${N} stored`);
    rows.push([format, records.toLocaleString('en'), (r.bytes / MiB).toFixed(0), seconds.toFixed(1), Math.round(records / seconds).toLocaleString('en'),
      (r.startRss / MiB).toFixed(0), ((r.peakRss - r.startRss) / MiB).toFixed(0)]);
  }
  if (opt.engine) {
    // The alternative: the engine writes the whole result as Parquet (same rows, FINAL for the current versions).
    const startRss = process.memoryUsage.rss();
    let peak = startRss;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 20);
    const s = performance.now();
    const res = await ch.client.exec({
      query: `SELECT * FROM ${ch.database}.spans FINAL WHERE project_id = {p:String} AND is_deleted = 0 ORDER BY start_time DESC, trace_id DESC, span_id DESC FORMAT Parquet`,
      query_params: { p: acc.projectId },
    });
    let bytes = 0;
    for await (const chunk of res.stream) bytes += (chunk as Buffer).length;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());
    const seconds = (performance.now() - s) / 1000;
    rows.push(['engine Parquet', N.toLocaleString('en'), (bytes / MiB).toFixed(0), seconds.toFixed(1), Math.round(N / seconds).toLocaleString('en'),
      (startRss / MiB).toFixed(0), ((peak - startRss) / MiB).toFixed(0)]);
  }
  const header = ['format', 'records', 'MiB', 's', 'records/s', 'RSS at start MiB', 'RSS growth MiB'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [header, ...rows]) console.log(r.map((c, i) => c.padStart(widths[i]!)).join('  '));
} finally {
  await ch.close();
  await app.stop();
  await pg.stop();
  await kafkaProc.stop();
}
