// Given/when/then of a simple evaluation's run graph: resolved revisions become input, invocation and
// annotation steps with full references and the mappings a client shows; unresolvable inputs
// (testsets without rows or with an empty row, evaluators without data, revisions without slug,
// live queries without data or without an invocation filter) are refused with a reason.
import { describe, expect, it } from 'vitest';
import { annotationMappings, buildRunGraph, normaliseSteps, runFlags, specsFromSchema, type GraphInput, type GraphRevision, type Origin } from '../src/index.ts';

const revision = (kind: string, n: number, data: Record<string, unknown> | null, origin: Origin = 'custom'): GraphRevision => ({
  artifact: { id: `${kind}-a${n}`, slug: `${kind}${n}` },
  variant: { id: `${kind}-v${n}`, slug: `${kind}${n}-main` },
  revision: { id: `${kind}-r${n}`, slug: `${kind}rev${n}`, version: String(n) },
  data, origin,
});
const none: GraphInput = { queries: [], testsets: [], applications: [], evaluators: [] };
const rows = (...data: Array<Record<string, unknown>>) => ({ testcases: data.map((d, i) => ({ id: `tc${i}`, data: d })) });
const testset = revision('testset', 1, rows({ country: 'France', capital: 'Paris', testcase_dedup_id: 'x' }, { country: 'Spain', capital: 'Madrid' }));
const app = revision('application', 1, { uri: 'user:custom:app:v0' });
const schema = { type: 'object', properties: { score: { type: 'number' }, nested: { type: 'object', properties: { a: { type: 'boolean' } } } } };
const judge = revision('evaluator', 1, { uri: 'agenta:builtin:judge:v0', schemas: { outputs: schema } }, 'auto');
const bare = revision('evaluator', 2, { uri: 'user:custom:check:v0' }, 'human');
const invocationQuery = (conditions: unknown[], operator?: string) => ({ filtering: { ...(operator ? { operator } : {}), conditions } });
const query = revision('query', 1, invocationQuery([{ field: 'trace_type', operator: 'is', value: 'invocation' }]));

const refusal = (input: Partial<GraphInput>) => {
  const graph = buildRunGraph({ ...none, ...input });
  return graph.ok ? undefined : graph.reason;
};

describe('run graph — a full testset → application → evaluators run', () => {
  const graph = buildRunGraph({ ...none, testsets: [testset], applications: [app], evaluators: [judge, bare] });
  if (!graph.ok) throw new Error(graph.reason);

  it('given a testset, an application and two evaluators, when built, then the steps come inputs, invocations, annotations with full references', () => {
    expect(graph.steps).toEqual([
      {
        key: 'testset-testsetrev1', type: 'input', origin: 'custom',
        references: {
          testset: { id: 'testset-a1', slug: 'testset1' }, testset_variant: { id: 'testset-v1', slug: 'testset1-main' },
          testset_revision: { id: 'testset-r1', slug: 'testsetrev1', version: '1' },
        },
      },
      {
        key: 'application-applicationrev1', type: 'invocation', origin: 'custom', inputs: [{ key: '__all_inputs__' }],
        references: {
          application: { id: 'application-a1', slug: 'application1' }, application_variant: { id: 'application-v1', slug: 'application1-main' },
          application_revision: { id: 'application-r1', slug: 'applicationrev1', version: '1' },
        },
      },
      {
        key: 'evaluator-evaluatorrev1', type: 'annotation', origin: 'auto', inputs: [{ key: '__all_invocations__' }, { key: '__all_inputs__' }],
        schemas: { outputs: schema },
        references: {
          evaluator: { id: 'evaluator-a1', slug: 'evaluator1' }, evaluator_variant: { id: 'evaluator-v1', slug: 'evaluator1-main' },
          evaluator_revision: { id: 'evaluator-r1', slug: 'evaluatorrev1', version: '1' },
        },
      },
      {
        key: 'evaluator-evaluatorrev2', type: 'annotation', origin: 'human', inputs: [{ key: '__all_invocations__' }, { key: '__all_inputs__' }],
        references: {
          evaluator: { id: 'evaluator-a2', slug: 'evaluator2' }, evaluator_variant: { id: 'evaluator-v2', slug: 'evaluator2-main' },
          evaluator_revision: { id: 'evaluator-r2', slug: 'evaluatorrev2', version: '2' },
        },
      },
    ]);
  });

  it('given the same run, when built, then the mappings are the first testcase\'s columns, the invocation outputs and each evaluator\'s outputs leaves', () => {
    expect(graph.mappings).toEqual([
      { column: { kind: 'testset', name: 'country' }, step: { key: 'testset-testsetrev1', path: 'data.country' } },
      { column: { kind: 'testset', name: 'capital' }, step: { key: 'testset-testsetrev1', path: 'data.capital' } },
      { column: { kind: 'invocation', name: 'outputs' }, step: { key: 'application-applicationrev1', path: 'attributes.ag.data.outputs' } },
      { column: { kind: 'annotation', name: 'score' }, step: { key: 'evaluator-evaluatorrev1', path: 'attributes.ag.data.outputs.score' } },
      { column: { kind: 'annotation', name: 'nested.a' }, step: { key: 'evaluator-evaluatorrev1', path: 'attributes.ag.data.outputs.nested.a' } },
      { column: { kind: 'annotation', name: 'outputs' }, step: { key: 'evaluator-evaluatorrev2', path: 'attributes.ag.data.outputs' } },
    ]);
  });

  it('given an evaluator with an outputs schema, when built, then its annotation mappings are the paths the metrics summarise', () => {
    const paths = graph.mappings.filter((m) => m.step.key === 'evaluator-evaluatorrev1').map((m) => m.step.path);
    expect(paths).toEqual(specsFromSchema(schema).map((s) => s.path));
  });

  it('given the built steps, when the flags are derived, then the run has testsets and evaluators of each declared origin', () => {
    expect(runFlags(undefined, graph.steps)).toMatchObject({ has_testsets: true, has_queries: false, has_evaluators: true, has_auto: true, has_human: true, has_custom: false });
  });
});

describe('run graph — other topologies', () => {
  it('given a live query and an evaluator, when built, then the query input maps its data and the evaluator takes all inputs only', () => {
    const graph = buildRunGraph({ ...none, queries: [query], evaluators: [bare] });
    if (!graph.ok) throw new Error(graph.reason);
    expect(graph.steps.map((s) => [s.key, s.type, s.inputs])).toEqual([
      ['query-queryrev1', 'input', undefined],
      ['evaluator-evaluatorrev2', 'annotation', [{ key: '__all_inputs__' }]],
    ]);
    expect(graph.steps[0]!.references).toEqual({
      query: { id: 'query-a1', slug: 'query1' }, query_variant: { id: 'query-v1', slug: 'query1-main' }, query_revision: { id: 'query-r1', slug: 'queryrev1', version: '1' },
    });
    expect(graph.mappings[0]).toEqual({ column: { kind: 'query', name: 'data' }, step: { key: 'query-queryrev1', path: 'attributes.ag.data' } });
    expect(runFlags(undefined, graph.steps).has_queries).toBe(true);
  });

  it('given only evaluators, when built, then the annotation steps carry no inputs', () => {
    const graph = buildRunGraph({ ...none, evaluators: [bare] });
    expect(graph.ok && graph.steps[0]).not.toHaveProperty('inputs');
  });

  it('given queries, testsets, applications and evaluators, when built, then the steps come in that order', () => {
    const graph = buildRunGraph({ ...none, evaluators: [bare], applications: [app], testsets: [testset], queries: [query] });
    expect(graph.ok && graph.steps.map((s) => s.key)).toEqual(['query-queryrev1', 'testset-testsetrev1', 'application-applicationrev1', 'evaluator-evaluatorrev2']);
  });

  it('given a filter on the attribute ag.type.trace or without an operator, when built, then the live query is accepted', () => {
    for (const c of [{ field: 'attributes', key: 'ag.type.trace', operator: 'is', value: 'invocation' }, { field: 'trace_type', value: 'invocation' }, { field: 'attributes.ag.type.trace', value: 'invocation' }]) {
      expect(refusal({ queries: [revision('query', 1, invocationQuery([{ field: 'span_type', value: 'llm' }, c], 'and'))] })).toBeUndefined();
    }
  });

  it('given a batch run (not live), when built, then a query without data or filter is accepted', () => {
    expect(buildRunGraph({ ...none, live: false, queries: [revision('query', 1, null)], evaluators: [bare] }).ok).toBe(true);
  });

  it('given an evaluator schema without usable leaves, when its mappings are made, then one outputs column stands for the whole outputs', () => {
    const whole = [{ column: { kind: 'annotation', name: 'outputs' }, step: { key: 'evaluator-x', path: 'attributes.ag.data.outputs' } }];
    expect(annotationMappings('evaluator-x', { type: 'object' })).toEqual(whole);
    expect(annotationMappings('evaluator-x', undefined)).toEqual(whole);
  });
});

describe('run graph — refusals', () => {
  it('given a testset revision without testcases, when built, then it is refused', () => {
    for (const data of [null, {}, { testcase_ids: ['t1'] }, { testcases: [] }]) {
      expect(refusal({ testsets: [revision('testset', 1, data)] })).toBe('testset revision testset-r1 has no testcases or an empty row');
    }
  });

  it('given a testset revision with an empty row, when built, then it is refused', () => {
    expect(refusal({ testsets: [revision('testset', 1, rows({ q: 1 }, {}))] })).toMatch(/^testset revision testset-r1 /);
    expect(refusal({ testsets: [revision('testset', 1, { testcases: [{ id: 't', data: null }] })] })).toMatch(/^testset revision testset-r1 /);
  });

  it('given an evaluator revision without data, when built, then it is refused', () => {
    expect(refusal({ testsets: [testset], evaluators: [revision('evaluator', 3, null)] })).toBe('evaluator revision evaluator-r3 has no data');
  });

  it('given an application revision without slug, when built, then it is refused', () => {
    const noSlug = { ...app, revision: { ...app.revision, slug: '' } };
    expect(refusal({ testsets: [testset], applications: [noSlug] })).toBe('application revision application-r1 has no slug');
  });

  it('given a live query revision without data, when built, then it is refused', () => {
    expect(refusal({ queries: [revision('query', 2, null)], evaluators: [bare] })).toBe('query revision query-r2 has no data');
    expect(refusal({ live: true, queries: [revision('query', 2, null)] })).toBe('query revision query-r2 has no data');
  });

  it('given a live query whose filter does not keep invocations at the top level, when built, then it is refused', () => {
    const wrong = [
      {},
      invocationQuery([]),
      invocationQuery([{ field: 'trace_type', operator: 'is', value: 'annotation' }]),
      invocationQuery([{ field: 'trace_type', operator: 'is_not', value: 'invocation' }]),
      invocationQuery([{ field: 'span_type', operator: 'is', value: 'invocation' }]),
      invocationQuery([{ operator: 'and', conditions: [{ field: 'trace_type', value: 'invocation' }] }]),
      invocationQuery([{ field: 'trace_type', value: 'invocation' }], 'not'),
      invocationQuery([{ field: 'trace_type', value: 'invocation' }, { field: 'span_type', value: 'llm' }], 'or'),
    ];
    for (const data of wrong) {
      expect(refusal({ queries: [revision('query', 2, data)] })).toBe('query revision query-r2 has no top-level trace_type is "invocation" condition');
    }
  });

  it('given a step key longer than a result may name, when built, then it is refused', () => {
    const long = { ...bare, revision: { ...bare.revision, slug: 'x'.repeat(60) } };
    expect(refusal({ evaluators: [long] })).toMatch(/step key longer than 64/);
  });

  it('given two revisions of one kind with the same slug, when built, then it is refused', () => {
    expect(refusal({ evaluators: [bare, { ...bare, revision: { ...bare.revision, id: 'other' } }] })).toBe('two steps share the key evaluator-evaluatorrev2');
  });
});

describe('simple evaluation steps', () => {
  it('given an id list, when normalised, then every id has origin custom', () => {
    expect(normaliseSteps(['r1', 'r2'])).toEqual({ r1: 'custom', r2: 'custom' });
  });

  it('given an id → origin map, when normalised, then it is kept', () => {
    expect(normaliseSteps({ r1: 'human', r2: 'auto' })).toEqual({ r1: 'human', r2: 'auto' });
  });

  it('given nothing, when normalised, then there are no steps', () => {
    expect(normaliseSteps(null)).toEqual({});
    expect(normaliseSteps(undefined)).toEqual({});
  });
});
