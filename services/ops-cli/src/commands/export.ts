// `ops export <spans|traces> --out FILE`: the body of POST /spans/export or /traces/export streamed
// into a file, with a progress bar (records received against the server's X-Export-Estimated-Rows;
// bytes for Parquet, whose records are only counted by its footer). The file appears under its name
// only once the whole export arrived: it is written to FILE.partial first, and a transfer that ends
// early (the server aborts an export that fails after its first byte) leaves no file behind.
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { z } from 'zod';
import { parseConfig } from '@llm/config';
import type { CommandOutput } from '../command-output.ts';
import { OpsFailure, UsageError } from '../ops-errors.ts';
import { progressBar } from '../progress.ts';

export const EXPORT_KINDS = ['spans', 'traces'] as const;
export const EXPORT_FORMATS = ['jsonl', 'csv', 'parquet'] as const;

const exportEnv = z.object({
  /** The API to export from (default: the server of `npm start`). */
  BASE_URL: z.string().url().optional(),
  PORT: z.string().regex(/^\d+$/).optional(),
  /** The API key of the project to export (`Authorization: ApiKey <key>`). */
  OPS_API_KEY: z.string().min(1, 'is required by ops export (the API key of the project to export)'),
});

export interface ExportOptions {
  kind: (typeof EXPORT_KINDS)[number];
  format: (typeof EXPORT_FORMATS)[number];
  out: string;
  /** The request body's other fields (filtering, windowing, query refs), as JSON text. */
  body?: string;
}

/** Counts records in a JSON Lines or CSV stream: line ends outside CSV quotes (CSV: minus the header). */
export function recordCounter(format: ExportOptions['format']): { add(chunk: Uint8Array): void; readonly records: number } {
  let lines = 0;
  let quoted = false;
  return {
    add(chunk) {
      for (const b of chunk) {
        if (b === 0x22 && format === 'csv') quoted = !quoted;
        else if (b === 0x0a && !quoted) lines++;
      }
    },
    get records() { return format === 'csv' ? Math.max(0, lines - 1) : lines; },
  };
}

function requestBody(o: ExportOptions): Record<string, unknown> {
  let extra: unknown = {};
  if (o.body !== undefined) {
    try { extra = JSON.parse(o.body); } catch { throw new UsageError('--body must be a JSON object'); }
    if (!extra || typeof extra !== 'object' || Array.isArray(extra)) throw new UsageError('--body must be a JSON object');
  }
  return { ...(extra as Record<string, unknown>), format: o.format };
}

export async function exportCommand(o: ExportOptions, env: Record<string, string | undefined>): Promise<CommandOutput> {
  const parsed = parseConfig(exportEnv, env);
  if (!parsed.ok) throw new OpsFailure('invalid_configuration', `invalid configuration: ${parsed.problems.join('; ')}`);
  const base = parsed.config.BASE_URL ?? `http://127.0.0.1:${parsed.config.PORT ?? '8000'}`;
  const body = requestBody(o);
  const t0 = Date.now();
  let res: Response;
  try {
    res = await fetch(new URL(`/${o.kind}/export`, base), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `ApiKey ${parsed.config.OPS_API_KEY}` },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new OpsFailure('unreachable', `could not reach ${base}: ${(err as Error).message}`, { cause: err });
  }
  if (res.status !== 200 || !res.body) {
    const text = (await res.text().catch(() => '')).slice(0, 500);
    throw new OpsFailure('export_refused', `POST /${o.kind}/export answered ${res.status}: ${text}`);
  }
  const estimate = Number(res.headers.get('x-export-estimated-rows') ?? Number.NaN);
  const counter = recordCounter(o.format);
  const bar = progressBar(`exporting ${o.kind}`, o.format === 'parquet' ? 'bytes' : 'records');
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (o.format === 'parquet') bar.update(bytes, bytes);
      else {
        counter.add(chunk);
        bar.update(counter.records, Number.isFinite(estimate) ? Math.max(estimate, counter.records) : counter.records);
      }
      done(null, chunk);
    },
  });
  const partial = `${o.out}.partial`;
  try {
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), count, createWriteStream(partial));
    await rename(partial, o.out);
  } catch (err) {
    await rm(partial, { force: true });
    throw new OpsFailure('export_incomplete', `the export ended before its last record (${bytes} bytes received): ${(err as Error).message}`, { cause: err });
  } finally {
    bar.stop();
  }
  const seconds = Number(((Date.now() - t0) / 1000).toFixed(1));
  const records = o.format === 'parquet' ? undefined : counter.records;
  return {
    json: { file: o.out, kind: o.kind, format: o.format, bytes, ...(records !== undefined ? { records } : {}), seconds },
    text: `exported ${o.kind} to ${o.out}: ${records !== undefined ? `${records} records, ` : ''}${bytes} bytes, ${seconds} s`,
  };
}
