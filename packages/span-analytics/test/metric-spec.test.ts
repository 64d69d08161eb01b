import { describe, expect, it } from 'vitest';

import { DEFAULT_SPECS, echoSpec, metricSource, parseSpecs, planSpecs } from '../src/index.ts';

function issues(input: unknown): string[] {
  const r = parseSpecs(input);
  if (r.ok) throw new Error('expected issues');
  return r.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('parseSpecs', () => {
  it('when specs are absent, empty text or an empty list, then the reference defaults apply', () => {
    for (const input of [undefined, null, '', []]) {
      const r = parseSpecs(input);
      expect(r.ok && r.specs.map((s) => `${s.type} ${s.path}`)).toEqual([
        'numeric/continuous attributes.ag.metrics.duration.cumulative',
        'numeric/continuous attributes.ag.metrics.errors.cumulative',
        'numeric/continuous attributes.ag.metrics.costs.cumulative.total',
        'numeric/continuous attributes.ag.metrics.tokens.cumulative.total',
        'categorical/single attributes.ag.type.trace',
        'categorical/single attributes.ag.type.span',
      ]);
    }
    expect(DEFAULT_SPECS).toHaveLength(6);
  });

  it('when a path comes with or without the attributes prefix, then both name the same value', () => {
    const r = parseSpecs([{ type: 'string', path: 'tags.a' }, { type: 'json', path: 'attributes.tags.b' }]);
    expect(r.ok && r.specs.map((s) => [s.path, s.segments])).toEqual([
      ['attributes.tags.a', ['tags', 'a']],
      ['attributes.tags.b', ['tags', 'b']],
    ]);
  });

  it('when specs come as JSON text (a query parameter), then they are parsed', () => {
    const r = parseSpecs('[{"type":"binary","path":"tags.flag"}]');
    expect(r.ok && r.specs[0]).toMatchObject({ type: 'binary', path: 'attributes.tags.flag', edge: true });
  });

  it('when a spec has only a path, then its type is * (auto); when it has nothing, it is * on * (computes nothing)', () => {
    const r = parseSpecs([{ path: 'tags.x' }, {}]);
    expect(r.ok && r.specs.map((s) => [s.type, s.path])).toEqual([['*', 'attributes.tags.x'], ['*', '*']]);
  });

  it('when specs are malformed, then each problem is named with its place', () => {
    expect(issues([{ type: 'numeric', path: 'a' }])).toEqual([expect.stringMatching(/^0\.type: unknown metric type 'numeric'/)]);
    expect(issues([{ type: 'json', path: 'a', colour: 'red' }])).toEqual([expect.stringMatching(/^0: .*colour/)]);
    expect(issues([{ type: 'binary', path: 'a', bins: 3 }])).toEqual(['0.bins: bins applies to numeric/continuous specs only (histograms), not \'binary\'']);
    expect(issues([{ type: 'numeric/continuous', path: 'a', vmin: 2, vmax: 1 }])).toEqual(['0.vmax: vmax must not be below vmin']);
    expect(issues([{ type: 'numeric/continuous', path: 'a', bins: 0 }])).toEqual(['0.bins: bins must be at least 1']);
    expect(issues([{ type: 'numeric/continuous', path: 'a', bins: 2.5 }])).toEqual(['0.bins: bins must be an integer']);
    expect(issues([{ type: 'numeric/continuous' }])).toEqual([expect.stringMatching(/^0\.path: type 'numeric\/continuous' needs a path/)]);
    expect(issues([{ type: 'string', path: 'a..b' }])).toEqual([expect.stringMatching(/^0\.path: .*empty segment/)]);
    expect(issues([{ type: 'string', path: 'tags.*' }])).toEqual([expect.stringMatching(/^0\.path: .*wildcards/)]);
    expect(issues([{ type: 'string', path: 'attributes' }])).toEqual([expect.stringMatching(/^0\.path: .*inside attributes/)]);
    expect(issues([{ type: 'string', path: 'a' }, { type: 'json', path: 'attributes.a' }])).toEqual(["1.path: path 'attributes.a' is already used by specs[0]"]);
    expect(issues({ type: 'string' })).toEqual([': specs must be a list of metric specs']);
    expect(issues('[not json')).toEqual([': specs must be a list of metric specs']);
  });

  it('when echoed, then only the fields that apply appear', () => {
    const r = parseSpecs([{ type: 'numeric/continuous', path: 'a', bins: 4 }, { type: 'binary', path: 'b' }]);
    expect(r.ok && r.specs.map(echoSpec)).toEqual([
      { type: 'numeric/continuous', path: 'attributes.a', bins: 4, edge: true },
      { type: 'binary', path: 'attributes.b' },
    ]);
  });
});

describe('metric sources', () => {
  it('when a path is a rolled-up metric or a type, then it reads the column the projector writes', () => {
    expect(metricSource(['ag', 'metrics', 'duration', 'cumulative'])).toEqual({ kind: 'number-column', column: 'duration_ms' });
    expect(metricSource(['ag', 'metrics', 'errors', 'cumulative'])).toEqual({ kind: 'number-column', column: 'errors_cumulative' });
    expect(metricSource(['ag', 'metrics', 'tokens', 'cumulative', 'total'])).toEqual({ kind: 'map-entry', column: 'tokens_cumulative', key: 'total', rollup: true });
    expect(metricSource(['ag', 'metrics', 'costs', 'incremental', 'prompt'])).toEqual({ kind: 'map-entry', column: 'costs_incremental', key: 'prompt', rollup: false });
    expect(metricSource(['ag', 'metrics', 'costs', 'cumulative'])).toEqual({ kind: 'map-object', column: 'costs_cumulative', rollup: true });
    expect(metricSource(['ag', 'type', 'span'])).toEqual({ kind: 'string-column', column: 'span_type' });
  });

  it('when a path is anything else, then it reads the attributes JSON', () => {
    expect(metricSource(['ag', 'metrics', 'tokens', 'cumulative', 'total', 'x'])).toEqual({ kind: 'json', segments: ['ag', 'metrics', 'tokens', 'cumulative', 'total', 'x'] });
    expect(metricSource(['ag', 'meta', 'app'])).toEqual({ kind: 'json', segments: ['ag', 'meta', 'app'] });
  });

  it("when the type is '*', then columns decide at once and JSON paths wait for the data", () => {
    const r = parseSpecs([{ path: 'ag.metrics.duration.cumulative' }, { path: 'ag.type.trace' }, { path: 'tags.x' }, { type: 'none', path: 'tags.y' }]);
    if (!r.ok) throw new Error('bad specs');
    expect(planSpecs(r.specs).map((p) => [p.type, p.needsProbe])).toEqual([
      ['numeric/continuous', false],
      ['categorical/single', false],
      [undefined, true],
      [undefined, false],
    ]);
  });
});
