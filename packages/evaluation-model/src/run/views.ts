// How runs, scenarios, results and metrics read to a client (reference evaluations §2.3): every
// object carries `id`, `version`, its lifecycle and omits null fields; ids read back dashed.
import type { MetricRow, ResultRow, RunRow, ScenarioRow } from './reads.ts';

/** The object version the reference's clients send and read. */
export const EVALUATION_OBJECT_VERSION = '2025-07-14';

type Json = Record<string, unknown>;
const withoutNulls = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const num = (s: string | null): number | null => (s === null ? null : Number(s));

function lifecycle(r: { id: string; created_at: Date; created_by_id: string | null; updated_at: Date | null; updated_by_id: string | null }): Json {
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
