// MetricSpec, the `specs` entries of spec-driven analytics (reference §6.1): which value to read
// (`path`, always inside `attributes`) and how to summarise it (`type`).
import { text } from '@llm/contracts';
import { z } from 'zod';

import { MAX_BINS, MAX_PATH_LENGTH, MAX_PATH_SEGMENTS, MAX_SPECS } from './limits.ts';

export const METRIC_TYPES = [
  'numeric/continuous',
  'numeric/discrete',
  'binary',
  'categorical/single',
  'categorical/multiple',
  'string',
  'json',
  '*',
  'none',
] as const;

export type MetricType = (typeof METRIC_TYPES)[number];
/** The types that compute something (`*` resolves to one of them, `none` computes nothing). */
export type ConcreteMetricType = Exclude<MetricType, '*' | 'none'>;

export const CONCRETE_METRIC_TYPES: readonly ConcreteMetricType[] = METRIC_TYPES.filter(
  (t): t is ConcreteMetricType => t !== '*' && t !== 'none',
);

/** A spec as the rest of the package uses it: defaults applied, the path split. */
export interface MetricSpec {
  type: MetricType;
  /** `attributes.<dotted path>` (the key of the spec's metrics in each bucket), or `*` (no path). */
  path: string;
  /** The path's segments inside `attributes`; empty when the path is `*`. */
  segments: string[];
  /** numeric/continuous: number of histogram bins (default ⌈√n⌉ per bucket). */
  bins?: number;
  /** numeric/continuous: histogram range (default: the bucket's min and max). */
  vmin?: number;
  vmax?: number;
  /** numeric/continuous: true = bins span [min, max] edge to edge; false = bin centres do. */
  edge: boolean;
}

/** What the response echoes for a spec (the wire form, without the split path). */
export interface MetricSpecEcho {
  type: MetricType;
  path: string;
  bins?: number;
  vmin?: number;
  vmax?: number;
  edge?: boolean;
}

const HISTOGRAM_OPTIONS = ['bins', 'vmin', 'vmax', 'edge'] as const;
const ATTRIBUTES_PREFIX = 'attributes.';

const clip = (v: unknown): string => {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
};

const RawSpecSchema = z.strictObject({
  // The reference defaults to `none` (a spec that computes nothing); a client that names a path
  // and no type wants that value summarised, so the default is `*` (chosen from the data).
  type: z
    .enum(METRIC_TYPES, { error: (iss) => `unknown metric type '${clip(iss.input)}' (one of: ${METRIC_TYPES.join(', ')})` })
    .default('*'),
  path: text({ max: MAX_PATH_LENGTH, label: 'path' }).default('*'),
  bins: z
    .number({ error: 'bins must be a number' })
    .int({ error: 'bins must be an integer' })
    .min(1, { error: 'bins must be at least 1' })
    .max(MAX_BINS, { error: `bins must be at most ${MAX_BINS}` })
    .nullish(),
  vmin: z.number({ error: 'vmin must be a finite number' }).nullish(),
  vmax: z.number({ error: 'vmax must be a finite number' }).nullish(),
  edge: z.boolean({ error: 'edge must be a boolean' }).nullish(),
});

type RawSpec = z.output<typeof RawSpecSchema>;

export const MetricSpecSchema = RawSpecSchema.superRefine((s, ctx) => {
  const split = splitPath(s.path);
  if (!split.ok) ctx.addIssue({ code: 'custom', path: ['path'], message: split.error });
  else if (split.segments.length === 0 && s.type !== '*' && s.type !== 'none') {
    ctx.addIssue({ code: 'custom', path: ['path'], message: `type '${s.type}' needs a path, e.g. 'attributes.ag.metrics.duration.cumulative'` });
  }
  if (s.type !== 'numeric/continuous' && s.type !== '*') {
    for (const k of HISTOGRAM_OPTIONS) {
      if (s[k] != null) ctx.addIssue({ code: 'custom', path: [k], message: `${k} applies to numeric/continuous specs only (histograms), not '${s.type}'` });
    }
  }
  if (s.vmin != null && s.vmax != null && s.vmin > s.vmax) {
    ctx.addIssue({ code: 'custom', path: ['vmax'], message: 'vmax must not be below vmin' });
  }
}).transform((s): MetricSpec => normalize(s));

/** A list of specs, or its JSON text (query parameters carry `specs` as text). */
export const MetricSpecsSchema = z
  .preprocess(
    parseJsonText,
    z.array(MetricSpecSchema, { error: 'specs must be a list of metric specs' }).max(MAX_SPECS, { error: `at most ${MAX_SPECS} specs` }),
  )
  .superRefine((specs, ctx) => {
    // Each bucket keys its metrics by path: two specs on one path would overwrite each other.
    const seen = new Map<string, number>();
    specs.forEach((s, i) => {
      // zod still runs this check when some element failed; such elements are not specs yet.
      if (!Array.isArray(s?.segments) || s.segments.length === 0) return;
      const first = seen.get(s.path);
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: [i, 'path'], message: `path '${s.path}' is already used by specs[${first}]` });
      else seen.set(s.path, i);
    });
  });

/** The reference's defaults, used when `specs` is absent or empty. */
export const DEFAULT_SPECS: readonly MetricSpec[] = [
  ['numeric/continuous', 'ag.metrics.duration.cumulative'],
  ['numeric/continuous', 'ag.metrics.errors.cumulative'],
  ['numeric/continuous', 'ag.metrics.costs.cumulative.total'],
  ['numeric/continuous', 'ag.metrics.tokens.cumulative.total'],
  ['categorical/single', 'ag.type.trace'],
  ['categorical/single', 'ag.type.span'],
].map(([type, path]) => normalize({ type: type as MetricType, path: path as string }));

export interface SpecIssue {
  /** Relative to `specs`, e.g. `[1, 'type']`. */
  path: Array<string | number>;
  message: string;
}

export type ParseSpecsResult = { ok: true; specs: MetricSpec[] } | { ok: false; issues: SpecIssue[] };

/** `specs` as the request gives it (a list, its JSON text, or nothing) → specs, defaults applied. */
export function parseSpecs(input: unknown): ParseSpecsResult {
  if (input === undefined || input === null || (typeof input === 'string' && input.trim() === '')) return { ok: true, specs: [...DEFAULT_SPECS] };
  const r = MetricSpecsSchema.safeParse(input);
  if (!r.success) {
    return { ok: false, issues: r.error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'number' ? p : String(p))), message: i.message })) };
  }
  return { ok: true, specs: r.data.length === 0 ? [...DEFAULT_SPECS] : r.data };
}

/** The wire form of a spec (what the response echoes). */
export function echoSpec(s: MetricSpec): MetricSpecEcho {
  const out: MetricSpecEcho = { type: s.type, path: s.path };
  if (s.type === 'numeric/continuous' || s.type === '*') {
    if (s.bins !== undefined) out.bins = s.bins;
    if (s.vmin !== undefined) out.vmin = s.vmin;
    if (s.vmax !== undefined) out.vmax = s.vmax;
    if (s.type === 'numeric/continuous') out.edge = s.edge;
  }
  return out;
}

function normalize(s: Pick<RawSpec, 'type' | 'path'> & Partial<RawSpec>): MetricSpec {
  const split = splitPath(s.path);
  const segments = split.ok ? split.segments : [];
  const out: MetricSpec = { type: s.type, path: segments.length === 0 ? '*' : `${ATTRIBUTES_PREFIX}${segments.join('.')}`, segments, edge: s.edge ?? true };
  if (s.bins != null) out.bins = s.bins;
  if (s.vmin != null) out.vmin = s.vmin;
  if (s.vmax != null) out.vmax = s.vmax;
  return out;
}

/**
 * `attributes.ag.metrics.duration.cumulative` or `ag.metrics.duration.cumulative` → the segments
 * inside attributes (a leading `attributes.` is optional, as in the reference). `*` means no path.
 */
export function splitPath(path: string): { ok: true; segments: string[] } | { ok: false; error: string } {
  if (path === '*') return { ok: true, segments: [] };
  const inside = path.startsWith(ATTRIBUTES_PREFIX) ? path.slice(ATTRIBUTES_PREFIX.length) : path;
  if (inside === '' || path === 'attributes') return { ok: false, error: `path '${clip(path)}' must name a value inside attributes, e.g. 'attributes.ag.metrics.duration.cumulative'` };
  const segments = inside.split('.');
  if (segments.length > MAX_PATH_SEGMENTS) return { ok: false, error: `path has more than ${MAX_PATH_SEGMENTS} segments` };
  if (segments.some((s) => s === '')) return { ok: false, error: `path '${clip(path)}' has an empty segment` };
  if (segments.some((s) => s === '*')) return { ok: false, error: `path '${clip(path)}': wildcards are not supported; name one value` };
  return { ok: true, segments };
}

// Unparsable text is passed on unchanged so that the array schema reports "must be a list".
function parseJsonText(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}
