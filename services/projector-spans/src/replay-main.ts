// `npm run replay -- spans [--keep-old]`: rebuilds the span read model from the topic into fresh
// tables and swaps them in, with a progress bar.
// - With CLICKHOUSE_URL (a ClickHouse server) the replay runs in this process, beside the live
//   projector.
// - With the embedded ClickHouse (the `npm start` default) only the running server may open the data
//   directory, so this asks it to run the replay (POST /admin/replay/spans) and shows its progress.
import cliProgress from 'cli-progress';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { envFragments, parseConfig } from '@llm/config';
import { openClickhouse } from '@llm/clickhouse';
import { createLogger } from '@llm/logging';
import { connectKafka } from '@llm/runtime';
import { replaySpans } from './replay.ts';

const args = process.argv.slice(2);
const target = args.find((a) => !a.startsWith('--')) ?? 'spans';
if (target !== 'spans') {
  console.error(`unknown read model '${target}'. Usage: npm run replay -- spans [--keep-old] [--allow-truncated]`);
  process.exit(2);
}
const keepOld = args.includes('--keep-old');
const allowTruncated = args.includes('--allow-truncated');
const bar = new cliProgress.SingleBar({ format: 'replaying spans [{bar}] {percentage}% | {value}/{total} records | eta {eta}s' }, cliProgress.Presets.shades_classic);
let started = false;
const progress = (done: number, total: number): void => {
  if (!started) { bar.start(total, 0); started = true; }
  bar.update(done);
};
const t0 = Date.now();

async function viaServer(): Promise<{ records: number; rows: number }> {
  const port = process.env.PORT || '8000';
  const base = process.env.BASE_URL || `http://127.0.0.1:${port}`;
  const tokenFile = `${process.env.DATA_DIR || '.data'}/admin-token`;
  const token = process.env.ADMIN_TOKEN || (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : '');
  if (!token) throw new Error('ADMIN_TOKEN is not set and .data/admin-token does not exist (is the server started with npm start?)');
  const query = new URLSearchParams({ ...(keepOld ? { keep_old: 'true' } : {}), ...(allowTruncated ? { allow_truncated: 'true' } : {}) }).toString();
  const res = await fetch(`${base}/admin/replay/spans${query ? `?${query}` : ''}`, { method: 'POST', headers: { Authorization: `Access ${token}` } })
    .catch((e: Error) => { throw new Error(`cannot reach the server at ${base} (${e.message}); start it with npm start, or set CLICKHOUSE_URL to replay against a ClickHouse server`); });
  if (res.status !== 200 || !res.body) throw new Error(`server answered ${res.status}: ${await res.text()}`);
  let buf = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buf += Buffer.from(chunk).toString('utf8');
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buf.slice(0, i)) as { done?: number; total?: number; result?: { records: number; rows: number }; error?: string };
      buf = buf.slice(i + 1);
      if (msg.error) throw new Error(msg.error);
      if (msg.result) return msg.result;
      if (msg.done !== undefined) progress(msg.done, msg.total ?? 0);
    }
  }
  throw new Error('the server closed the stream before the replay finished');
}

async function inProcess(): Promise<{ records: number; rows: number }> {
  const schema = envFragments.kafka.extend(envFragments.clickhouse.shape).extend({ LOG_LEVEL: z.string().default('warn') });
  const parsed = parseConfig(schema, process.env);
  if (!parsed.ok) throw new Error(`invalid configuration:\n  ${parsed.problems.join('\n  ')}`);
  const c = parsed.config;
  const log = createLogger({ name: 'replay', level: c.LOG_LEVEL });
  const { kafka, topics } = await connectKafka(c, log);
  const producer = await kafka.producer();
  const ch = await openClickhouse({ url: c.CLICKHOUSE_URL, dataDir: c.CLICKHOUSE_DATA_DIR, database: c.CLICKHOUSE_DATABASE });
  try {
    console.warn('replaying beside a live projector: stop projector-spans (scale to 0) for an exact swap, or accept that writes during the swap are caught up afterwards');
    const r = await replaySpans({ kafka, producer, ch, topics, log, keepOld, allowTruncated, onProgress: (d, t) => progress(Number(d), Number(t)) });
    return { records: Number(r.records), rows: r.rows };
  } finally {
    await producer.close();
    await ch.close();
  }
}

try {
  const r = process.env.CLICKHOUSE_URL ? await inProcess() : await viaServer();
  if (started) bar.stop();
  console.log(`rebuilt spans: ${r.records} records replayed, ${r.rows} live spans, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  process.exit(0);
} catch (err) {
  if (started) bar.stop();
  console.error(`replay failed: ${(err as Error).message}`);
  process.exit(1);
}
