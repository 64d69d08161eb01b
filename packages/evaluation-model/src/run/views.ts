// How runs, scenarios, results and metrics read to a client (reference evaluations §2.3): every
// object carries `id`, `version`, its lifecycle and omits null fields; ids read back dashed.
import type { MetricRow, ResultRow, RunRow, ScenarioRow } from './reads.ts';

/** The object version the reference's clients send and read. */
export const EVALUATION_OBJECT_VERSION = '2025-07-14';

type Json = Record<string, unknown>;
export const withoutNulls = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
export const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const num = (s: string | null): number | null => (s === null ? null : Number(s));

export function lifecycle(r: { id: string; created_at: Date; created_by_id: string | null; updated_at: Date | null; updated_by_id: string | null }): Json {
  return { id: r.id, version: EVALUATION_OBJECT_VERSION, created_at: iso(r.created_at), created_by_id: r.created_by_id, updated_at: iso(r.updated_at), updated_by_id: r.updated_by_id };
}

export function runView(r: RunRow): Json {
  return withoutNulls({ ...lifecycle(r), name: r.name, description: r.description, status: r.status, flags: r.flags, tags: r.tags, meta: r.meta, data: r.data });
}

export function scenarioView(s: ScenarioRow): Json {
  return withoutNulls({ ...lifecycle(s), run_id: s.run_id, status: s.status, interval: num(s.interval), timestamp: iso(s.timestamp), flags: s.flags, tags: s.tags, meta: s.meta });
}

export function resultView(r: ResultRow): Json {
  return withoutNulls({
    ...lifecycle(r), run_id: r.run_id, scenario_id: r.scenario_id, step_key: r.step_key, repeat_idx: r.repeat_idx, status: r.status,
    trace_id: r.trace_id, hash_id: r.hash_id, testcase_id: r.testcase_id, error: r.error, interval: num(r.interval), timestamp: iso(r.timestamp),
    flags: r.flags, tags: r.tags, meta: r.meta,
  });
}

export function metricView(m: MetricRow): Json {
  return withoutNulls({
    ...lifecycle(m), run_id: m.run_id, scenario_id: m.scenario_id, timestamp: iso(m.timestamp), interval: num(m.interval), status: m.status, data: m.data,
    flags: m.flags, tags: m.tags, meta: m.meta,
  });
}

/** The step maps of a simple evaluation: revision id → origin, per kind of step (§2.4). */
function stepMaps(data: Json | null): Record<string, Record<string, string>> {
  const maps: Record<string, Record<string, string>> = { query_steps: {}, testset_steps: {}, application_steps: {}, evaluator_steps: {} };
  const steps = Array.isArray(data?.steps) ? (data.steps as Array<{ type?: string; origin?: string; references?: Record<string, { id?: string } | undefined> }>) : [];
  for (const s of steps) {
    const refs = s.references ?? {};
    const add = (map: string, ref: string): void => { const id = refs[ref]?.id; if (typeof id === 'string') maps[map]![id] = s.origin ?? 'custom'; };
    // Query inputs are reported once, under query_steps (the reference also lists them as testset steps: a [quirk]).
    if (s.type === 'input') { if (refs.query_revision) add('query_steps', 'query_revision'); else add('testset_steps', 'testset_revision'); }
    if (s.type === 'invocation') add('application_steps', 'application_revision');
    if (s.type === 'annotation') add('evaluator_steps', 'evaluator_revision');
  }
  return maps;
}

/** A run as a simple evaluation (§2.4): its step references as maps of revision id → origin. */
export function simpleEvaluationView(r: RunRow): Json {
  const repeats = typeof r.data?.repeats === 'number' ? r.data.repeats : null;
  return withoutNulls({
    ...lifecycle(r), name: r.name, description: r.description, flags: r.flags, tags: r.tags, meta: r.meta,
    data: withoutNulls({ status: r.status, ...stepMaps(r.data), repeats }),
  });
}
