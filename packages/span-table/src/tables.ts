// The names of the span read model's tables. Replay builds a second set beside the live one with a
// suffix and swaps them in; everything that reads or writes takes the set it works on.

export interface SpanTables {
  /** One row per span version (ordered by project, start_time). */
  spans: string;
  /** First and last span start per trace (reads by trace id go through it). */
  traceIndex: string;
  /** The root spans alone, same columns and versions (trace-focused analytics read it). */
  roots: string;
}

export function spanTables(suffix = ''): SpanTables {
  if (!/^[A-Za-z0-9_]*$/.test(suffix)) throw new Error(`bad table suffix '${suffix}'`);
  return { spans: `spans${suffix}`, traceIndex: `trace_index${suffix}`, roots: `trace_roots${suffix}` };
}
