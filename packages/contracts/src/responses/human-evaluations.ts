// zod schemas of the human-evaluation answers (reference accounts §12, compat §4.2) and of the
// minimal applications, variants, revisions and testsets they read (services/command
// human-evaluation-routes views). Tags, meta, flags and data are the client's JSON, stored as given.
import { z } from 'zod';
import { HUMAN_EVALUATION_TYPE_VALUES } from '../human-evaluations.ts';

const uuid = z.uuid();
const iso = z.string();
const clientJson = z.record(z.string(), z.unknown()).nullable();

const applicationView = z.object({
  id: uuid, slug: z.string(), name: z.string(), description: z.string().nullable(),
  tags: clientJson, meta: clientJson, flags: clientJson, data: clientJson,
  created_at: iso, updated_at: z.null(), created_by_id: z.string().nullable(),
  /** The first variant and its current revision (null before a commit). */
  variant_id: uuid.nullable(), revision_id: uuid.nullable(),
});
/** POST /simple/applications and GET /simple/applications/{id} (`{count: 0}` for an unknown id). */
export const simpleApplicationResponse = z.union([
  z.object({ count: z.literal(1), application: applicationView }),
  z.object({ count: z.literal(0) }),
]);

/** POST /applications/variants. */
export const applicationVariantResponse = z.object({
  count: z.literal(1),
  application_variant: z.object({
    id: uuid, slug: z.string(), name: z.string(), application_id: uuid, flags: clientJson, tags: clientJson,
    created_at: iso, created_by_id: z.string().nullable(),
  }),
});

/** POST /applications/revisions/commit: the version as text, as the reference sends it. */
export const applicationRevisionResponse = z.object({
  count: z.literal(1),
  application_revision: z.object({
    id: uuid, slug: z.string().nullable(), version: z.string(), message: z.string().nullable(), data: clientJson,
    application_id: uuid, application_variant_id: uuid, created_at: iso.nullable(), created_by_id: z.string().nullable(),
  }),
});

const testsetView = z.object({
  id: uuid, slug: z.string(), name: z.string(), description: z.string().nullable(), tags: clientJson, meta: clientJson,
  data: z.object({ testcases: z.array(z.object({ id: uuid, data: z.record(z.string(), z.unknown()), testset_id: uuid })) }),
  variant_id: uuid, revision_id: uuid, created_at: iso, created_by_id: z.string().nullable(),
});
/** POST /simple/testsets and GET /simple/testsets/{id} (`{count: 0}` for an unknown id). */
export const simpleTestsetResponse = z.union([
  z.object({ count: z.literal(1), testset: testsetView }),
  z.object({ count: z.literal(0) }),
]);

/** GET /human-evaluations: revision numbers as text (`" None"` when the linked revision is gone). */
export const humanEvaluationsResponse = z.array(z.object({
  id: uuid, app_id: uuid, project_id: uuid, evaluation_type: z.enum(HUMAN_EVALUATION_TYPE_VALUES),
  variant_ids: z.array(uuid), variant_names: z.array(z.string()), variants_revision_ids: z.array(z.string()), revisions: z.array(z.string()),
  testset_id: uuid, testset_name: z.string(), status: z.string(), created_at: iso, updated_at: iso,
}));

/** POST /human-evaluations. */
export const humanEvaluationCreatedResponse = z.object({
  id: uuid, variant_ids: z.array(uuid), app_id: uuid, status: z.string(), evaluation_type: z.enum(HUMAN_EVALUATION_TYPE_VALUES),
});
