// What the export tests and the export bench share: a cheap way to put many spans in a project (one
// INSERT … SELECT FROM numbers() into the span table and its trace index, the tables the projector
// writes, so no Kafka round trip per span), and a client that streams an export over node:http,
// counting records without keeping the body, with the process's peak RSS sampled meanwhile.
import http from 'node:http';
import type { Clickhouse } from '@llm/clickhouse';
import { spanTables } from '@llm/span-table';

export const SPANS_PER_TRACE = 10;

/**
 * `n` spans for `projectId`: traces of SPANS_PER_TRACE (a root and its children), one span a
 * millisecond ending `endUs`, each with `padBytes` of input text. Span `i` (0 = oldest) is named
 * `span-<i % 10>`, carries `ag.data.inputs.n = i` and `ag.metrics.tokens.incremental.total = i % 100`.
 */
export async function insertSyntheticSpans(ch: Clickhouse, projectId: string, n: number, opts: { endUs: number; padBytes: number }): Promise<void> {
  const t = spanTables();
  const db = ch.database;
  // Ids are hashes of the project and the span's (or trace's) number: unique, and the same in every run.
  const id = (salt: 't' | 's', n: string) => `lower(hex(MD5(concat({p:String}, '${salt}', toString(${n})))))`;
  await ch.client.command({
    query: `INSERT INTO ${db}.${t.spans} (project_id, trace_id, span_id, parent_id, span_name, span_kind, span_type, trace_type, status_code, status_message,
        start_time, end_time, duration_ms, attributes, events, links, references, hashes, session_id, user_id, tokens_incremental, costs_incremental,
        errors_incremental, tokens_cumulative, costs_cumulative, errors_cumulative, created_at, version, is_deleted)
      SELECT {p:String}, ${id('t', 'intDiv(number, 10)')}, substring(${id('s', 'number')}, 1, 16), if(number % 10 = 0, '', substring(${id('s', 'number - number % 10')}, 1, 16)),
        concat('span-', toString(number % 10)), 'SPAN_KIND_INTERNAL', if(number % 10 = 0, 'workflow', 'task'), 'invocation', 'STATUS_CODE_UNSET', '',
        fromUnixTimestamp64Micro(toInt64({start:Int64} + number * 1000), 'UTC'), fromUnixTimestamp64Micro(toInt64({start:Int64} + number * 1000 + 500), 'UTC'), 0.5,
        concat('{"ag":{"type":{"span":"task"},"data":{"inputs":{"n":', toString(number), ',"text":"', repeat('x', {pad:UInt32}),
          '"}},"metrics":{"tokens":{"incremental":{"total":', toString(number % 100), '}}}}}'),
        '[]', '', '[]', '[]', '', '', map(), map(), 0, map(), map(), 0, now64(6), 1, 0
      FROM numbers({n:UInt64})`,
    query_params: { p: projectId, start: opts.endUs - n * 1000, pad: opts.padBytes, n },
  });
  await ch.client.command({
    query: `INSERT INTO ${db}.${t.traceIndex} SELECT project_id, trace_id, min(start_time), max(start_time) FROM ${db}.${t.spans}
      WHERE project_id = {p:String} GROUP BY project_id, trace_id`,
    query_params: { p: projectId },
  });
}

export interface StreamedExport {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: number;
  /** Line ends received (JSON Lines: records; CSV: records + header, when no field holds a line break). */
  lines: number;
  /** The first `keep` bytes of the body. */
  head: Buffer;
  /** The last `keep` bytes of the body. */
  tail: Buffer;
  /** Highest RSS of this process seen while the export streamed, and the RSS when it started. */
  peakRss: number;
  startRss: number;
}

export interface StreamOptions {
  keep?: number;
  /** Called with the bytes received so far after each chunk; a promise it returns pauses reading until it settles. */
  onProgress?: (bytes: number) => Promise<void> | void;
}

/** POSTs `body` to an export route and reads the answer as it streams. */
export function streamExport(baseUrl: string, auth: Record<string, string>, path: string, body: unknown, o: StreamOptions = {}): Promise<StreamedExport> {
  const keep = o.keep ?? 64 * 1024;
  const url = new URL(path, baseUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const startRss = process.memoryUsage.rss();
    let peakRss = startRss;
    const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage.rss()); }, 20);
    let settled = false;
    const done = (f: () => void): void => {
      if (settled) return;
      settled = true;
      clearInterval(sampler);
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
      f();
    };
    const req = http.request(url, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } }, (res) => {
      let bytes = 0;
      let lines = 0;
      const first: Buffer[] = [];
      let firstBytes = 0;
      // The last chunks, as long as dropping the oldest would leave fewer than `keep` bytes.
      const last: Buffer[] = [];
      let lastBytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, i + 1)) lines++;
        if (firstBytes < keep) { first.push(chunk.subarray(0, keep - firstBytes)); firstBytes += first.at(-1)!.length; }
        last.push(chunk);
        lastBytes += chunk.length;
        while (lastBytes - last[0]!.length >= keep) lastBytes -= last.shift()!.length;
        const wait = o.onProgress?.(bytes);
        if (wait) { res.pause(); void Promise.resolve(wait).finally(() => res.resume()); }
      });
      res.on('end', () => done(() => resolve({
        status: res.statusCode ?? 0, headers: res.headers, bytes, lines, head: Buffer.concat(first), tail: Buffer.concat(last).subarray(-keep), peakRss, startRss,
      })));
      res.on('error', (err) => done(() => reject(err)));
      res.on('close', () => { if (!res.complete) done(() => reject(new Error('the export ended before its last byte'))); });
    });
    req.on('error', (err) => done(() => reject(err)));
    req.end(payload);
  });
}
