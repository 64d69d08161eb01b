// Event payloads from validated request bodies (pure): absent values become the wire's '' / -1, the
// JSON the client sent becomes JSON text, a run's `has_*` flags follow from its steps (§3.2).
import { runFlags, type RunFlags, type RunRow, type RunStep, type ScenarioRow } from '@llm/evaluation-model';
import type { EvaluationMetricInfo, EvaluationResultInfo, EvaluationRunInfo, EvaluationScenarioInfo } from '@llm/events';
import type { ResultWrite } from '@llm/contracts';

type Json = Record<string, unknown>;
const json = (v: unknown): string => (v === undefined || v === null ? '' : JSON.stringify(v));
const orNone = (n: number | null | undefined): number => (n === undefined || n === null ? -1 : n);

export interface RunFields {
  name?: string | null | undefined; description?: string | null | undefined; status?: string | null | undefined;
  flags?: Json | null | undefined; tags?: Json | null | undefined; meta?: Json | null | undefined;
  data?: (Json & { steps?: RunStep[] | null | undefined }) | null | undefined;
}

/** A new run: status as sent (pending by default), flags from the caller with `has_*` derived from the steps. */
export function newRun(id: string, r: RunFields): EvaluationRunInfo {
  const flags: RunFlags = runFlags(r.flags ?? undefined, r.data?.steps ?? undefined);
  return {
    run_id: id, name: r.name ?? '', description: r.description ?? '', status: r.status ?? 'pending',
    flags_json: JSON.stringify(flags), tags_json: json(r.tags), meta_json: json(r.meta), data_json: json(r.data),
  };
}

/**
 * A run edited (reference §2.3): sent columns replace the stored ones, omitted ones stay; `flags`
 * merge over the stored flags; `data` is replaced whole, and `has_*` are recomputed from the steps
 * it carries (kept when no data is sent).
 */
export function editedRun(stored: RunRow, r: RunFields): EvaluationRunInfo {
  const mergedFlags: Json = { ...stored.flags, ...(r.flags ?? {}) };
  const data = r.data !== undefined && r.data !== null ? r.data : stored.data;
  const derived = r.data !== undefined && r.data !== null ? runFlags(mergedFlags, r.data.steps ?? undefined) : mergedFlags;
  // The lifecycle flags are the lifecycle's: an edit does not open, close or activate a run.
  const flags = { ...derived, is_closed: stored.flags.is_closed === true, is_active: stored.flags.is_active === true };
  return {
    run_id: stored.id,
    name: r.name !== undefined && r.name !== null ? r.name : stored.name ?? '',
    description: r.description !== undefined && r.description !== null ? r.description : stored.description ?? '',
    status: r.status ?? stored.status,
    flags_json: JSON.stringify(flags),
    tags_json: json(r.tags !== undefined && r.tags !== null ? r.tags : stored.tags),
    meta_json: json(r.meta !== undefined && r.meta !== null ? r.meta : stored.meta),
    data_json: json(data),
  };
}

export interface ScenarioFields {
  status?: string | null | undefined; interval?: number | null | undefined; timestamp?: string | null | undefined;
  flags?: Json | null | undefined; tags?: Json | null | undefined; meta?: Json | null | undefined;
}

export function newScenario(id: string, s: ScenarioFields, defaultStatus = 'pending'): EvaluationScenarioInfo {
  return {
    scenario_id: id, status: s.status ?? defaultStatus, timestamp: s.timestamp ?? '', interval: orNone(s.interval),
    flags_json: json(s.flags), tags_json: json(s.tags), meta_json: json(s.meta),
  };
}

/** A scenario edited: only the non-null fields sent replace the stored ones (reference §2.3). */
export function editedScenario(stored: ScenarioRow, s: ScenarioFields): EvaluationScenarioInfo {
  const keep = <T>(sent: T | null | undefined, old: T): T => (sent === undefined || sent === null ? old : sent);
  return {
    scenario_id: stored.id,
    status: keep(s.status, stored.status),
    timestamp: keep(s.timestamp, stored.timestamp ? stored.timestamp.toISOString() : ''),
    interval: keep(s.interval, stored.interval === null ? -1 : Number(stored.interval)),
    flags_json: json(keep(s.flags, stored.flags)), tags_json: json(keep(s.tags, stored.tags)), meta_json: json(keep(s.meta, stored.meta)),
  };
}

/** A cell as written (an upsert: absent columns become null, status pending). */
export function resultInfo(id: string, r: Omit<ResultWrite, 'run_id'>): EvaluationResultInfo {
  return {
    result_id: id, scenario_id: r.scenario_id, step_key: r.step_key, repeat_idx: r.repeat_idx ?? 0, status: r.status ?? 'pending',
    trace_id: r.trace_id ?? '', hash_id: r.hash_id ?? '', testcase_id: r.testcase_id ?? '', error_json: json(r.error),
    timestamp: r.timestamp ?? '', interval: orNone(r.interval), flags_json: json(r.flags), tags_json: json(r.tags), meta_json: json(r.meta),
  };
}

export interface MetricFields extends ScenarioFields { scenario_id?: string | null | undefined; data?: Json | null | undefined }

export function metricInfo(id: string, m: MetricFields): EvaluationMetricInfo {
  return {
    metric_id: id, scenario_id: m.scenario_id ?? '', timestamp: m.timestamp ?? '', interval: orNone(m.interval), status: m.status ?? 'success',
    data_json: json(m.data), flags_json: json(m.flags), tags_json: json(m.tags), meta_json: json(m.meta),
  };
}

/** Items grouped by run, in first-seen order (one event per run). */
export function byRun<T extends { run_id: string }>(items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const list = out.get(item.run_id) ?? [];
    list.push(item);
    out.set(item.run_id, list);
  }
  return out;
}
