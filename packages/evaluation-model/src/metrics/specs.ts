// Which metrics a run step's traces get (reference evaluations §3.4), pure: the four cumulative
// metrics of every invocation and annotation step, plus one per leaf of the step's outputs schema at
// `attributes.ag.data.outputs.<path>` typed by the leaf (number → numeric/continuous, integer →
// numeric/discrete, boolean → binary, string with enum → categorical/single, string → string, array
// of enum strings → categorical/multiple, object without properties → json). Without a declared
// schema, one is inferred from sample outputs (the root spans of the step's first traces).

export interface StepMetricSpec { type: string; path: string }

const OUTPUTS = 'attributes.ag.data.outputs';

/** Every refreshable step's metrics, whatever its outputs. */
export const CUMULATIVE_SPECS: readonly StepMetricSpec[] = [
  { type: 'numeric/continuous', path: 'attributes.ag.metrics.duration.cumulative' },
  { type: 'numeric/continuous', path: 'attributes.ag.metrics.errors.cumulative' },
  { type: 'numeric/continuous', path: 'attributes.ag.metrics.costs.cumulative.total' },
  { type: 'numeric/continuous', path: 'attributes.ag.metrics.tokens.cumulative.total' },
];

type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Most leaves one step summarises (the analytics statement has a spec cap too). */
const MAX_LEAVES = 40;
/** Deepest nesting of an outputs object that is walked. */
const MAX_DEPTH = 6;
const SAFE_KEY = /^[A-Za-z0-9_-]{1,100}$/;

function leafType(s: Schema): string | undefined {
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'number': return 'numeric/continuous';
    case 'integer': return 'numeric/discrete';
    case 'boolean': return 'binary';
    case 'string': return Array.isArray(s.enum) ? 'categorical/single' : 'string';
    case 'array': return isObject(s.items) && Array.isArray(s.items.enum) ? 'categorical/multiple' : undefined;
    case 'object': return isObject(s.properties) && Object.keys(s.properties).length > 0 ? undefined : 'json';
    default: return undefined;
  }
}

/** The specs of an outputs JSON Schema's leaves (keys that cannot be a path segment are skipped). */
export function specsFromSchema(schema: unknown): StepMetricSpec[] {
  const out: StepMetricSpec[] = [];
  const walk = (s: unknown, path: string, depth: number): void => {
    if (!isObject(s) || out.length >= MAX_LEAVES || depth > MAX_DEPTH) return;
    if (isObject(s.properties) && Object.keys(s.properties).length > 0) {
      for (const [k, v] of Object.entries(s.properties)) if (SAFE_KEY.test(k)) walk(v, `${path}.${k}`, depth + 1);
      return;
    }
    const type = leafType(s);
    if (type !== undefined && path !== OUTPUTS) out.push({ type, path });
    else if (type === 'json' && path === OUTPUTS) out.push({ type, path });
  };
  walk(schema, OUTPUTS, 0);
  return out;
}

/**
 * A JSON Schema of sample outputs: objects by their keys (first sample that has a key wins), numbers
 * as `number` (JSON cannot tell 1.0 from 1, so a score of 1.0 is not taken for an integer), booleans,
 * strings, arrays and nested objects; nulls and unknown shapes add nothing.
 */
export function inferOutputsSchema(samples: readonly unknown[]): Schema | undefined {
  const of = (v: unknown, depth: number): Schema | undefined => {
    if (typeof v === 'number') return { type: 'number' };
    if (typeof v === 'boolean') return { type: 'boolean' };
    if (typeof v === 'string') return { type: 'string' };
    if (Array.isArray(v)) return { type: 'array' };
    if (isObject(v) && depth < MAX_DEPTH) {
      const properties: Record<string, Schema> = {};
      for (const [k, x] of Object.entries(v)) { const s = of(x, depth + 1); if (s) properties[k] = s; }
      return { type: 'object', properties };
    }
    return undefined;
  };
  const merged: Record<string, Schema> = {};
  for (const sample of samples) {
    const s = of(sample, 0);
    if (s?.type !== 'object') continue;
    for (const [k, v] of Object.entries(s.properties as Record<string, Schema>)) if (!(k in merged)) merged[k] = v;
  }
  return Object.keys(merged).length > 0 ? { type: 'object', properties: merged } : undefined;
}

/** The specs of one step: the cumulative ones, then its outputs schema's leaves. */
export function stepSpecs(outputsSchema: unknown): StepMetricSpec[] {
  return [...CUMULATIVE_SPECS, ...specsFromSchema(outputsSchema)];
}
