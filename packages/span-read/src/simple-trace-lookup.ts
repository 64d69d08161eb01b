// The stored simple trace of a trace id, for the command side's PATCH and DELETE
// /simple/traces/{trace_id}: those writes replace or delete a trace that only the read model
// knows (its root span id, origin, kind, channel). The command side declares the port it needs
// (TraceLookup in services/command); this is its implementation over the span store, wired by
// the all-in-one process (and by a standalone command service that is given ClickHouse).
import type { Clickhouse } from '@llm/clickhouse';
import { ReadModel } from './read-model.ts';
import { SpanReader } from './span-reader.ts';
import { spanView } from './span-view.ts';
import { simpleTraceOf } from './simple-trace-view.ts';

export interface SimpleTraceLookup {
  /** The simple trace as GET /simple/traces/{id} shows it; undefined when unknown, another project's, or not a simple trace. */
  simpleTrace(projectId: string, traceId: string): Promise<Record<string, unknown> | undefined>;
}

/** The root span (the earliest without a parent) read back as a simple trace. */
export async function readSimpleTrace(reader: SpanReader, projectId: string, traceId: string): Promise<Record<string, unknown> | undefined> {
  const spans = (await reader.byIds(projectId, [traceId], [])).map(spanView);
  const root = spans.filter((s) => !s.parent_id).sort((a, b) => a.start_time.localeCompare(b.start_time))[0];
  return root ? simpleTraceOf(root) : undefined;
}

export function simpleTraceLookup(ch: Clickhouse, opts: { queryTimeoutMs?: number; maxResultBytes?: number } = {}): SimpleTraceLookup {
  const reader = new SpanReader(new ReadModel(ch, opts.queryTimeoutMs), opts.maxResultBytes);
  return { simpleTrace: (projectId, traceId) => readSimpleTrace(reader, projectId, traceId) };
}
