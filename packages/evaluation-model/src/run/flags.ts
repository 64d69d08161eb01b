// A run's flags (reference evaluations §3.2): the `has_*` flags follow from its steps whenever the
// steps are written; `is_live`, `is_active`, `is_closed`, `is_queue`, `is_cached`, `is_split` come
// from the caller and the lifecycle. Pure: the command computes them before appending.

export const RUN_FLAG_KEYS = [
  'is_live', 'is_active', 'is_closed', 'is_queue', 'is_cached', 'is_split',
  'has_queries', 'has_testsets', 'has_traces', 'has_testcases', 'has_evaluators', 'has_custom', 'has_human', 'has_auto',
] as const;
export type RunFlags = Record<(typeof RUN_FLAG_KEYS)[number], boolean>;

export interface RunStep {
  key: string;
  type: 'input' | 'invocation' | 'annotation';
  origin: 'custom' | 'human' | 'auto';
  references?: Record<string, unknown> | null | undefined;
}

const hasRef = (s: RunStep, name: string): boolean => !!s.references && Object.hasOwn(s.references, name);
const referenceless = (s: RunStep): boolean => !s.references || Object.keys(s.references).length === 0;

/** The flags of a run whose steps are `steps`, over the caller's and the lifecycle's flags. */
export function runFlags(given: Partial<Record<string, unknown>> | undefined, steps: readonly RunStep[] | undefined): RunFlags {
  const flag = (k: string): boolean => given?.[k] === true;
  const inputs = (steps ?? []).filter((s) => s.type === 'input');
  const annotations = (steps ?? []).filter((s) => s.type === 'annotation');
  return {
    is_live: flag('is_live'), is_active: flag('is_active'), is_closed: flag('is_closed'), is_queue: flag('is_queue'),
    is_cached: flag('is_cached'), is_split: flag('is_split'),
    has_queries: inputs.some((s) => hasRef(s, 'query_revision')),
    has_testsets: inputs.some((s) => hasRef(s, 'testset_revision')),
    has_traces: inputs.some((s) => referenceless(s) && (s.key === 'traces' || s.key === 'query-direct')),
    has_testcases: inputs.some((s) => referenceless(s) && (s.key === 'testcases' || s.key === 'testset-direct')),
    has_evaluators: annotations.length > 0,
    has_custom: annotations.some((s) => s.origin === 'custom'),
    has_human: annotations.some((s) => s.origin === 'human'),
    has_auto: annotations.some((s) => s.origin === 'auto'),
  };
}
