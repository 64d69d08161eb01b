// node --import tsx test/bench/retention-purge.bench.ts [-- --spans 1000000 --projects 10 --days 30]:
// what a retention purge (issue 30) costs on the embedded engine, on the migrated span table (its
// projections and bloom filters included). Spans are spread evenly over `days` days and `projects`
// projects; then, as the purge worker does:
//
//   idle pass      the count of due rows when nothing is due (what every pass costs between expiries)
//   one day due    every project's oldest day expires: the count, then one ALTER … DELETE mutation
//                  (mutations_sync) — the steady state of a daily-expiring deployment
//   a week due     seven more days at once (a plan downgraded, a project shortened)
//   trace index    the same day purged from trace_index
//
// plus the read cost of the retention bound itself (a page of the newest spans with and without it).
// Wall time, rows removed and the table's bytes on disk before and after. Nothing is asserted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { migrateClickhouse, openClickhouse } from '@llm/clickhouse';
import { clickhouseRetentionTarget, type ProjectCutoff } from '@llm/project-purge';
import { RETAINED_SPANS_SQL } from '@llm/span-table';

const { values: opt } = parseArgs({ options: { spans: { type: 'string', default: '1000000' }, projects: { type: 'string', default: '10' }, days: { type: 'string', default: '30' } } });
const SPANS = Number(opt.spans);
const PROJECTS = Number(opt.projects);
const DAYS = Number(opt.days);
const DAY_US = 86_400_000_000;
const NOW_US = Date.now() * 1000;
const START_US = NOW_US - DAYS * DAY_US;

const dir = mkdtempSync(path.join(tmpdir(), 'bench-retention-'));
const ch = await openClickhouse({ dataDir: dir, database: 'llm' });
await migrateClickhouse(ch, path.resolve(import.meta.dirname, '../../services/projector-spans/migrations/'));
const q = async <T>(query: string, params: Record<string, unknown> = {}): Promise<T[]> =>
  (await ch.client.query({ query, query_params: params, format: 'JSONEachRow' })).json<T>();
const projects = Array.from({ length: PROJECTS }, (_, i) => `bench-project-${i}`);

console.error(`inserting ${SPANS.toLocaleString()} spans over ${DAYS} days in ${PROJECTS} projects …`);
// Generated inside the engine, in batches like the projector's (many parts, as a live table has).
const BATCH = 100_000;
for (let off = 0; off < SPANS; off += BATCH) {
  const n = Math.min(BATCH, SPANS - off);
  await ch.client.command({
    query: `INSERT INTO llm.spans (project_id, trace_id, span_id, parent_id, span_name, span_kind, span_type, trace_type, status_code, start_time, end_time,
              duration_ms, attributes, events, links, references, hashes, created_at, version, is_deleted)
            SELECT {projects:Array(String)}[1 + (intDiv(number, 8) % ${PROJECTS})], lower(hex(intHash64(intDiv(number, 8)) * 1000003)) || lower(hex(intDiv(number, 8))),
                   lower(hex(intHash64(number))), if(number % 8 = 0, '', lower(hex(intHash64(number - number % 8)))), 'span ' || toString(number % 50),
                   'SPAN_KIND_INTERNAL', 'task', 'invocation', 'STATUS_CODE_OK',
                   fromUnixTimestamp64Micro(toInt64({start:Int64} + intDiv(number * ${DAYS} * ${DAY_US}, ${SPANS})), 'UTC'),
                   fromUnixTimestamp64Micro(toInt64({start:Int64} + intDiv(number * ${DAYS} * ${DAY_US}, ${SPANS}) + 1000), 'UTC'),
                   1, '{"ag":{"data":{"inputs":{"q":"' || repeat('x', 150) || toString(number) || '"}}}}', '[]', '[]', '[]', '[]', now64(6), 1, 0
              FROM numbers(${off}, ${n})`,
    query_params: { projects, start: START_US },
  });
  await ch.client.insert({
    table: 'llm.trace_index', format: 'JSONEachRow',
    values: await q(`SELECT project_id, trace_id, min(start_time) AS first_start, max(start_time) AS last_start FROM llm.spans
                      WHERE start_time >= fromUnixTimestamp64Micro({lo:Int64}, 'UTC') AND start_time < fromUnixTimestamp64Micro({hi:Int64}, 'UTC') GROUP BY project_id, trace_id`,
      { lo: START_US + Math.floor((off * DAYS * DAY_US) / SPANS), hi: START_US + Math.floor(((off + n) * DAYS * DAY_US) / SPANS) }),
  });
}

async function disk(table: string): Promise<{ rows: number; bytes: number; parts: number }> {
  const [r] = await q<{ rows: string; bytes: string; parts: string }>(
    `SELECT sum(rows) AS rows, sum(bytes_on_disk) AS bytes, count() AS parts FROM system.parts WHERE database = 'llm' AND table = {t:String} AND active`, { t: table });
  return { rows: Number(r!.rows), bytes: Number(r!.bytes), parts: Number(r!.parts) };
}
const mib = (b: number): string => `${(b / 1048576).toFixed(1)} MiB`;
const results: Array<Record<string, string>> = [];
async function step(name: string, table: string, f: () => Promise<number>): Promise<void> {
  const before = await disk(table);
  const t0 = performance.now();
  const removed = await f();
  const ms = performance.now() - t0;
  const after = await disk(table);
  results.push({
    step: name, table, ms: ms.toFixed(0), removed: removed.toLocaleString(),
    'rows before → after': `${before.rows.toLocaleString()} → ${after.rows.toLocaleString()}`,
    'disk before → after': `${mib(before.bytes)} → ${mib(after.bytes)}`, parts: `${before.parts} → ${after.parts}`,
  });
  console.error(`  ${name}: ${ms.toFixed(0)} ms`);
}

const cutoffs = (days: number): ProjectCutoff[] => projects.map((projectId) => ({ projectId, beforeUs: START_US + days * DAY_US }));
const spans = clickhouseRetentionTarget(ch, 'spans', 'start_time', 'spans');
const index = clickhouseRetentionTarget(ch, 'trace_index', 'last_start', 'spans');
await step('idle pass (nothing due)', 'spans', () => spans.purge(cutoffs(0)));
await step('one day due', 'spans', () => spans.purge(cutoffs(1)));
await step('one day due', 'trace_index', () => index.purge(cutoffs(1)));
await step('a week due', 'spans', () => spans.purge(cutoffs(8)));
await step('idle pass (after)', 'spans', () => spans.purge(cutoffs(8)));

// The bound on reads: the newest page of one project, with and without the retention predicate.
const reads: Array<Record<string, string>> = [];
for (const [name, where, params] of [
  ['newest 100 spans, no bound', 'project_id = {p:String}', {}],
  ['newest 100 spans, retention bound', `project_id = {p:String} AND ${RETAINED_SPANS_SQL}`, { retained_from_us: START_US + 8 * DAY_US }],
] as const) {
  const ms: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    await q(`SELECT span_id FROM llm.spans WHERE ${where} AND is_deleted = 0 ORDER BY start_time DESC LIMIT 100`, { p: projects[0], ...params });
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  reads.push({ read: name, 'median ms': ms[3]!.toFixed(1) });
}

console.log(`\nretention purge on ${SPANS.toLocaleString()} spans (${PROJECTS} projects, ${DAYS} days), chDB ${(await q<{ v: string }>('SELECT version() AS v'))[0]!.v}`);
console.table(results);
console.table(reads);
await ch.close();
rmSync(dir, { recursive: true, force: true });
