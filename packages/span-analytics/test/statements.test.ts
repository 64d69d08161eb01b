// The generated statements: user values never in the SQL text, every query scoped to the project and
// the window, and rows shaped into the reference's response shapes.
import { describe, expect, it } from 'vitest';

import {
  buildAnalyticsQuery,
  buildAutoTypeProbe,
  buildLegacyQuery,
  compileScope,
  parseSpecs,
  planBuckets,
  planSpecs,
  resolveAutoTypes,
  shapeAnalytics,
  shapeLegacy,
} from '../src/index.ts';

const plan = planBuckets({ oldestUs: Date.parse('2024-01-01T00:00:00Z') * 1000, newestUs: Date.parse('2024-01-01T00:03:00Z') * 1000 }, 60);
const HOSTILE = "x'); DROP TABLE llm.spans; --";

function scopeOf(filter?: unknown) {
  const r = compileScope({ filter, focus: 'trace', window: plan, rate: 0.5 }, { projectParam: 'a_project' });
  if (!r.ok) throw new Error(r.errors[0]!.message);
  return r.scope;
}

function specs(input: unknown) {
  const r = parseSpecs(input);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return planSpecs(r.specs);
}

describe('statements', () => {
  it('when paths, map keys, options and filter values are hostile, then none of them reaches the SQL text', () => {
    const sc = scopeOf({ conditions: [{ field: 'attributes', key: `tags.${HOSTILE}`, value: HOSTILE }] });
    const planned = specs([
      { type: 'numeric/continuous', path: `tags.${HOSTILE}`, bins: 7, vmin: 1.25, vmax: 9.75 },
      { type: 'numeric/discrete', path: `ag.metrics.tokens.cumulative.${HOSTILE}` },
      { type: '*', path: `a.${HOSTILE}.b` },
    ]);
    const st = buildAnalyticsQuery('llm.spans', sc, plan, planned)!;
    const probe = buildAutoTypeProbe('llm.spans', sc, planned)!;
    for (const sql of [st.sql, probe.sql]) {
      expect(sql).not.toContain('DROP');
      expect(sql).not.toContain('9.75');
      expect(sql).toContain('(project_id = {a_project:String})');
      expect(sql).toContain('(is_root = 1)');
      expect(sql).toMatch(/start_time >= fromUnixTimestamp64Micro\(\{a_oldest:Int64\}/);
    }
    const values = Object.values(st.params).map((p) => p.value);
    expect(values).toContain(HOSTILE);
    expect(values).toContain(9.75);
    expect(values).toContain(7);
  });

  it('when the table name is not a plain db.table, then building refuses', () => {
    expect(() => buildLegacyQuery('llm.spans; DROP', scopeOf(), plan, 'trace')).toThrow();
  });

  it('when no spec computes anything, then there is no statement', () => {
    expect(buildAnalyticsQuery('llm.spans', scopeOf(), plan, specs([{ type: 'none', path: 'a' }, {}]))).toBeUndefined();
  });

  it('when the probe finds mostly strings at a * path, then the spec becomes categorical/single', () => {
    const planned = specs([{ path: 'tags.a' }, { path: 'tags.b' }, { path: 'tags.c' }]);
    const resolved = resolveAutoTypes(planned, { s0_string: '3', s0_number: 1, s1_boolean: 2, s1_array: 2, s2_number: 0 });
    expect(resolved.map((p) => p.type)).toEqual(['categorical/single', 'binary', undefined]);
  });
});

describe('shaping rows', () => {
  it('when rows come from the statement, then buckets are chronological with the used width and metrics by path', () => {
    const planned = specs([
      { type: 'string', path: 'tags.s' },
      { type: 'categorical/single', path: 'tags.c' },
      { type: 'json', path: 'tags.j' },
    ]);
    const buckets = shapeAnalytics(
      [
        { bucket: 0, s0_count: '2', s1_count: 3, s1_freq: [['b', 'a'], [1, 2]], s2_count: 0 },
        { bucket: '2', s0_count: 0, s1_count: 0, s1_freq: [[], []], s2_count: 0 },
      ],
      plan,
      planned,
    );
    expect(buckets).toEqual([
      {
        timestamp: '2024-01-01T00:00:00Z',
        interval: 60,
        metrics: {
          'attributes.tags.s': { type: 'string', count: 2 },
          'attributes.tags.c': { type: 'categorical/single', count: 3, freq: [{ value: 'a', count: 2, density: 0.66667 }, { value: 'b', count: 1, density: 0.33333 }], uniq: ['a', 'b'] },
        },
      },
    ]);
  });

  it('when legacy rows miss buckets, then every bucket is there, zero-filled, with all four numbers', () => {
    const rows = [{ bucket: 1, total_count: 2, total_duration: 3.5, total_costs: 0.1, total_tokens: 40, errors_count: 1, errors_duration: 1, errors_costs: 0, errors_tokens: 0 }];
    expect(shapeLegacy(rows, plan)).toEqual([
      { timestamp: '2024-01-01T00:00:00Z', interval: 60, total: { count: 0, duration: 0, costs: 0, tokens: 0 }, errors: { count: 0, duration: 0, costs: 0, tokens: 0 } },
      { timestamp: '2024-01-01T00:01:00Z', interval: 60, total: { count: 2, duration: 3.5, costs: 0.1, tokens: 40 }, errors: { count: 1, duration: 1, costs: 0, tokens: 0 } },
      { timestamp: '2024-01-01T00:02:00Z', interval: 60, total: { count: 0, duration: 0, costs: 0, tokens: 0 }, errors: { count: 0, duration: 0, costs: 0, tokens: 0 } },
    ]);
  });
});
