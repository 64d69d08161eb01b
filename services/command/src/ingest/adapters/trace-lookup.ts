// The one read the command side needs from the span store: the stored simple trace that PATCH and
// DELETE /simple/traces/{trace_id} replace or delete (its root span id, and the origin, kind and
// channel a PATCH keeps). The command side has no ClickHouse reader of its own; the process that
// has one (the all-in-one, or a command service given CLICKHOUSE_URL) passes it in. Without it,
// those two routes answer 503 rather than guess.
import { z } from 'zod';
import { jsonObject } from '@llm/contracts';
import { unavailable } from '@llm/errors';

const idRef = z.object({ id: z.string().nullish(), slug: z.string().nullish(), version: z.union([z.string(), z.number()]).nullish() });

/** What the lookup answers, checked at this boundary (it comes from another side's reader). */
export const storedSimpleTrace = z.object({
  trace_id: z.string(),
  span_id: z.string(),
  origin: z.enum(['human', 'auto', 'custom']),
  kind: z.enum(['adhoc', 'eval', 'play']),
  channel: z.enum(['sdk', 'api', 'web', 'otlp']),
  data: jsonObject,
  references: z.record(z.string(), idRef),
  links: z.record(z.string(), z.object({ trace_id: z.string(), span_id: z.string() })),
  tags: jsonObject.optional(),
  meta: jsonObject.optional(),
  /** The span's start time: a replacement keeps it, so the trace keeps its creation time. */
  created_at: z.string(),
});
export type StoredSimpleTrace = z.infer<typeof storedSimpleTrace>;

export interface TraceLookup {
  /** Undefined when unknown, another project's, or not a simple trace. */
  simpleTrace(projectId: string, traceId: string): Promise<Record<string, unknown> | undefined>;
}

/** The stored simple trace, or undefined; 503 when this process was given no lookup. */
export async function findSimpleTrace(lookup: TraceLookup | undefined, projectId: string, traceId: string): Promise<StoredSimpleTrace | undefined> {
  if (!lookup) {
    throw unavailable('trace_lookup_unavailable', 'This command service has no span store to read the stored trace from; configure CLICKHOUSE_URL or use the all-in-one service.');
  }
  const found = await lookup.simpleTrace(projectId, traceId);
  if (!found) return undefined;
  const parsed = storedSimpleTrace.safeParse(found);
  // A stored span that does not read back as a simple trace is not one this route may rewrite.
  return parsed.success ? parsed.data : undefined;
}
