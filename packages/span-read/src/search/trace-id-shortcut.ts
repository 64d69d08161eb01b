// Reference §5.1 "Shortcut": a filtering that is exactly one `trace_id` condition with `is` or `in`
// asks for whole traces, so it is answered as a read by id — every span of those traces, by
// start_time ascending, whatever the window or sampling rate says.
import { parseTraceId } from '@llm/span-model';

export function traceIdShortcut(filtering: unknown): string[] | undefined {
  let f = filtering;
  if (typeof f === 'string') {
    try { f = JSON.parse(f); } catch { return undefined; }
  }
  if (f === null || typeof f !== 'object' || Array.isArray(f)) return undefined;
  const { operator = 'and', conditions } = f as { operator?: unknown; conditions?: unknown };
  if ((operator !== 'and' && operator !== 'or') || !Array.isArray(conditions) || conditions.length !== 1) return undefined;
  const c = conditions[0] as Record<string, unknown> | null;
  if (c === null || typeof c !== 'object' || c.field !== 'trace_id' || 'key' in c || 'options' in c) return undefined;
  const op = c.operator ?? 'is';
  const values = op === 'is' ? [c.value] : op === 'in' && Array.isArray(c.value) ? c.value : undefined;
  if (values === undefined || values.length === 0) return undefined;
  const ids: string[] = [];
  for (const v of values) {
    const r = parseTraceId(v);
    // Anything else goes through the compiler, which names the problem.
    if (!r.ok) return undefined;
    ids.push(r.value);
  }
  return [...new Set(ids)];
}
