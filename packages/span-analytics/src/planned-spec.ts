// A spec with what the query computes for it: its source column or JSON path, and its type, `*`
// resolved. `*` on a column is known from the column; `*` on a JSON path is decided by the data
// (see auto-type.ts).
import type { ConcreteMetricType, MetricSpec } from './metric-spec.ts';
import { metricSource, type MetricSource } from './metric-source.ts';

export interface PlannedSpec {
  spec: MetricSpec;
  source: MetricSource;
  /** What is computed; undefined = nothing (`none`, no path, or `*` with no values to go by). */
  type: ConcreteMetricType | undefined;
  /** `*` on a JSON path whose type the data has not been asked for yet. */
  needsProbe: boolean;
}

/** The type `*` takes for a column-backed source. */
function columnAutoType(source: MetricSource): ConcreteMetricType | undefined {
  switch (source.kind) {
    case 'number-column':
    case 'map-entry':
      return 'numeric/continuous';
    case 'string-column':
      return 'categorical/single';
    case 'map-object':
      return 'json';
    case 'json':
      return undefined;
  }
}

export function planSpecs(specs: readonly MetricSpec[]): PlannedSpec[] {
  return specs.map((spec) => {
    const source = metricSource(spec.segments);
    if (spec.type === 'none' || spec.segments.length === 0) return { spec, source, type: undefined, needsProbe: false };
    if (spec.type !== '*') return { spec, source, type: spec.type, needsProbe: false };
    const type = columnAutoType(source);
    return { spec, source, type, needsProbe: type === undefined };
  });
}
