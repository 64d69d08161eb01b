// POST /evaluations/metrics/refresh (reference evaluations §2.3, §3.4): metric rows recomputed from
// the traces of the runs' cells. `run_ids` → the global row of each run; `scenario_ids` → the
// variational row of each scenario of `run_id`; otherwise the row of `run_id` (+ `scenario_id`).
// No run named → no rows. A key none of whose cells has a trace has no row. A closed run is 409 (the
// reference answers an empty 200: a [quirk]). Temporal keys (`timestamp(s)`, live runs) are not
// computed yet: they answer no rows.
import { metricView } from '@llm/evaluation-model';
import { metricsRefresh } from '@llm/contracts';
import { validate, type Handlers, type Guards } from '@llm/http';
import type { MetricsRefresh } from '../adapters/metrics-refresh.ts';

export function metricRefreshRoutes(deps: { refresh: MetricsRefresh }, guards: Guards<'edit'>): Handlers {
  return {
    'evaluations.metrics.refresh': [...guards.edit, async (req, res) => {
      const m = validate(metricsRefresh, req.body).metrics;
      const keys: Array<{ runId: string; scenarioId?: string }> = [];
      if (m.run_ids && m.run_ids.length > 0) for (const runId of m.run_ids) keys.push({ runId });
      else if (m.run_id && !m.timestamp && !(m.timestamps && m.timestamps.length)) {
        if (m.scenario_ids && m.scenario_ids.length > 0) for (const scenarioId of m.scenario_ids) keys.push({ runId: m.run_id, scenarioId });
        else keys.push({ runId: m.run_id, ...(m.scenario_id ? { scenarioId: m.scenario_id } : {}) });
      }
      const rows = [];
      for (const k of keys) {
        const row = await deps.refresh.refresh(req, k.runId, k.scenarioId);
        if (row) rows.push(metricView(row));
      }
      res.json({ count: rows.length, metrics: rows });
    }],
  };
}
