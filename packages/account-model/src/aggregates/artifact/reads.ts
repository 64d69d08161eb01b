// The one reader of artifacts, artifact_variants, artifact_revisions and artifact_testcases (0021;
// written by projector-accounts only): the state an artifact event is decided on, and the reads
// the routes answer from — an artifact, its default variant (the oldest) and latest revision (the
// highest version), a revision resolved from references (reference compat §1.4), testcases.
import { testcaseIdsOf, type ArtifactEvent, type ArtifactFamily, type ArtifactState } from './rules.ts';
import { asUuid, type Queryable } from '../../queryable.ts';
import { existingProjects } from '../project/projects.ts';

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };
export type JsonMap = { [k: string]: Json };

export interface ArtifactHeaderRow {
  name: string | null; description: string | null; flags: JsonMap | null; tags: JsonMap | null; meta: Json | null;
  created_at: Date; created_by_id: string | null; updated_at: Date | null; updated_by_id: string | null;
  deleted_at: Date | null; deleted_by_id: string | null;
}
export interface ArtifactRow extends ArtifactHeaderRow { id: string; project_id: string; family: ArtifactFamily; slug: string }
export interface ArtifactVariantRow extends ArtifactHeaderRow { id: string; artifact_id: string; slug: string; latest_version: number }
export interface ArtifactRevisionRow extends ArtifactHeaderRow {
  id: string; artifact_id: string; variant_id: string; slug: string; version: number; data: JsonMap | null; message: string | null;
}
export interface TestcaseBlob { id: string; testset_id: string; data: JsonMap; flags: JsonMap | null; tags: JsonMap | null; meta: Json | null; created_at: Date; created_by_id: string | null }

const HEADER = 'name, description, flags, tags, meta, created_at, created_by_id, updated_at, updated_by_id, deleted_at, deleted_by_id';
const ARTIFACT_COLUMNS = `id::text AS id, project_id::text AS project_id, family, slug, ${HEADER}`;
const VARIANT_COLUMNS = `id::text AS id, artifact_id::text AS artifact_id, slug, latest_version, ${HEADER}`;
const REVISION_COLUMNS = `id::text AS id, artifact_id::text AS artifact_id, variant_id::text AS variant_id, slug, version, data, message, ${HEADER}`;

// ── State ──

/** The state an artifact event is decided on: what it names, the slugs it would take, the testcases it references. */
export async function loadArtifactState(q: Queryable, e: ArtifactEvent): Promise<ArtifactState> {
  const ids = e.type === 'accounts.testcases.stored' ? [e.payload.testset_id] : [e.payload.artifact_id];
  const wanted = slugsWanted(e);
  const family = e.type === 'accounts.testcases.stored' ? 'testset' : e.payload.family;
  const artifacts = await q.query<{ id: string; project_id: string; family: string; variants: Array<{ id: string; slug: string; latest_version: number }> }>(
    `SELECT a.id::text AS id, a.project_id::text AS project_id, a.family,
            COALESCE(json_agg(json_build_object('id', v.id, 'slug', v.slug, 'latest_version', v.latest_version)
                              ORDER BY v.created_at, v.id) FILTER (WHERE v.id IS NOT NULL), '[]') AS variants
       FROM artifacts a LEFT JOIN artifact_variants v ON v.artifact_id = a.id
      WHERE a.id = ANY($1::uuid[]) GROUP BY a.id`,
    [ids.map(asUuid).filter((x) => x !== null)],
  );
  const taken = async (table: string, slugs: string[]): Promise<string[]> => {
    if (slugs.length === 0 || asUuid(e.projectId) === null) return [];
    const r = await q.query<{ slug: string }>(`SELECT slug FROM ${table} WHERE project_id = $1::uuid AND family = $2 AND slug = ANY($3::text[])`, [e.projectId, family, slugs]);
    return r.rows.map((x) => x.slug);
  };
  const referenced = family === 'testset' ? revisionDataOf(e).flatMap(testcaseIdsOf).map(asUuid).filter((x) => x !== null) : [];
  const testsetId = e.type === 'accounts.testcases.stored' ? null : asUuid(e.payload.artifact_id);
  const stored = referenced.length === 0 || testsetId === null ? [] : (await q.query<{ id: string }>(
    'SELECT id::text AS id FROM artifact_testcases WHERE testset_id = $1::uuid AND id = ANY($2::uuid[])', [testsetId, [...new Set(referenced)]],
  )).rows.map((r) => r.id);
  const revisionIds = (e.type === 'accounts.artifact.revision.edited' ? [e.payload.revision_id] : e.type === 'accounts.artifact.archive.set' && e.payload.target === 'revision' ? [e.payload.target_id] : [])
    .map(asUuid).filter((x) => x !== null);
  const revisions = revisionIds.length === 0 ? [] : (await q.query<{ id: string; variant_id: string }>(
    'SELECT id::text AS id, variant_id::text AS variant_id FROM artifact_revisions WHERE id = ANY($1::uuid[])', [revisionIds],
  )).rows.map((r) => ({ id: r.id, variantId: r.variant_id }));
  const project = asUuid(e.projectId) === null ? [] : await existingProjects(q, [e.projectId]);
  return {
    projectExists: project.length > 0,
    artifacts: artifacts.rows.map((a) => ({ id: a.id, projectId: a.project_id, family: a.family, variants: a.variants.map((v) => ({ id: v.id, slug: v.slug, latestVersion: v.latest_version })) })),
    takenSlugs: { artifact: await taken('artifacts', wanted.artifact), variant: await taken('artifact_variants', wanted.variant), revision: await taken('artifact_revisions', wanted.revision) },
    revisions,
    storedTestcases: stored,
  };
}

function slugsWanted(e: ArtifactEvent): { artifact: string[]; variant: string[]; revision: string[] } {
  switch (e.type) {
    case 'accounts.artifact.created': {
      const vs = e.payload.variants ?? [];
      return { artifact: [e.payload.slug], variant: vs.map((v) => v.slug), revision: vs.flatMap((v) => (v.revisions ?? []).map((r) => r.slug)) };
    }
    case 'accounts.artifact.variant.created':
      return { artifact: [], variant: [e.payload.variant.slug], revision: (e.payload.variant.revisions ?? []).map((r) => r.slug) };
    case 'accounts.artifact.revision.added': return { artifact: [], variant: [], revision: [e.payload.revision.slug] };
    default: return { artifact: [], variant: [], revision: [] };
  }
}

function revisionDataOf(e: ArtifactEvent): string[] {
  switch (e.type) {
    case 'accounts.artifact.created': return (e.payload.variants ?? []).flatMap((v) => (v.revisions ?? []).map((r) => r.data_json));
    case 'accounts.artifact.variant.created': return (e.payload.variant.revisions ?? []).map((r) => r.data_json);
    case 'accounts.artifact.revision.added': return [e.payload.revision.data_json];
    default: return [];
  }
}

// ── Reads ──

/** An artifact of the project and family (archived included); undefined for another project's. */
export async function readArtifact(q: Queryable, projectId: string, family: ArtifactFamily, id: string): Promise<ArtifactRow | undefined> {
  const r = await q.query<ArtifactRow>(`SELECT ${ARTIFACT_COLUMNS} FROM artifacts WHERE project_id = $1::uuid AND family = $2 AND id = $3::uuid`, [asUuid(projectId), family, asUuid(id)]);
  return r.rows[0];
}

export async function readArtifactBySlug(q: Queryable, projectId: string, family: ArtifactFamily, slug: string): Promise<ArtifactRow | undefined> {
  const r = await q.query<ArtifactRow>(`SELECT ${ARTIFACT_COLUMNS} FROM artifacts WHERE project_id = $1::uuid AND family = $2 AND slug = $3`, [asUuid(projectId), family, slug]);
  return r.rows[0];
}

/** The artifact's variants, oldest first (the first is the default). */
export async function readVariants(q: Queryable, artifactId: string): Promise<ArtifactVariantRow[]> {
  const r = await q.query<ArtifactVariantRow>(`SELECT ${VARIANT_COLUMNS} FROM artifact_variants WHERE artifact_id = $1::uuid ORDER BY created_at, id`, [asUuid(artifactId)]);
  return r.rows;
}

/** A variant of the project and family, by id or slug. */
export async function readVariant(q: Queryable, projectId: string, family: ArtifactFamily, ref: { id?: string | undefined; slug?: string | undefined }): Promise<ArtifactVariantRow | undefined> {
  const [where, value] = ref.id !== undefined ? ['id = $3::uuid', asUuid(ref.id)] : ['slug = $3', ref.slug ?? null];
  const r = await q.query<ArtifactVariantRow>(`SELECT ${VARIANT_COLUMNS} FROM artifact_variants WHERE project_id = $1::uuid AND family = $2 AND ${where}`, [asUuid(projectId), family, value]);
  return r.rows[0];
}

/** A revision of the project and family, by id or slug, or by version within a variant. */
export async function readRevision(
  q: Queryable, projectId: string, family: ArtifactFamily,
  ref: { id?: string | undefined; slug?: string | undefined } | { variantId: string; version: number },
): Promise<ArtifactRevisionRow | undefined> {
  let where: string; let value: unknown[];
  if ('variantId' in ref) { where = 'variant_id = $3::uuid AND version = $4'; value = [asUuid(ref.variantId), ref.version]; }
  else if (ref.id !== undefined) { where = 'id = $3::uuid'; value = [asUuid(ref.id)]; }
  else { where = 'slug = $3'; value = [ref.slug ?? null]; }
  const r = await q.query<ArtifactRevisionRow>(`SELECT ${REVISION_COLUMNS} FROM artifact_revisions WHERE project_id = $1::uuid AND family = $2 AND ${where}`, [asUuid(projectId), family, ...value]);
  return r.rows[0];
}

/** A variant's latest revision (the highest version), if it has one. */
export async function readLatestRevision(q: Queryable, variantId: string): Promise<ArtifactRevisionRow | undefined> {
  const r = await q.query<ArtifactRevisionRow>(`SELECT ${REVISION_COLUMNS} FROM artifact_revisions WHERE variant_id = $1::uuid ORDER BY version DESC LIMIT 1`, [asUuid(variantId)]);
  return r.rows[0];
}

/** An artifact with its default variant and that variant's latest revision (the simple view's parts). */
export interface ArtifactHead { artifact: ArtifactRow; variant: ArtifactVariantRow | undefined; revision: ArtifactRevisionRow | undefined }

export async function readHead(q: Queryable, artifact: ArtifactRow): Promise<ArtifactHead> {
  const variant = (await readVariants(q, artifact.id))[0];
  return { artifact, variant, revision: variant ? await readLatestRevision(q, variant.id) : undefined };
}

/** The project's artifacts of a family, oldest first, filtered as the simple query routes filter. */
export interface ArtifactFilter {
  ids?: string[] | undefined; slugs?: string[] | undefined;
  name?: string | undefined; description?: string | undefined;
  flags?: Record<string, unknown> | undefined; tags?: Record<string, unknown> | undefined;
  includeArchived?: boolean | undefined; limit?: number | undefined;
}
export async function listArtifacts(q: Queryable, projectId: string, family: ArtifactFamily, f: ArtifactFilter): Promise<ArtifactRow[]> {
  const where = ['project_id = $1::uuid', 'family = $2'];
  const values: unknown[] = [asUuid(projectId), family];
  const add = (sql: (n: number) => string, v: unknown): void => { values.push(v); where.push(sql(values.length)); };
  if (f.ids) add((n) => `id = ANY($${n}::uuid[])`, f.ids.map(asUuid).filter((x) => x !== null));
  if (f.slugs) add((n) => `slug = ANY($${n}::text[])`, f.slugs);
  if (f.name !== undefined) add((n) => `strpos(lower(coalesce(name, '')), lower($${n})) > 0`, f.name);
  if (f.description !== undefined) add((n) => `strpos(lower(coalesce(description, '')), lower($${n})) > 0`, f.description);
  if (f.flags) add((n) => `coalesce(flags, '{}'::jsonb) @> $${n}::jsonb`, JSON.stringify(f.flags));
  if (f.tags) add((n) => `coalesce(tags, '{}'::jsonb) @> $${n}::jsonb`, JSON.stringify(f.tags));
  if (!f.includeArchived) where.push('deleted_at IS NULL');
  const limit = f.limit === undefined ? '' : ` LIMIT ${Math.max(1, Math.min(10_000, Math.floor(f.limit)))}`;
  const r = await q.query<ArtifactRow>(`SELECT ${ARTIFACT_COLUMNS} FROM artifacts WHERE ${where.join(' AND ')} ORDER BY created_at, id${limit}`, values);
  return r.rows;
}

/** Testcases of a testset by id, in the order asked (repeats kept; unknown ids skipped). */
export async function readTestcasesByIds(q: Queryable, testsetId: string, ids: readonly string[]): Promise<TestcaseBlob[]> {
  if (ids.length === 0) return [];
  const r = await q.query<TestcaseBlob>(
    `SELECT t.id::text AS id, t.testset_id::text AS testset_id, t.data, t.flags, t.tags, t.meta, t.created_at, t.created_by_id
       FROM unnest($2::uuid[]) WITH ORDINALITY AS w(id, n) JOIN artifact_testcases t ON t.id = w.id AND t.testset_id = $1::uuid
      ORDER BY w.n`,
    [asUuid(testsetId), ids.map(asUuid).filter((x) => x !== null)],
  );
  return r.rows;
}

const TESTCASE_COLUMNS = 't.id::text AS id, t.testset_id::text AS testset_id, t.data, t.flags, t.tags, t.meta, t.created_at, t.created_by_id';

/** Testcases of the project by id, each once, in the order first asked (unknown ids skipped). */
export async function readProjectTestcases(q: Queryable, projectId: string, ids: readonly string[]): Promise<TestcaseBlob[]> {
  const wanted = [...new Set(ids.map(asUuid).filter((x) => x !== null))];
  if (wanted.length === 0) return [];
  const r = await q.query<TestcaseBlob>(
    `SELECT ${TESTCASE_COLUMNS} FROM unnest($2::uuid[]) WITH ORDINALITY AS w(id, n) JOIN artifact_testcases t ON t.id = w.id AND t.project_id = $1::uuid ORDER BY w.n`,
    [asUuid(projectId), wanted],
  );
  return r.rows;
}

/** A testset's stored testcases, oldest first, paged by `next` (the last id seen) and `limit`. */
export async function readTestsetTestcases(q: Queryable, projectId: string, testsetId: string, page: { next?: string | null | undefined; limit?: number | null | undefined } = {}): Promise<TestcaseBlob[]> {
  const values: unknown[] = [asUuid(projectId), asUuid(testsetId)];
  let after = '';
  if (page.next) {
    values.push(asUuid(page.next));
    after = ` AND (t.created_at, t.id) > (SELECT created_at, id FROM artifact_testcases WHERE id = $${values.length}::uuid)`;
  }
  const limit = page.limit != null ? ` LIMIT ${Math.max(1, Math.min(10_000, Math.floor(page.limit)))}` : '';
  const r = await q.query<TestcaseBlob>(
    `SELECT ${TESTCASE_COLUMNS} FROM artifact_testcases t WHERE t.project_id = $1::uuid AND t.testset_id = $2::uuid${after} ORDER BY t.created_at, t.id${limit}`, values,
  );
  return r.rows;
}
