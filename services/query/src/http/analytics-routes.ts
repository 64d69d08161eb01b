// Analytics of the tracing read side (reference §6): spec-driven POST /spans/analytics/query (and its
// deprecated twin POST /tracing/analytics/query), and the legacy fixed schema POST
// /tracing/spans/analytics. Inputs come in the flat style (query parameters and/or a flat body). The
// statements are built by packages/span-analytics and always scoped to the caller's project.
//
// Bad input is never answered with an empty 200: a bad filter is a 400 naming the condition; bad
// specs, unknown keys, ambiguous timestamps and `newest <= oldest` are 422s; a store failure or
// timeout is a 503 with Retry-After (ReadModel).
import type { Request, RequestHandler } from 'express';
import { invalid } from '@llm/errors';
import { analyticsInput, legacyAnalyticsInput } from '@llm/contracts';
import { RequestValidationError, type Handlers, type ValidationIssue, type Guards } from '@llm/http';
import { FilteringSchema } from '@llm/span-filter';
import {
  buildAnalyticsQuery,
  buildAutoTypeProbe,
  buildLegacyQuery,
  compileScope,
  echoSpec,
  isoUtc,
  parseSpecs,
  planBuckets,
  planSpecs,
  resolveAutoTypes,
  resolveWindow,
  shapeAnalytics,
  shapeLegacy,
  type BucketPlan,
  type Focus,
  type PlannedSpec,
  type Scope,
} from '@llm/span-analytics';
import { parseTimestampMicros } from '@llm/span-model';
import { RETAINED_FROM_PARAM, RETAINED_SPANS_SQL } from '@llm/span-table';
import type { AnalyticsReader } from '../adapters/analytics-reader.ts';
import { flatInputs, sourceOf } from './flat-inputs.ts';

const PROJECT = 'a_project';

// The inputs (flat fields, `interval`, `rate`, `specs`) are @llm/contracts' analyticsInput and legacyAnalyticsInput.
const AnalyticsInputSchema = analyticsInput;
const LegacyInputSchema = legacyAnalyticsInput;

// Timestamps beyond these are typos, not windows (ClickHouse would clamp them silently, and epoch µs
// stay exact integers in a double only until 2255).
const MIN_US = Date.UTC(1900, 0, 1) * 1000;
const MAX_US = Date.UTC(2200, 0, 1) * 1000;

/** The inputs both kinds of analytics share (as the flat schemas give them). */
interface CommonInputs {
  focus?: Focus | undefined;
  oldest?: string | number | undefined;
  newest?: string | number | undefined;
  interval?: number | undefined;
  rate?: number | undefined;
  filter?: unknown;
}

interface Common {
  focus: Focus;
  plan: BucketPlan;
  scope: Scope;
}

function issue(req: Request, field: string, msg: string): RequestValidationError {
  return new RequestValidationError([{ loc: [sourceOf(req, field), field], msg, type: 'value_error' }]);
}

function timestamp(req: Request, field: 'oldest' | 'newest', v: string | number | undefined): number | undefined {
  if (v === undefined) return undefined;
  const r = parseTimestampMicros(v);
  if (!r.ok) throw issue(req, field, r.error);
  if (r.value < MIN_US || r.value >= MAX_US) throw issue(req, field, `timestamp ${String(v)} is outside 1900-2199`);
  return r.value;
}

/** Window, buckets and the WHERE clause shared by both kinds of analytics. */
async function common(reader: AnalyticsReader, req: Request, i: CommonInputs): Promise<Common> {
  const oldestUs = timestamp(req, 'oldest', i.oldest);
  const newestUs = timestamp(req, 'newest', i.newest);
  const w = resolveWindow({ ...(oldestUs !== undefined ? { oldestUs } : {}), ...(newestUs !== undefined ? { newestUs } : {}) }, Date.now() * 1000);
  if (!w.ok) throw issue(req, w.field, w.message);
  const focus = i.focus ?? 'trace';
  const plan = planBuckets(w.window, i.interval);
  const s = compileScope({ filter: i.filter, focus, window: w.window, ...(i.rate !== undefined ? { rate: i.rate } : {}) }, { projectParam: PROJECT });
  if (!s.ok) {
    if (s.kind === 'filter') throw invalid('invalid_filter', s.errors.map((e) => e.message).join('; '));
    throw new RequestValidationError(s.errors.map((e) => ({ loc: [sourceOf(req, 'rate'), 'rate'], msg: e.message, type: 'value_error' })));
  }
  // The project's retention bound (issue 30) on every statement of the request.
  const retained = await reader.retention(req.scope.projectId);
  const scope: Scope = {
    where: `${s.scope.where} AND (${RETAINED_SPANS_SQL})`,
    params: { ...s.scope.params, [PROJECT]: { type: 'String', value: req.scope.projectId }, [RETAINED_FROM_PARAM]: { type: 'Int64', value: retained[RETAINED_FROM_PARAM] } },
  };
  return { focus, plan, scope };
}

/** The filter as the response echoes it: the parsed object, defaults filled in. */
function filteringEcho(filter: unknown): unknown {
  if (filter === undefined || filter === null || filter === '') return { operator: 'and', conditions: [] };
  const r = FilteringSchema.safeParse(filter);
  return r.success ? r.data : filter;
}

/** A `*` spec is echoed with the type it resolved to, so a client sees what was computed. */
function specEcho(p: PlannedSpec) {
  return echoSpec(p.spec.type === '*' && p.type !== undefined ? { ...p.spec, type: p.type } : p.spec);
}

export function analyticsRoutes(deps: { reader: AnalyticsReader }, guards: Guards<'auth'>): Handlers {
  const { reader } = deps;
  const specDriven: RequestHandler = async (req, res) => {
    const i = flatInputs(req, AnalyticsInputSchema);
    const parsed = parseSpecs(i.specs);
    if (!parsed.ok) {
      throw new RequestValidationError(parsed.issues.map((x): ValidationIssue => ({ loc: [sourceOf(req, 'specs'), 'specs', ...x.path], msg: x.message, type: 'value_error' })));
    }
    const c = await common(reader, req, i);
    let planned = planSpecs(parsed.specs);
    const probe = buildAutoTypeProbe(reader.tableFor(c.focus), c.scope, planned);
    if (probe) planned = resolveAutoTypes(planned, (await reader.rows(probe))[0]);
    const st = buildAnalyticsQuery(reader.tableFor(c.focus), c.scope, c.plan, planned);
    const buckets = st ? shapeAnalytics(await reader.rows(st), c.plan, planned) : [];
    res.json({
      count: buckets.length,
      buckets,
      query: {
        formatting: { focus: c.focus, format: i.format ?? 'agenta' },
        windowing: {
          oldest: isoUtc(c.plan.oldestUs),
          newest: isoUtc(c.plan.newestUs),
          interval: c.plan.intervalS,
          ...(i.rate !== undefined ? { rate: i.rate } : {}),
        },
        filtering: filteringEcho(i.filter),
      },
      specs: planned.map(specEcho),
    });
  };

  const legacy: RequestHandler = async (req, res) => {
    const i = flatInputs(req, LegacyInputSchema);
    const c = await common(reader, req, i);
    const buckets = shapeLegacy(await reader.rows(buildLegacyQuery(reader.tableFor(c.focus), c.scope, c.plan, c.focus)), c.plan);
    res.json({ count: buckets.length, buckets });
  };

  return {
    'spans.analytics.query': [...guards.auth, specDriven],
    'tracing.analytics.query': [...guards.auth, specDriven],
    'tracing.spans.analytics': [...guards.auth, legacy],
  };
}
