// Request bodies of the versioned-artifact routes (reference evaluations §1.2–§2.7): testsets and the
// three views of the workflow family (workflows, applications, evaluators), generated per entity so
// that every key carries the entity's name (`testset_ref`, `application_revision`, …). Unknown
// top-level fields are ignored; unknown keys inside a revision's `data` are refused (422 naming
// the key), as the reference refuses them. Every text, JSON value and list is bounded.
import { z } from 'zod';
import { jsonObject, jsonValue, text, textKey, textRecord, texts, TEXT_LIMITS } from './text.ts';
import { uuidText } from './evaluation-runs.ts';

export const ARTIFACT_ENTITY_NAMES = ['testset', 'workflow', 'application', 'evaluator', 'environment'] as const;
export type ArtifactEntityName = (typeof ARTIFACT_ENTITY_NAMES)[number];

/** Most rows a testset holds (reference evaluations §2.2). */
export const TESTSET_ROW_LIMIT = 10_000;

const slug = text({ min: 1, max: TEXT_LIMITS.slug, label: 'slug' });
const header = {
  name: texts.name.nullish(),
  description: texts.description.nullish(),
  flags: jsonObject.nullish(),
  tags: jsonObject.nullish(),
  meta: jsonObject.nullish(),
};

/** A workflow revision's `data` (applications and evaluators too): only these keys. */
export const workflowRevisionData = z.strictObject({
  uri: texts.url.nullish(),
  url: texts.url.nullish(),
  headers: textRecord(text({ max: TEXT_LIMITS.shortText * 8 })).nullish(),
  runtime: texts.shortText.nullish(),
  script: z.union([texts.longText, jsonObject]).nullish(),
  schemas: z.strictObject({ parameters: jsonObject.nullish(), inputs: jsonObject.nullish(), outputs: jsonObject.nullish() }).nullish(),
  parameters: jsonObject.nullish(),
});
export type WorkflowRevisionDataInput = z.infer<typeof workflowRevisionData>;

/** A testcase as a request sends it (extra fields of a read — testset_id, created_at — are dropped). */
export const testcaseInput = z.object({
  id: uuidText.nullish(),
  data: jsonObject,
  flags: jsonObject.nullish(),
  tags: jsonObject.nullish(),
  meta: jsonObject.nullish(),
});
export type TestcaseInput = z.infer<typeof testcaseInput>;

/** A testset revision's `data`: an ordered id list, or rows (stored as testcases, replaced by their ids). */
export const testsetRevisionData = z.strictObject({
  testcase_ids: z.array(uuidText).max(TESTSET_ROW_LIMIT).nullish(),
  testcases: z.array(testcaseInput).max(TESTSET_ROW_LIMIT).nullish(),
});
export type TestsetRevisionDataInput = z.infer<typeof testsetRevisionData>;

/** `{id?, slug?, version?}`; `version` is a string (a number is a 422, as the reference's). */
export const artifactRef = z.object({ id: uuidText.nullish(), slug: texts.slug.nullish(), version: texts.shortText.nullish() });
export type ArtifactRef = z.infer<typeof artifactRef>;

export const artifactWindow = z.object({
  newest: texts.shortText.nullish(), oldest: texts.shortText.nullish(), next: uuidText.nullish(),
  limit: z.number().int().min(1).max(10_000).nullish(), order: z.enum(['ascending', 'descending']).nullish(),
});

/** An environment revision's `data`: per deployment key, the revisions it points at (`{<entity>: Ref, <entity>_variant: Ref, <entity>_revision: Ref}`). */
export const environmentRevisionData = z.strictObject({
  references: textRecord(textRecord(z.object({ id: uuidText.nullish(), slug: texts.slug.nullish(), version: texts.shortText.nullish() }))).nullish(),
});

/** A testset commit's delta (§2.2): rows added, removed (by id) or replaced; columns added, removed or renamed. */
export const testsetDelta = z.strictObject({
  rows: z.strictObject({
    add: z.array(testcaseInput).max(TESTSET_ROW_LIMIT).nullish(),
    remove: z.array(uuidText).max(TESTSET_ROW_LIMIT).nullish(),
    replace: z.array(testcaseInput.extend({ id: uuidText })).max(TESTSET_ROW_LIMIT).nullish(),
  }).nullish(),
  columns: z.strictObject({
    add: z.array(textKey).max(1000).nullish(),
    remove: z.array(textKey).max(1000).nullish(),
    replace: z.array(z.tuple([textKey, textKey])).max(1000).nullish(),
  }).nullish(),
});
/** An environment commit's delta (§2.9): keys set to references, keys removed. */
export const environmentDelta = z.strictObject({
  set: environmentRevisionData.shape.references.unwrap().unwrap().nullish(),
  remove: z.array(textKey).max(1000).nullish(),
});

const dataOf = (e: ArtifactEntityName) => (e === 'testset' ? testsetRevisionData : e === 'environment' ? environmentRevisionData : workflowRevisionData);
/** One step of an ordered workflow delta (§2.7); what each does: services/command/src/artifacts/domain/ordered-delta.ts. */
export const workflowOperation = z.strictObject({
  operation: z.enum(['set', 'merge', 'remove', 'edit_text', 'add_item', 'replace_item', 'remove_item']),
  /** Keys and array indices from the data's root; `[]` is the data itself. */
  target: z.array(z.union([text({ max: TEXT_LIMITS.key, label: 'key' }), z.number().int().min(0).max(1_000_000)])).max(32),
  value: jsonValue.optional(),
  edits: z.array(z.strictObject({ old: texts.longText, new: texts.longText })).max(100).nullish(),
  match_mode: z.enum(['first', 'all', 'exact']).nullish(),
});
export type WorkflowOperation = z.infer<typeof workflowOperation>;

/**
 * A workflow commit's delta (§2.7): the legacy form (a tree deep-merged into the head's data,
 * dotted paths removed), or the ordered form (operations applied in order to `base_revision_id`).
 */
export const workflowDelta = z.union([
  z.strictObject({
    set: jsonObject.nullish(),
    remove: z.array(text({ max: TEXT_LIMITS.key, label: 'path' })).max(1000).nullish(),
  }),
  z.strictObject({ operations: z.array(workflowOperation).min(1).max(1000) }),
]);
const deltaOf = (e: ArtifactEntityName) => (e === 'testset' ? testsetDelta : e === 'environment' ? environmentDelta : workflowDelta);

/** POST /<entity>s/revisions/retrieve. */
export const revisionRetrieve = (e: ArtifactEntityName) => z.object({
  [`${e}_ref`]: artifactRef.nullish(),
  [`${e}_variant_ref`]: artifactRef.nullish(),
  [`${e}_revision_ref`]: artifactRef.nullish(),
  include_testcase_ids: z.boolean().nullish(),
  include_testcases: z.boolean().nullish(),
  resolve: z.boolean().nullish(),
  // The environment path (workflow views): the revision an environment's `key` points at.
  environment_ref: artifactRef.nullish(), environment_variant_ref: artifactRef.nullish(), environment_revision_ref: artifactRef.nullish(),
  key: textKey.nullish(),
  windowing: artifactWindow.nullish(),
});

/** POST /simple/<entity>s/ — a testset's `data` is required and holds rows. */
export const simpleArtifactCreate = (e: ArtifactEntityName) => z.object({
  [e]: z.object({
    slug,
    ...header,
    data: e === 'testset' ? z.strictObject({ testcases: z.array(testcaseInput).max(TESTSET_ROW_LIMIT * 2) }) : dataOf(e).nullish(),
  }),
});

/** PUT /simple/<entity>s/{id}. */
export const simpleArtifactEdit = (e: ArtifactEntityName) => z.object({
  [e]: z.object({
    id: uuidText,
    ...header,
    data: e === 'testset' ? z.strictObject({ testcases: z.array(testcaseInput).max(TESTSET_ROW_LIMIT * 2) }).nullish() : dataOf(e).nullish(),
  }),
});

/** POST /simple/<entity>s/query. */
export const simpleArtifactsQuery = (e: ArtifactEntityName) => z.object({
  [e]: z.object({ ...header, slug: texts.slug.nullish(), slugs: z.array(texts.slug).max(1000).nullish() }).nullish(),
  [`${e}_refs`]: z.array(artifactRef).max(1000).nullish(),
  include_archived: z.boolean().nullish(),
  windowing: artifactWindow.nullish(),
});

/** POST /<entity>s/variants/. */
export const artifactVariantCreate = (e: ArtifactEntityName) => z.object({
  [`${e}_variant`]: z.object({ slug, [`${e}_id`]: uuidText, ...header }),
});

/** POST /<entity>s/revisions/commit. */
export const artifactRevisionCommit = (e: ArtifactEntityName) => z.object({
  [`${e}_revision`]: z.object({
    [`${e}_id`]: uuidText.nullish(),
    [`${e}_variant_id`]: uuidText,
    slug: texts.slug.nullish(),
    ...header,
    message: texts.description.nullish(),
    data: dataOf(e).nullish(),
    delta: deltaOf(e).nullish(),
    /** The revision an ordered delta applies to (workflow family): it must still be the variant's latest. */
    ...(e === 'testset' || e === 'environment' ? {} : { base_revision_id: uuidText.nullish() }),
  }),
});

/** POST /<entity>s/ (query param `<entity>_id` may fix the id). */
export const artifactCreate = (e: ArtifactEntityName) => z.object({ [e]: z.object({ slug, ...header }) });
/** PUT /<entity>s/{id}. */
export const artifactEdit = (e: ArtifactEntityName) => z.object({ [e]: z.object({ id: uuidText, ...header }) });
/** PUT /<entity>s/variants/{id}. */
export const artifactVariantEdit = (e: ArtifactEntityName) => z.object({ [`${e}_variant`]: z.object({ id: uuidText, ...header }) });
/** POST /<entity>s/revisions/ — the variant's initial revision (its `data` is not taken). */
export const artifactRevisionCreate = (e: ArtifactEntityName) => z.object({
  [`${e}_revision`]: z.object({ [`${e}_id`]: uuidText.nullish(), [`${e}_variant_id`]: uuidText, slug: texts.slug.nullish(), ...header }),
});
/** PUT /<entity>s/revisions/{id}: the header only (data is immutable). */
export const artifactRevisionEdit = (e: ArtifactEntityName) => z.object({ [`${e}_revision`]: z.object({ id: uuidText, ...header }) });
/** POST /<entity>s/variants/fork. */
export const artifactVariantFork = (e: ArtifactEntityName) => z.object({
  [`${e}_variant`]: z.object({ slug, ...header }),
  [`${e}_variant_ref`]: artifactRef,
  [`${e}_revision_ref`]: artifactRef.nullish(),
});
const slugFilter = { slug: texts.slug.nullish(), slugs: z.array(texts.slug).max(1000).nullish() };
const refs = z.array(artifactRef).max(1000).nullish();
/** POST /<entity>s/query. */
export const artifactsQuery = (e: ArtifactEntityName) => z.object({
  [e]: z.object({ ...header, ...slugFilter }).nullish(), [`${e}_refs`]: refs, include_archived: z.boolean().nullish(), windowing: artifactWindow.nullish(),
});
/** POST /<entity>s/variants/query. */
export const artifactVariantsQuery = (e: ArtifactEntityName) => z.object({
  [`${e}_variant`]: z.object({ ...header, ...slugFilter }).nullish(), [`${e}_refs`]: refs, [`${e}_variant_refs`]: refs,
  include_archived: z.boolean().nullish(), windowing: artifactWindow.nullish(),
});
/** POST /<entity>s/revisions/query. */
export const artifactRevisionsQuery = (e: ArtifactEntityName) => z.object({
  [`${e}_revision`]: z.object({
    ...header, ...slugFilter, author: texts.id.nullish(), authors: z.array(texts.id).max(1000).nullish(), message: texts.description.nullish(),
  }).nullish(),
  [`${e}_refs`]: refs, [`${e}_variant_refs`]: refs, [`${e}_revision_refs`]: refs,
  include_archived: z.boolean().nullish(), include_testcases: z.boolean().nullish(), windowing: artifactWindow.nullish(),
});
/** POST /<entity>s/revisions/log. */
export const artifactRevisionsLog = (e: ArtifactEntityName) => z.object({
  [`${e}_revisions`]: z.object({
    [`${e}_id`]: uuidText.nullish(), [`${e}_variant_id`]: uuidText.nullish(), [`${e}_revision_id`]: uuidText.nullish(),
    depth: z.number().int().min(-1_000_000).max(1_000_000).nullish(),
  }),
});

/** POST /testcases/query. */
export const testcasesQuery = z.object({
  testcase_ids: z.array(uuidText).max(TESTSET_ROW_LIMIT).nullish(),
  testset_id: uuidText.nullish(),
  testset_ref: artifactRef.nullish(), testset_variant_ref: artifactRef.nullish(), testset_revision_ref: artifactRef.nullish(),
  windowing: artifactWindow.nullish(),
});
/** GET /testcases/: `testcase_id` repeated and/or `testcase_ids=a,b`. */
export const testcasesList = z.object({
  testcase_id: z.union([texts.id, z.array(texts.id).max(TESTSET_ROW_LIMIT)]).optional(),
  testcase_ids: text({ max: 40 * TESTSET_ROW_LIMIT, label: 'testcase_ids' }).optional(),
});

/** POST /<entity>s/revisions/deploy (workflow views): the revision named, into the environment named, under `key`. */
export const artifactDeploy = (e: ArtifactEntityName) => z.object({
  [`${e}_ref`]: artifactRef.nullish(), [`${e}_variant_ref`]: artifactRef.nullish(), [`${e}_revision_ref`]: artifactRef.nullish(),
  environment_ref: artifactRef.nullish(), environment_variant_ref: artifactRef.nullish(), environment_revision_ref: artifactRef.nullish(),
  key: textKey.nullish(), message: texts.description.nullish(),
});

/** POST /<entity>s/revisions/resolve (workflow views, environments): a stored revision by refs, or one sent inline (its `data`). */
export const artifactResolve = (e: ArtifactEntityName) => z.object({
  [`${e}_ref`]: artifactRef.nullish(), [`${e}_variant_ref`]: artifactRef.nullish(), [`${e}_revision_ref`]: artifactRef.nullish(),
  [`${e}_revision`]: z.object({ data: (e === 'environment' ? environmentRevisionData : workflowRevisionData).nullish() }).nullish(),
  max_depth: z.number().int().min(0).max(100).nullish(), max_embeds: z.number().int().min(0).max(10_000).nullish(),
  error_policy: z.enum(['exception', 'placeholder', 'keep']).nullish(),
});

/** A run's steps of one kind as the simple evaluation takes them: revision ids, or revision id → origin. */
const stepTargets = z.union([
  z.array(uuidText).max(100),
  z.record(text({ max: TEXT_LIMITS.key, label: 'revision id' }), z.enum(['custom', 'human', 'auto'])),
]);

/** POST /simple/evaluations/. */
export const simpleEvaluationCreate = z.object({
  evaluation: z.object({
    ...header,
    data: z.object({
      status: texts.shortText.nullish(),
      query_steps: stepTargets.nullish(),
      testset_steps: stepTargets.nullish(),
      application_steps: stepTargets.nullish(),
      evaluator_steps: stepTargets.nullish(),
      repeats: z.number().int().min(1).max(1000).nullish(),
      concurrency: z.number().int().min(1).max(1000).nullish(),
    }),
  }),
});
export type SimpleEvaluationCreate = z.infer<typeof simpleEvaluationCreate>;

/** PATCH /simple/evaluations/{id}: the steps rebuilt from the revisions named (no `data`: nothing changes). */
export const simpleEvaluationEdit = z.object({
  evaluation: z.object({
    id: uuidText,
    ...header,
    data: simpleEvaluationCreate.shape.evaluation.shape.data.nullish(),
  }),
});

/** Any JSON the revision views carry back (responses are checked against their own schemas). */
export const artifactJson = jsonValue;
