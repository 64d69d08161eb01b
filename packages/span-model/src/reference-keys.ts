// The entity kinds a span may reference (`ag.references.<key>`), reference §1.2.
export const REFERENCE_KEYS = [
  'testcase',
  'testset', 'testset_variant', 'testset_revision',
  'query', 'query_variant', 'query_revision',
  'workflow', 'workflow_variant', 'workflow_revision',
  'application', 'application_variant', 'application_revision',
  'evaluator', 'evaluator_variant', 'evaluator_revision',
  'environment', 'environment_variant', 'environment_revision',
  'snippet', 'snippet_variant', 'snippet_revision',
] as const;
export type ReferenceKey = (typeof REFERENCE_KEYS)[number];

export const REFERENCE_KEY_SET: ReadonlySet<string> = new Set(REFERENCE_KEYS);

// Testset variants/revisions are left out of the dedupe hash, as in the reference system: an
// annotation of the same testcase stays "the same" across testset revisions.
export const HASHED_REFERENCE_KEYS: ReadonlySet<string> = new Set(
  REFERENCE_KEYS.filter((k) => k !== 'testset_variant' && k !== 'testset_revision'),
);
