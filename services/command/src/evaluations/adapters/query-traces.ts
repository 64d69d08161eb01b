// The traces a saved-query revision selects, for a run over queries (reference evaluations §4.2
// "batch query"): the revision's stored filtering and windowing compiled as `/traces/query` compiles
// them (packages/span-read search), paged by the trace cursor up to a bound, each trace with its
// root span (the link an evaluator gets) and that span's `ag.data.outputs` (what it judges).
import { compileSearch, tracePage, type SearchDeps } from '@llm/span-read';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface QueryTrace { traceId: string; spanId: string; inputs: Json; outputs: unknown }

/** At most this many traces become scenarios of one run (a run is bounded like a testset). */
export const MAX_QUERY_TRACES = 10_000;

export async function queryTraces(d: SearchDeps, projectId: string, data: Json | null, max = MAX_QUERY_TRACES): Promise<QueryTrace[]> {
  const stored = isObject(data?.windowing) ? data.windowing : {};
  const out: QueryTrace[] = [];
  let next: string | undefined;
  do {
    const windowing = { ...stored, limit: Math.min(typeof stored.limit === 'number' ? stored.limit : 1000, 1000, max - out.length), ...(next ? { next } : {}) };
    const page = await tracePage(d, compileSearch(projectId, data?.filtering ?? {}, windowing, 'trace'), projectId);
    for (const traceId of page.order) {
      const root = page.spans.find((s) => s.trace_id === traceId && !s.parent_id) ?? page.spans.find((s) => s.trace_id === traceId);
      if (!root) continue;
      const ag = isObject(root.attributes.ag) ? root.attributes.ag : {};
      const agData = isObject(ag.data) ? ag.data : {};
      out.push({ traceId, spanId: root.span_id, inputs: isObject(agData.inputs) ? agData.inputs : {}, outputs: agData.outputs });
    }
    next = page.next;
    // A stored limit is the query's own size: one page of it, as its retrieve answers.
    if (typeof stored.limit === 'number') break;
  } while (next && out.length < max);
  return out;
}
