// Validation rules of the single-trace create/edit endpoints (reference §3.2, §4), as values.
import { parseTraceId, type RawSpan } from '@llm/span-model';
import type { Result } from '@llm/errors';

/** Exactly one top-level span without a parent. */
export function checkRoot(topLevel: Array<{ parent_id?: string | null }>): Result<true> {
  if (topLevel.length === 0) return { ok: false, error: 'Missing spans' };
  const roots = topLevel.filter((s) => !s.parent_id).length;
  if (roots === 0) return { ok: false, error: 'Missing root span' };
  if (roots > 1) return { ok: false, error: 'Too many root spans' };
  return { ok: true, value: true };
}

/** Path id and payload ids must name the same trace, and the payload exactly one trace. */
export function checkSameTrace(pathId: string, spans: RawSpan[], payloadId?: string | null): Result<string> {
  const p = parseTraceId(pathId);
  if (!p.ok) return { ok: false, error: 'Invalid trace_id in path or payload.' };
  const ids = new Set<string>();
  for (const s of spans) {
    const t = parseTraceId(String(s.trace_id));
    if (!t.ok) return { ok: false, error: 'Invalid trace_id in path or payload.' };
    ids.add(t.value);
  }
  if (payloadId != null) {
    const t = parseTraceId(payloadId);
    if (!t.ok) return { ok: false, error: 'Invalid trace_id in path or payload.' };
    ids.add(t.value);
  }
  if (ids.size !== 1) return { ok: false, error: 'Trace payload must contain exactly one trace_id.' };
  const only = [...ids][0]!;
  if (only !== p.value) return { ok: false, error: `Path trace_id '${pathId}' does not match payload trace_id '${only}'.` };
  return { ok: true, value: p.value };
}
