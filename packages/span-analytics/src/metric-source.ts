// Where a spec's value lives in the span table. The projector keeps the metrics it rolls up in their
// own columns (the stored `attributes` JSON holds the client's incremental values, never the
// roll-ups), and the span and trace types in low-cardinality columns; the query side folds them back
// into `attributes.ag.*` when it returns spans (packages/span-read/src/span-view.ts). Analytics
// reads those columns for the same paths, which is both correct (cumulative values exist only
// there) and fast (no JSON parsing). Every other path is read from the `attributes` JSON.

/** The column names here are code constants; map keys and JSON path segments become parameters. */
export type MetricSource =
  /** A Float64 column every row has (`duration_ms`, `errors_cumulative`, `errors_incremental`). */
  | { kind: 'number-column'; column: string }
  /**
   * One entry of a Map(String, Float64) column: a value only where the key is present. For roll-ups
   * (`rollup`), also only where some component is non-zero: the projector writes prompt, completion
   * and total (0 when nothing was measured) into every span's cumulative maps, while the API shows a
   * cumulative only when some component is non-zero (span-view.ts, reference §2) — a trace without
   * LLM calls has no cumulative token count, rather than a count of 0.
   */
  | { kind: 'map-entry'; column: string; key: string; rollup: boolean }
  /** A whole Map(String, Float64) column read as a JSON object (present under the same rule). */
  | { kind: 'map-object'; column: string; rollup: boolean }
  /** A String column every row has (`span_type`, `trace_type`). */
  | { kind: 'string-column'; column: string }
  /** A value inside the `attributes` JSON text. */
  | { kind: 'json'; segments: string[] };

const NUMBER_COLUMNS: Record<string, string> = {
  // Milliseconds, end − start (or the client's value when end = start; 0 when neither exists).
  'ag.metrics.duration.cumulative': 'duration_ms',
  // Exception events of the span and its descendants; 0 when there are none (the reference leaves
  // the key out then, which would drop error-free spans from the statistics).
  'ag.metrics.errors.cumulative': 'errors_cumulative',
  'ag.metrics.errors.incremental': 'errors_incremental',
};

const MAP_COLUMNS: Record<string, string> = {
  'ag.metrics.tokens.cumulative': 'tokens_cumulative',
  'ag.metrics.tokens.incremental': 'tokens_incremental',
  'ag.metrics.costs.cumulative': 'costs_cumulative',
  'ag.metrics.costs.incremental': 'costs_incremental',
};

const STRING_COLUMNS: Record<string, string> = {
  // Ingest writes the resolved types to both the column and `ag.type.*`.
  'ag.type.span': 'span_type',
  'ag.type.trace': 'trace_type',
};

const isRollup = (column: string): boolean => column.endsWith('_cumulative');

export function metricSource(segments: readonly string[]): MetricSource {
  const dotted = segments.join('.');
  const number = NUMBER_COLUMNS[dotted];
  if (number !== undefined) return { kind: 'number-column', column: number };
  const string = STRING_COLUMNS[dotted];
  if (string !== undefined) return { kind: 'string-column', column: string };
  const map = MAP_COLUMNS[dotted];
  if (map !== undefined) return { kind: 'map-object', column: map, rollup: isRollup(map) };
  if (segments.length === 5) {
    const parent = MAP_COLUMNS[segments.slice(0, 4).join('.')];
    if (parent !== undefined) return { kind: 'map-entry', column: parent, key: segments[4]!, rollup: isRollup(parent) };
  }
  return { kind: 'json', segments: [...segments] };
}
