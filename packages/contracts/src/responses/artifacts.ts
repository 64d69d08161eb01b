// zod schemas of the versioned-artifact answers (reference compat §1.2, evaluations §1.2): the same
// shapes for every entity with the entity's name in the keys; nulls omitted, versions as text.
// Tags, meta, flags and data are the client's JSON as stored.
import { z } from 'zod';
import type { ArtifactEntityName } from '../artifacts.ts';

const uuid = z.uuid();
const json = z.record(z.string(), z.unknown());
const header = {
  name: z.string().optional(), description: z.string().optional(), flags: json.optional(), tags: json.optional(), meta: z.unknown().optional(),
  created_at: z.string().optional(), updated_at: z.string().optional(), deleted_at: z.string().optional(),
  created_by_id: z.string().optional(), updated_by_id: z.string().optional(), deleted_by_id: z.string().optional(),
};
const testcase = z.object({ id: uuid, testset_id: uuid, data: json, flags: json.optional(), tags: json.optional(), meta: z.unknown().optional(), created_at: z.string(), created_by_id: z.string().optional() });
const testsetData = z.object({ testcase_ids: z.array(uuid).optional(), testcases: z.array(testcase).optional() });
const dataOf = (e: ArtifactEntityName) => (e === 'testset' ? testsetData : json);

const ref = z.object({ id: uuid, slug: z.string(), version: z.string().optional() });

const simpleView = (e: ArtifactEntityName) => z.object({ id: uuid, slug: z.string(), ...header, data: dataOf(e).optional(), variant_id: uuid.optional(), revision_id: uuid.optional() });
const one = <K extends string, S extends z.ZodType>(key: K, view: S) => z.union([z.object({ count: z.literal(1), [key]: view } as { count: z.ZodLiteral<1> } & Record<K, S>), z.object({ count: z.literal(0) })]);

/** POST/PUT /simple/<entity>s, archive, unarchive, GET /simple/<entity>s/{id} (`{count: 0}`: unknown). */
export const simpleArtifactResponse = (e: ArtifactEntityName) => one(e, simpleView(e));
/** POST /simple/<entity>s/query. */
export const simpleArtifactsResponse = (e: ArtifactEntityName) => z.object({ count: z.number().int(), [`${e}s`]: z.array(simpleView(e)) });

const artifact = z.object({ id: uuid, slug: z.string(), ...header });
/** POST/GET/PUT /<entity>s, archive, unarchive. */
export const artifactResponse = (e: ArtifactEntityName) => one(e, artifact);
/** POST /<entity>s/query. */
export const artifactsResponse = (e: ArtifactEntityName) => z.object({ count: z.number().int(), [`${e}s`]: z.array(artifact) });

const variant = (e: ArtifactEntityName) => z.object({
  id: uuid, slug: z.string(), ...header, [`${e}_id`]: uuid, artifact_id: uuid, [`${e}_slug`]: z.string().optional(), artifact_slug: z.string().optional(),
});
/** POST /<entity>s/variants, fork, GET/PUT a variant, archive, unarchive. */
export const artifactVariantResponse = (e: ArtifactEntityName) => one(`${e}_variant`, variant(e));
/** POST /<entity>s/variants/query. */
export const artifactVariantsResponse = (e: ArtifactEntityName) => z.object({ count: z.number().int(), [`${e}_variants`]: z.array(variant(e)) });

const revision = (e: ArtifactEntityName) => z.object({
  id: uuid, slug: z.string(), version: z.string(), ...header, author: z.string().optional(), date: z.string().optional(), message: z.string().optional(),
  data: dataOf(e).optional(),
  [`${e}_id`]: uuid, artifact_id: uuid, [`${e}_variant_id`]: uuid, variant_id: uuid,
  [`${e}_slug`]: z.string().optional(), artifact_slug: z.string().optional(), [`${e}_variant_slug`]: z.string().optional(), variant_slug: z.string().optional(),
});
/** POST /<entity>s/revisions/commit, initial revision, GET/PUT a revision, archive, unarchive. */
export const artifactRevisionResponse = (e: ArtifactEntityName) => one(`${e}_revision`, revision(e));
/** POST /<entity>s/revisions/commit: a workflow-family commit also says whether it committed (an ordered delta may change nothing). */
export const artifactCommitResponse = (e: ArtifactEntityName) => z.union([
  z.object({ count: z.literal(1), [`${e}_revision`]: revision(e), status: z.enum(['committed', 'no_change']).optional() }),
  z.object({ count: z.literal(0) }),
]);
/** POST /<entity>s/revisions/query and /log. */
export const artifactRevisionsResponse = (e: ArtifactEntityName) => z.object({ count: z.number().int(), [`${e}_revisions`]: z.array(revision(e)) });
const resolutionInfo = z.object({
  references_used: z.array(z.object({ kind: z.string(), id: z.string(), slug: z.string().optional(), version: z.string().optional() })),
  depth_reached: z.number().int(), embeds_resolved: z.number().int(), errors: z.array(z.string()),
});
/** POST /<workflow view>s/revisions/resolve: the revision (or the inline data) with its embeds resolved. */
export const artifactResolveResponse = (e: ArtifactEntityName) => z.union([
  z.object({ count: z.literal(1), [`${e}_revision`]: z.union([revision(e), z.object({ data: json })]), resolution_info: resolutionInfo }),
  z.object({ count: z.literal(0) }),
]);
/** POST /<entity>s/revisions/retrieve: the revision with the references it resolved to. */
export const artifactRetrieveResponse = (e: ArtifactEntityName) => z.union([
  z.object({
    count: z.literal(1), [`${e}_revision`]: revision(e),
    retrieval_info: z.object({ references: z.object({ [e]: ref, [`${e}_variant`]: ref, [`${e}_revision`]: ref }).catchall(ref), selector: z.object({ key: z.string() }).optional() }),
    resolution_info: resolutionInfo.optional(),
  }),
  z.object({ count: z.literal(0) }),
]);

/** GET /testcases/{id}. */
export const testcaseResponse = z.union([z.object({ count: z.literal(1), testcase }), z.object({ count: z.literal(0) })]);
/** GET /testcases/, POST /testcases/query (with the next page's `windowing` when paged). */
export const testcasesResponse = z.object({ count: z.number().int(), testcases: z.array(testcase), windowing: z.object({ next: uuid.optional(), limit: z.number().int().optional() }).optional() });

// The workflow catalogs (static).
const catalogFlags = z.object({ is_archived: z.boolean(), is_recommended: z.boolean(), is_application: z.boolean(), is_evaluator: z.boolean(), is_snippet: z.boolean() });
const catalogTemplate = z.object({
  key: z.string(), name: z.string().optional(), description: z.string().optional(), categories: z.array(z.string()), flags: catalogFlags,
  data: z.object({ uri: z.string(), schemas: z.object({ parameters: json, inputs: json.optional(), outputs: json.optional() }), parameters: json.optional() }),
});
const catalogPreset = z.object({
  key: z.string(), name: z.string().optional(), description: z.string().optional(), categories: z.array(z.string()), flags: catalogFlags,
  data: z.object({ uri: z.string(), parameters: json }),
});
const catalogType = z.object({ key: z.string(), json_schema: json });
const catalogHarness = z.object({ key: z.string(), name: z.string(), description: z.string(), json_schema: json });
export const catalogTypesResponse = z.object({ count: z.number().int(), types: z.array(catalogType) });
export const catalogTypeResponse = z.object({ count: z.literal(1), type: catalogType });
export const catalogTemplatesResponse = z.object({ count: z.number().int(), templates: z.array(catalogTemplate) });
export const catalogTemplateResponse = z.union([z.object({ count: z.literal(1), template: catalogTemplate }), z.object({ count: z.literal(0) })]);
export const catalogPresetsResponse = z.object({ count: z.number().int(), presets: z.array(catalogPreset) });
export const catalogPresetResponse = z.union([z.object({ count: z.literal(1), preset: catalogPreset }), z.object({ count: z.literal(0) })]);
export const catalogHarnessesResponse = z.object({ count: z.number().int(), harnesses: z.array(catalogHarness) });
export const catalogHarnessResponse = z.object({ count: z.literal(1), harness: catalogHarness });
export const legacyEvaluatorTemplatesResponse = z.object({ count: z.number().int(), templates: z.array(z.object({ key: z.string(), name: z.string() }).loose()) });
