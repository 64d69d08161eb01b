import { openClickhouse, migrateClickhouse } from '@llm/clickhouse';
import { fileURLToPath } from 'node:url';
const ch = await openClickhouse({ dataDir: '/tmp/chins-' + process.pid, database: 'llm' });
await migrateClickhouse(ch, fileURLToPath(new URL('../services/projector-spans/migrations/', import.meta.url)));
const attrs = JSON.stringify({ ag: { data: { inputs: { prompt: [{ role: 'user', content: 'x'.repeat(300) }] }, outputs: { completion: [{ role: 'assistant', content: 'y'.repeat(300) }] } }, metrics: { tokens: { incremental: { prompt: 1, completion: 2, total: 3 } } } }, gen_ai: { request: { model: 'gpt' } } });
const mk = (i: number) => ({ project_id: 'p', trace_id: Math.random().toString(16).slice(2) + (i >> 2), span_id: 's' + i, parent_id: '', span_name: 'chat', span_kind: 'SPAN_KIND_CLIENT', span_type: 'chat', trace_type: 'invocation', status_code: 'STATUS_CODE_OK', status_message: '', start_time: '1700000000.123456', end_time: '1700000001.123456', duration_ms: 1000, attributes: attrs, events: '[]', links: '', references: '[]', hashes: '[]', session_id: 's', user_id: 'u', tokens_incremental: { prompt: 1, total: 3 }, costs_incremental: {}, errors_incremental: 0, tokens_cumulative: { prompt: 1, completion: 0, total: 3 }, costs_cumulative: {}, errors_cumulative: 0, created_at: '1700000000.000000', version: '5', is_deleted: 0 });
const settings = JSON.parse(process.argv[2] ?? '{}');
let n = 0; const rowsAll = Array.from({ length: 3000 }, (_, i) => mk(i));
const c0 = process.cpuUsage(); const t0 = performance.now();
while (n < 120000) { n += rowsAll.length; await ch.client.insert({ table: 'llm.spans', values: rowsAll, format: 'JSONEachRow', clickhouse_settings: settings }); }
const secs = (performance.now() - t0) / 1000; const cu = process.cpuUsage(c0);
console.log(JSON.stringify(settings), (n / secs).toFixed(0), 'rows/s;', ((cu.user + cu.system) / n).toFixed(1), 'µs CPU/row');
await ch.close();
