// Runs a span replay the way the deployment allows, for the CLIs that offer one (`npm run replay`,
// `npm run ops -- replay spans`):
// - with CLICKHOUSE_URL (a ClickHouse server) the replay runs in this process, beside the live
//   projector;
// - with the embedded ClickHouse (the `npm start` default) only the running server may open the data
//   directory, so the server is asked to run it (POST /admin/replay/spans) and its progress is relayed.
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { envFragments, parseConfig } from '@llm/config';
import { openClickhouse } from '@llm/clickhouse';
import { createLogger } from '@llm/logging';
import { connectKafka } from '@llm/runtime';
import { replaySpans } from './replay.ts';

export interface SpansReplayRun {
  /** The caller's environment (its entry point is the one reader of process.env). */
  env: Record<string, string | undefined>;
  keepOld: boolean;
  allowTruncated: boolean;
  onProgress: (done: number, total: number) => void;
  /** Advice for the operator (the caller decides where it goes). */
  warn: (message: string) => void;
}

export interface SpansReplayOutcome { records: number; rows: number; via: 'server' | 'in-process' }

export async function runSpansReplay(o: SpansReplayRun): Promise<SpansReplayOutcome> {
  return o.env.CLICKHOUSE_URL ? { ...(await inProcess(o)), via: 'in-process' } : { ...(await viaServer(o)), via: 'server' };
}

async function viaServer(o: SpansReplayRun): Promise<{ records: number; rows: number }> {
  const port = o.env.PORT || '8000';
  const base = o.env.BASE_URL || `http://127.0.0.1:${port}`;
  const tokenFile = `${o.env.DATA_DIR || '.data'}/admin-token`;
  const token = o.env.ADMIN_TOKEN || (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : '');
  if (!token) throw new Error('ADMIN_TOKEN is not set and .data/admin-token does not exist (is the server started with npm start?)');
  const query = new URLSearchParams({ ...(o.keepOld ? { keep_old: 'true' } : {}), ...(o.allowTruncated ? { allow_truncated: 'true' } : {}) }).toString();
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
      if (msg.done !== undefined) o.onProgress(msg.done, msg.total ?? 0);
    }
  }
  throw new Error('the server closed the stream before the replay finished');
}

async function inProcess(o: SpansReplayRun): Promise<{ records: number; rows: number }> {
  const schema = envFragments.kafka.extend(envFragments.clickhouse.shape).extend({ LOG_LEVEL: z.string().default('warn') });
  const parsed = parseConfig(schema, o.env);
  if (!parsed.ok) throw new Error(`invalid configuration:\n  ${parsed.problems.join('\n  ')}`);
  const c = parsed.config;
  const log = createLogger({ name: 'replay', level: c.LOG_LEVEL });
  const { kafka, topics } = await connectKafka(c, log);
  const producer = await kafka.producer();
  const ch = await openClickhouse({ url: c.CLICKHOUSE_URL, dataDir: c.CLICKHOUSE_DATA_DIR, database: c.CLICKHOUSE_DATABASE });
  try {
    o.warn('replaying beside a live projector: stop projector-spans (scale to 0) for an exact swap, or accept that writes during the swap are caught up afterwards');
    const r = await replaySpans({ kafka, producer, ch, topics, log, keepOld: o.keepOld, allowTruncated: o.allowTruncated, onProgress: (d, t) => o.onProgress(Number(d), Number(t)) });
    return { records: Number(r.records), rows: r.rows };
  } finally {
    await producer.close();
    await ch.close();
  }
}
