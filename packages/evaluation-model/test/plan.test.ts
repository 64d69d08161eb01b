// What the server executes of a run (run/plan.ts): the graphs of reference evaluations §4.2, and
// the statuses of §3.3.
import { describe, expect, it } from 'vitest';
import { finalStatus, planExecution, scenarioStatus, type PlannedStep } from '../src/run/plan.ts';

const testset: PlannedStep = { key: 'testset-t', type: 'input', origin: 'custom', references: { testset_revision: { id: 't' } } };
const query: PlannedStep = { key: 'query-q', type: 'input', origin: 'custom', references: { query_revision: { id: 'q' } } };
const direct: PlannedStep = { key: 'traces', type: 'input', origin: 'custom', references: {} };
const app = (k: string): PlannedStep => ({ key: `application-${k}`, type: 'invocation', origin: 'auto', references: { application_revision: { id: k } } });
const ev = (k: string, origin: PlannedStep['origin'] = 'auto'): PlannedStep => ({ key: `evaluator-${k}`, type: 'annotation', origin, references: { evaluator_revision: { id: k } } });

describe('planExecution', () => {
  it.each([
    ['testset → application → evaluators', [testset, app('a'), ev('e'), ev('h', 'human')], true],
    ['testset → evaluators', [testset, ev('e')], true],
    ['testset → application', [testset, app('a')], true],
  ])('executes %s', (_name, steps, ok) => {
    const plan = planExecution(steps as PlannedStep[], {});
    expect(plan.ok).toBe(ok);
    if (plan.ok) {
      expect(plan.source).toBe('testsets');
      expect(plan.inputs.map((s) => s.key)).toEqual(['testset-t']);
      expect(plan.evaluators).toHaveLength((steps as PlannedStep[]).filter((s) => s.type === 'annotation').length);
    }
  });

  it.each([
    ['no source', [ev('e')], {}, 'The run has no source to execute.'],
    ['queries and testsets', [query, testset, ev('e')], {}, 'A run cannot read both queries and testsets.'],
    ['two applications', [testset, app('a'), app('b'), ev('e')], {}, 'A run can invoke at most one application.'],
    ['a query feeding an application', [query, app('a')], {}, 'Query sources cannot feed an application.'],
    ['a live testset run', [testset, ev('e')], { is_live: true }, 'Testset runs cannot be live.'],
    ['a live query run outside a tick', [query, ev('e')], { is_live: true }, 'Live runs over queries are executed by the live-run cron (POST /admin/evaluations/runs/refresh), not on dispatch.'],
    ['a direct queue (not built)', [direct, ev('e')], {}, 'Runs over traces or testcases added directly are not executed by this server yet.'],
  ])('refuses %s', (_name, steps, flags, reason) => {
    expect(planExecution(steps as PlannedStep[], flags)).toEqual({ ok: false, reason });
  });
});

describe('query runs', () => {
  it('executes a batch query → evaluators run, and a live one on its ticks only', () => {
    expect(planExecution([query, ev('e'), ev('h', 'human')], {})).toMatchObject({ ok: true, source: 'queries', inputs: [query], application: undefined });
    expect(planExecution([query, ev('e')], { is_live: true }, true)).toMatchObject({ ok: true, source: 'queries' });
    expect(planExecution([testset, ev('e')], {}, true)).toEqual({ ok: false, reason: 'Only live runs over queries have ticks.' });
  });
});

describe('statuses', () => {
  it('a scenario is errors over pending over success', () => {
    expect(scenarioStatus(['success', 'failure', 'pending'], false)).toBe('errors');
    expect(scenarioStatus(['success', 'pending'], false)).toBe('pending');
    expect(scenarioStatus(['success'], false)).toBe('success');
    expect(scenarioStatus(['success'], true)).toBe('errors');
  });
  it('a run is errors over running over success, and never leaves failure or errors', () => {
    expect(finalStatus('running', ['success', 'errors', 'pending'])).toBe('errors');
    expect(finalStatus('running', ['success', 'pending'])).toBe('running');
    expect(finalStatus('running', ['success', 'success'])).toBe('success');
    expect(finalStatus('running', [])).toBe('success');
    expect(finalStatus('failure', ['success'])).toBe('failure');
    expect(finalStatus('errors', ['success'])).toBe('errors');
  });
});
