// The step graph of a run that `POST /simple/evaluations/` creates (reference evaluations §3.2, §2.4):
// from the resolved revisions of its queries, testsets, applications and evaluators, the run's
// `data.steps` (query inputs, testset inputs, invocations, annotations, in that order) and
// `data.mappings` (the columns a client shows: query data, the first testcase's columns, the
// invocation outputs, one per leaf of each evaluator's outputs schema — the same leaves the metrics
// summarise, metrics/specs.ts). Inputs it cannot resolve are refused with a reason (the route
// answers `{count:0}`). Pure: the caller fetches the revisions; revisions it cannot find are its
// own refusal.
import { specsFromSchema } from '../metrics/specs.ts';
import type { RunStep } from './flags.ts';

export type Origin = 'custom' | 'human' | 'auto';

export interface GraphRevision {
  artifact: { id: string; slug: string };
  variant: { id: string; slug: string };
  revision: { id: string; slug: string; version: string };
  /** The revision's stored data: testset `{testcases:[{id, data}]}`, evaluator `{schemas?:{outputs?}, …}`, query `{filtering?, …}`. */
  data: Record<string, unknown> | null;
  origin: Origin;
}

export interface GraphInput {
  queries: GraphRevision[];
  testsets: GraphRevision[];
  applications: GraphRevision[];
  evaluators: GraphRevision[];
  /**
   * Whether the run is live (`flags.is_live`). Query revisions must carry data and a top-level
   * `trace_type is "invocation"` condition on live runs (the reference checks them only then);
   * omitted → checked.
   */
  live?: boolean;
  /** A direct queue's source (§3.2): one reference-less input step keyed `traces` or `testcases`. */
  direct?: 'traces' | 'testcases' | undefined;
}

export interface StepRef { id: string; slug: string; version?: string }

export interface GraphStep extends RunStep {
  references: Record<string, StepRef>;
  inputs?: Array<{ key: string }>;
  schemas?: { outputs: Record<string, unknown> };
}

export type MappingKind = 'query' | 'testset' | 'invocation' | 'annotation';
export interface RunMapping { column: { kind: MappingKind; name: string }; step: { key: string; path: string } }

export type RunGraph = { ok: true; steps: GraphStep[]; mappings: RunMapping[] } | { ok: false; reason: string };

type Json = Record<string, unknown>;
type Entity = 'query' | 'testset' | 'application' | 'evaluator';

const OUTPUTS = 'attributes.ag.data.outputs';
/** Longest step key a result may name (contracts: `step_key` is bounded like a slug). */
const MAX_STEP_KEY = 64;
/** A testcase column that only deduplicates rows: not shown. */
const HIDDEN_COLUMNS = new Set(['testcase_dedup_id']);
const TRACE_TYPE_FIELDS = new Set(['trace_type', 'attributes.ag.type.trace']);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const refused = (reason: string): RunGraph => ({ ok: false, reason });

/** A simple evaluation's `*_steps`: an id list (origin `custom`) or a map of revision id → origin. */
export function normaliseSteps(steps: string[] | Record<string, Origin> | null | undefined): Record<string, Origin> {
  if (!steps) return {};
  if (Array.isArray(steps)) return Object.fromEntries(steps.map((id): [string, Origin] => [id, 'custom']));
  return Object.fromEntries(Object.entries(steps));
}

function references(entity: Entity, r: GraphRevision): Record<string, StepRef> {
  return {
    [entity]: { id: r.artifact.id, slug: r.artifact.slug },
    [`${entity}_variant`]: { id: r.variant.id, slug: r.variant.slug },
    [`${entity}_revision`]: { id: r.revision.id, slug: r.revision.slug, version: r.revision.version },
  };
}

function step(entity: Entity, type: GraphStep['type'], r: GraphRevision): GraphStep {
  return { key: `${entity}-${r.revision.slug}`, type, origin: r.origin, references: references(entity, r) };
}

/** Whether a condition is `trace_type is "invocation"` (also as the attribute `ag.type.trace`). */
function isInvocationCondition(c: unknown): boolean {
  if (!isObject(c) || c.value !== 'invocation' || (c.operator !== undefined && c.operator !== null && c.operator !== 'is')) return false;
  return (typeof c.field === 'string' && TRACE_TYPE_FIELDS.has(c.field)) || (c.field === 'attributes' && c.key === 'ag.type.trace');
}

/** Whether a query's filtering keeps invocation traces only: a top-level condition of a conjunction. */
export function isInvocationQuery(data: Json | null): boolean {
  const filtering = data?.filtering;
  if (!isObject(filtering) || !Array.isArray(filtering.conditions)) return false;
  const conjunction = filtering.operator === undefined || filtering.operator === null || filtering.operator === 'and';
  return conjunction && filtering.conditions.some(isInvocationCondition);
}

function queryProblem(r: GraphRevision, live: boolean): string | undefined {
  if (!live) return undefined;
  if (!r.data) return `query revision ${r.revision.id} has no data`;
  if (!isInvocationQuery(r.data)) return `query revision ${r.revision.id} has no top-level trace_type is "invocation" condition`;
  return undefined;
}

/** The rows of a testset revision, when it has at least one and none is empty. */
function testcaseRows(data: Json | null): Json[] | undefined {
  const testcases = data?.testcases;
  if (!Array.isArray(testcases) || testcases.length === 0) return undefined;
  const rows = testcases.map((t) => (isObject(t) && isObject(t.data) ? t.data : undefined));
  return rows.every((row) => row !== undefined && Object.keys(row).length > 0) ? (rows as Json[]) : undefined;
}

/** An evaluator's declared outputs schema, if any. */
function outputsSchema(data: Json | null): Json | undefined {
  const schemas = data?.schemas;
  return isObject(schemas) && isObject(schemas.outputs) ? schemas.outputs : undefined;
}

/**
 * The annotation mappings of an evaluator step: one per leaf of its outputs schema (as the metrics
 * see them), else a single `outputs` column for the whole outputs object.
 */
export function annotationMappings(key: string, schema: unknown): RunMapping[] {
  const leaves = specsFromSchema(schema).filter((s) => s.path !== OUTPUTS);
  const names = leaves.length > 0 ? leaves.map((s) => s.path.slice(OUTPUTS.length + 1)) : ['outputs'];
  return names.map((name) => ({
    column: { kind: 'annotation', name },
    step: { key, path: leaves.length > 0 ? `${OUTPUTS}.${name}` : OUTPUTS },
  }));
}

function firstProblem(input: GraphInput): string | undefined {
  const live = input.live !== false;
  const all: Array<[Entity, GraphRevision]> = [
    ...input.queries.map((r): [Entity, GraphRevision] => ['query', r]),
    ...input.testsets.map((r): [Entity, GraphRevision] => ['testset', r]),
    ...input.applications.map((r): [Entity, GraphRevision] => ['application', r]),
    ...input.evaluators.map((r): [Entity, GraphRevision] => ['evaluator', r]),
  ];
  for (const [entity, r] of all) {
    if (!r.revision.slug) return `${entity} revision ${r.revision.id} has no slug`;
    if (`${entity}-${r.revision.slug}`.length > MAX_STEP_KEY) return `${entity} revision ${r.revision.id}: step key longer than ${MAX_STEP_KEY} characters`;
  }
  for (const r of input.queries) { const p = queryProblem(r, live); if (p) return p; }
  for (const r of input.testsets) if (!testcaseRows(r.data)) return `testset revision ${r.revision.id} has no testcases or an empty row`;
  for (const r of input.evaluators) if (!r.data) return `evaluator revision ${r.revision.id} has no data`;
  return undefined;
}

interface Part { steps: GraphStep[]; mappings: RunMapping[] }
const part = (s: GraphStep, mappings: RunMapping[]): Part => ({ steps: [s], mappings });

function queryPart(r: GraphRevision): Part {
  const s = step('query', 'input', r);
  return part(s, [{ column: { kind: 'query', name: 'data' }, step: { key: s.key, path: 'attributes.ag.data' } }]);
}

function testsetPart(r: GraphRevision): Part {
  const s = step('testset', 'input', r);
  const first = testcaseRows(r.data)?.[0] ?? {};
  return part(s, Object.keys(first).filter((col) => !HIDDEN_COLUMNS.has(col))
    .map((col) => ({ column: { kind: 'testset', name: col }, step: { key: s.key, path: `data.${col}` } })));
}

function applicationPart(r: GraphRevision): Part {
  const s: GraphStep = { ...step('application', 'invocation', r), inputs: [{ key: '__all_inputs__' }] };
  return part(s, [{ column: { kind: 'invocation', name: 'outputs' }, step: { key: s.key, path: OUTPUTS } }]);
}

function evaluatorPart(r: GraphRevision, inputs: string[]): Part {
  const schema = outputsSchema(r.data);
  const s: GraphStep = {
    ...step('evaluator', 'annotation', r),
    ...(inputs.length > 0 ? { inputs: inputs.map((key) => ({ key })) } : {}),
    ...(schema ? { schemas: { outputs: schema } } : {}),
  };
  return part(s, annotationMappings(s.key, schema));
}

/** The steps and mappings of a simple evaluation's run, or why its inputs cannot make one. */
export function buildRunGraph(input: GraphInput): RunGraph {
  const problem = firstProblem(input);
  if (problem) return refused(problem);
  const evaluatorInputs = [
    ...(input.applications.length > 0 ? ['__all_invocations__'] : []),
    ...(input.queries.length + input.testsets.length > 0 || input.direct ? ['__all_inputs__'] : []),
  ];
  const parts = [
    ...(input.direct ? [part({ key: input.direct, type: 'input', origin: 'custom', references: {} }, [])] : []),
    ...input.queries.map(queryPart), ...input.testsets.map(testsetPart), ...input.applications.map(applicationPart),
    ...input.evaluators.map((r) => evaluatorPart(r, evaluatorInputs)),
  ];
  const steps = parts.flatMap((p) => p.steps);
  const keys = steps.map((s) => s.key);
  const duplicate = keys.find((k, i) => keys.indexOf(k) !== i);
  return duplicate ? refused(`two steps share the key ${duplicate}`) : { ok: true, steps, mappings: parts.flatMap((p) => p.mappings) };
}
