// Which spans an analytics request summarises: the caller's project (always), the filter, the time
// window on start_time, the population of its focus, and the sampling rate. One WHERE clause shared
// by every statement of the request.
import { compileFilter, compileWindowing, type FilterError, type SqlParams } from '@llm/span-filter';

import type { Window } from './bucket-plan.ts';
import { ParamBag } from './sql-params.ts';

/**
 * `trace` (the default): root spans only, one row per trace, as the reference summarises traces.
 * `span`: every span. (The reference ignores focus in spec analytics and always takes roots; here
 * the same rule holds for both analytics endpoints.)
 */
export type Focus = 'trace' | 'span';

export interface ScopeInput {
  /** The request's filter: a filtering object, its JSON text, or nothing. */
  filter: unknown;
  focus: Focus;
  window: Window;
  /** Sampling by trace in (0, 1]; the rule of span-filter's windowing. */
  rate?: number;
}

export interface Scope {
  /** A boolean expression over `spans` rows; the project clause comes first. */
  where: string;
  params: SqlParams;
}

export type ScopeResult = { ok: true; scope: Scope } | { ok: false; kind: 'filter' | 'rate'; errors: FilterError[] };

export function compileScope(input: ScopeInput, ctx: { projectParam: string }): ScopeResult {
  const f = compileFilter(input.filter, { projectParam: ctx.projectParam, root: 'filter' });
  if (!f.ok) return { ok: false, kind: 'filter', errors: f.errors };
  const bag = new ParamBag();
  // The table is ordered by (project_id, start_time): these bounds are a primary-key range.
  const parts = [
    f.sql,
    'is_deleted = 0',
    `start_time >= fromUnixTimestamp64Micro(${bag.ref('oldest', 'Int64', input.window.oldestUs)}, 'UTC')`,
    `start_time < fromUnixTimestamp64Micro(${bag.ref('newest', 'Int64', input.window.newestUs)}, 'UTC')`,
  ];
  // `is_root` is `parent_id = ''` materialized as one byte (migration 0003): cheaper to scan.
  if (input.focus === 'trace') parts.push('is_root = 1');
  let params: SqlParams = { ...f.params, ...bag.params };
  if (input.rate !== undefined) {
    const w = compileWindowing({ rate: input.rate }, 'span', { paramPrefix: 'a_w_', root: 'rate' });
    if (!w.ok) return { ok: false, kind: 'rate', errors: w.errors };
    if (w.where !== '1') parts.push(w.where);
    params = { ...params, ...w.params };
  }
  return { ok: true, scope: { where: parts.map((p) => `(${p})`).join(' AND '), params } };
}
