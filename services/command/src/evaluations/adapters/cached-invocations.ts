// Trace reuse for runs flagged `is_cached` (reference evaluations §3.7, tracing §1.3): an
// invocation's trace carries a hash of what it points at — its references (the testcase, the
// workflow revision, …) and its links (the invocation an evaluator judges). Before invoking, the
// worker looks for a trace of the project with that hash that succeeded; if there is one, its
// trace and outputs are the cell's and nothing is invoked. Either way the cell records the hash.
import { compileSearch, spanPage, type SearchDeps } from '@llm/span-read';
import { normalizeSpan } from '@llm/span-model';
import { invocationSpan, type Invocation, type InvocationResult } from './workflow-invoker.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The hash the invocation's root span gets (the same normalisation every stored span goes through); undefined when it points at nothing. */
export function invocationHash(inv: Invocation): string | undefined {
  const at = new Date(0);
  const normalized = normalizeSpan(invocationSpan(inv, at, at, {}));
  return normalized.ok ? normalized.span.hashes[0]?.id : undefined;
}

/** The newest successful root span of the project with this hash, as the invocation's result; undefined when there is none. */
export async function cachedInvocation(search: SearchDeps, projectId: string, hashId: string): Promise<InvocationResult | undefined> {
  const filtering = { conditions: [{ field: 'hashes', operator: 'in', value: [hashId] }] };
  const page = await spanPage(search, compileSearch(projectId, filtering, { limit: 10 }, 'span'), projectId);
  const hit = page.spans.find((s) => !s.parent_id && s.status_code !== 'STATUS_CODE_ERROR');
  if (!hit) return undefined;
  const ag = isObject(hit.attributes.ag) ? hit.attributes.ag : {};
  const data = isObject(ag.data) ? ag.data : {};
  return { ok: true, traceId: hit.trace_id, spanId: hit.span_id, outputs: data.outputs };
}
