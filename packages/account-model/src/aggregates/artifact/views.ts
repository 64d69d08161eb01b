// The entity-named shapes of the artifact model (reference compat §1.2, evaluations §1.2): the same
// rows read as a testset, a workflow, an application or an evaluator, with the entity's name in
// every key (`testset_id`, `testset_variant_id`, …) next to the `artifact_*`/`variant_*` twins;
// nulls omitted, versions as strings.
import type { ArtifactFamily } from './rules.ts';
import type { ArtifactHeaderRow, ArtifactRevisionRow, ArtifactRow, ArtifactVariantRow, JsonMap, TestcaseBlob } from './reads.ts';

/** How a family is exposed: applications and evaluators are views of the workflow family. */
export const ARTIFACT_ENTITIES = ['testset', 'workflow', 'application', 'evaluator', 'environment'] as const;
export type ArtifactEntity = (typeof ARTIFACT_ENTITIES)[number];

/** Each entity's plural: its paths (`/testsets/…`) and route ids (`testsets.…`, `simple.testsets.…`). */
export const ARTIFACT_PLURALS: Readonly<Record<ArtifactEntity, string>> = { testset: 'testsets', application: 'applications', evaluator: 'evaluators', workflow: 'workflows', environment: 'environments' };

/** What the shared artifact writes serve: every entity, and saved queries (the `query` family, their own routes and events). */
export type ArtifactKind = ArtifactEntity | 'query';

export const familyOf = (kind: ArtifactKind): ArtifactFamily => (kind === 'testset' || kind === 'environment' || kind === 'query' ? kind : 'workflow');
/** The role flag an entity's routes force on what they write (and filter their reads by). */
export const roleFlagOf = (entity: ArtifactEntity): 'is_application' | 'is_evaluator' | undefined =>
  entity === 'application' ? 'is_application' : entity === 'evaluator' ? 'is_evaluator' : undefined;

type View = Record<string, unknown>;
const iso = (d: Date | null): string | undefined => (d ? d.toISOString() : undefined);

/** Header and lifecycle, nulls omitted. */
export function headerView(r: ArtifactHeaderRow): View {
  const v: View = {};
  const put = (k: string, x: unknown): void => { if (x !== null && x !== undefined) v[k] = x; };
  put('name', r.name); put('description', r.description); put('flags', r.flags); put('tags', r.tags); put('meta', r.meta);
  put('created_at', iso(r.created_at)); put('updated_at', iso(r.updated_at)); put('deleted_at', iso(r.deleted_at));
  put('created_by_id', r.created_by_id); put('updated_by_id', r.updated_by_id); put('deleted_by_id', r.deleted_by_id);
  return v;
}

export const artifactView = (a: ArtifactRow): View => ({ id: a.id, slug: a.slug, ...headerView(a) });

export function variantView(e: ArtifactEntity, v: ArtifactVariantRow, a?: ArtifactRow): View {
  return {
    id: v.id, slug: v.slug, ...headerView(v),
    [`${e}_id`]: v.artifact_id, artifact_id: v.artifact_id,
    ...(a ? { [`${e}_slug`]: a.slug, artifact_slug: a.slug } : {}),
  };
}

export function revisionView(e: ArtifactEntity, r: ArtifactRevisionRow, data: Record<string, unknown> | null, names?: { artifact: ArtifactRow; variant: ArtifactVariantRow }): View {
  const h = headerView(r);
  return {
    id: r.id, slug: r.slug, version: String(r.version), ...h,
    ...(r.created_by_id ? { author: r.created_by_id } : {}), ...(h.created_at ? { date: h.created_at } : {}),
    ...(r.message !== null ? { message: r.message } : {}),
    ...(data !== null ? { data } : {}),
    [`${e}_id`]: r.artifact_id, artifact_id: r.artifact_id, [`${e}_variant_id`]: r.variant_id, variant_id: r.variant_id,
    ...(names ? { [`${e}_slug`]: names.artifact.slug, artifact_slug: names.artifact.slug, [`${e}_variant_slug`]: names.variant.slug, variant_slug: names.variant.slug } : {}),
  };
}

export function retrievalInfo(e: ArtifactEntity, a: ArtifactRow, v: ArtifactVariantRow, r: ArtifactRevisionRow): View {
  return {
    references: {
      [e]: { id: a.id, slug: a.slug },
      [`${e}_variant`]: { id: v.id, slug: v.slug },
      [`${e}_revision`]: { id: r.id, slug: r.slug, version: String(r.version) },
    },
  };
}

/** A testcase as the testset routes show it. */
export function testcaseView(t: TestcaseBlob): View {
  return {
    id: t.id, testset_id: t.testset_id, data: t.data,
    ...(t.flags !== null ? { flags: t.flags } : {}), ...(t.tags !== null ? { tags: t.tags } : {}), ...(t.meta !== null ? { meta: t.meta } : {}),
    created_at: t.created_at.toISOString(), ...(t.created_by_id ? { created_by_id: t.created_by_id } : {}),
  };
}

/** The simple view: the artifact's header with its default variant's latest data (flags: the latest revision's for workflows). */
export function simpleView(a: ArtifactRow, revision: ArtifactRevisionRow | undefined, data: JsonMap | null, ids?: { variant_id?: string; revision_id?: string }): View {
  const flags = a.family === 'workflow' ? (revision?.flags ?? a.flags) : a.flags;
  const { flags: _artifactFlags, ...header } = headerView(a);
  return {
    id: a.id, slug: a.slug, ...header, ...(flags !== null && flags !== undefined ? { flags } : {}),
    ...(data !== null ? { data } : {}),
    ...(ids?.variant_id ? { variant_id: ids.variant_id } : {}), ...(ids?.revision_id ? { revision_id: ids.revision_id } : {}),
  };
}
