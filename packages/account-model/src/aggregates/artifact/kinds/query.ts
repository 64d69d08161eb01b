// The query kind of the versioned-artifact model: saved queries as /queries and /simple/queries
// show them (reference compat §1.2: nulls omitted, versions as strings, `query_*` keys next to the
// `artifact_*` twins), their lists and log (§1.3), and the revision that saved-query refs resolve
// to (§1.4; also POST /spans/query and /traces/query). The rows are the `query` family's rows of
// the artifact tables (0021, 0023); every read names the family, so no other family's id answers here.
import { MAX_TIME_US, MIN_TIME_US } from '@llm/contracts';
import { asUuid, type Queryable } from '../../../queryable.ts';

// ── Views ──

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };
type JsonMap = { [k: string]: Json };

interface Lifecycle {
  created_at?: string; updated_at?: string; deleted_at?: string;
  created_by_id?: string; updated_by_id?: string; deleted_by_id?: string;
}
interface Header { name?: string; description?: string; flags?: JsonMap; tags?: JsonMap; meta?: Json }

export interface QueryView extends Header, Lifecycle { id: string; slug: string; folder_id?: string }
export interface QueryVariantView extends Header, Lifecycle {
  id: string; slug: string; query_id: string; artifact_id: string; query_slug?: string; artifact_slug?: string;
}
export interface QueryRevisionView extends Header, Lifecycle {
  id: string; slug: string; version: string;
  query_id: string; artifact_id: string; query_variant_id: string; variant_id: string;
  query_slug?: string; artifact_slug?: string; query_variant_slug?: string; variant_slug?: string;
  author?: string; date?: string; message?: string; data?: JsonMap;
}
export interface SimpleQueryView extends QueryView { data?: JsonMap; variant_id?: string; revision_id?: string }

/** Drops null/undefined fields (the reference's responses omit nulls). */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as T;
}
const iso = (d: Date | null): string | undefined => (d ? d.toISOString() : undefined);

interface HeaderRow {
  id: string; slug: string; name: string | null; description: string | null; flags: JsonMap | null; tags: JsonMap | null; meta: Json | null;
  created_at: Date; updated_at: Date | null; deleted_at: Date | null; created_by_id: string | null; updated_by_id: string | null; deleted_by_id: string | null;
}
interface QueryRow extends HeaderRow { folder_id: string | null }
interface VariantRow extends HeaderRow { query_id: string; q_slug: string | null }
interface RevisionRow extends HeaderRow {
  version: number; query_id: string; variant_id: string; q_slug: string; v_slug: string; data: JsonMap | null; message: string | null;
}

const HEADER = (a: string): string => `${a}.id::text AS id, ${a}.slug, ${a}.name, ${a}.description, ${a}.flags, ${a}.tags, ${a}.meta,
  ${a}.created_at, ${a}.updated_at, ${a}.deleted_at, ${a}.created_by_id, ${a}.updated_by_id, ${a}.deleted_by_id`;
const QUERY_COLUMNS = `${HEADER('q')}, q.folder_id::text AS folder_id`;
/** The query family's rows (every alias below is filtered by it). */
const QUERIES = "artifacts q";
const IS_QUERY = (a: string): string => `${a}.family = 'query'`;
const VARIANT_COLUMNS = `${HEADER('v')}, v.artifact_id::text AS query_id, q.slug AS q_slug`;
const REVISION_COLUMNS = `${HEADER('r')}, r.version, r.artifact_id::text AS query_id, r.variant_id::text AS variant_id, r.data, r.message,
  q.slug AS q_slug, v.slug AS v_slug`;
const REVISION_FROM = "artifact_revisions r JOIN artifact_variants v ON v.id = r.variant_id JOIN artifacts q ON q.id = r.artifact_id AND q.family = 'query'";
const VARIANT_FROM = "artifact_variants v JOIN artifacts q ON q.id = v.artifact_id AND q.family = 'query'";

function headerOf(r: HeaderRow): Header & Lifecycle {
  return {
    name: r.name ?? undefined, description: r.description ?? undefined, flags: r.flags ?? undefined, tags: r.tags ?? undefined, meta: r.meta ?? undefined,
    created_at: iso(r.created_at), updated_at: iso(r.updated_at), deleted_at: iso(r.deleted_at),
    created_by_id: r.created_by_id ?? undefined, updated_by_id: r.updated_by_id ?? undefined, deleted_by_id: r.deleted_by_id ?? undefined,
  };
}
const queryView = (r: QueryRow): QueryView => compact({ id: r.id, slug: r.slug, ...headerOf(r), folder_id: r.folder_id ?? undefined });
function variantView(r: VariantRow, slugs = true): QueryVariantView {
  // A variant's name defaults to its slug.
  return compact({
    id: r.id, slug: r.slug, ...headerOf(r), name: r.name ?? r.slug, query_id: r.query_id, artifact_id: r.query_id,
    ...(slugs && r.q_slug ? { query_slug: r.q_slug, artifact_slug: r.q_slug } : {}),
  });
}
function revisionView(r: RevisionRow, slugs = true): QueryRevisionView {
  return compact({
    id: r.id, slug: r.slug, version: String(r.version), ...headerOf(r),
    query_id: r.query_id, artifact_id: r.query_id, query_variant_id: r.variant_id, variant_id: r.variant_id,
    ...(slugs ? { query_slug: r.q_slug, artifact_slug: r.q_slug, query_variant_slug: r.v_slug, variant_slug: r.v_slug } : {}),
    author: r.created_by_id ?? undefined, date: iso(r.created_at), message: r.message ?? undefined, data: r.data ?? undefined,
  });
}

/** Ids are compared as UUIDs: anything else names nothing. */
const ids = (projectId: string, id: string): [string, string] | undefined => {
  const p = asUuid(projectId);
  const k = asUuid(id);
  return p === null || k === null ? undefined : [p, k];
};

export async function readQuery(q: Queryable, projectId: string, queryId: string): Promise<QueryView | undefined> {
  const k = ids(projectId, queryId);
  if (!k) return undefined;
  const r = await q.query<QueryRow>(`SELECT ${QUERY_COLUMNS} FROM ${QUERIES} WHERE q.project_id = $1 AND q.id = $2 AND ${IS_QUERY('q')}`, k);
  return r.rows[0] ? queryView(r.rows[0]) : undefined;
}

export async function readQueryVariant(q: Queryable, projectId: string, variantId: string): Promise<QueryVariantView | undefined> {
  const k = ids(projectId, variantId);
  if (!k) return undefined;
  const r = await q.query<VariantRow>(`SELECT ${VARIANT_COLUMNS} FROM ${VARIANT_FROM} WHERE v.project_id = $1 AND v.id = $2`, k);
  return r.rows[0] ? variantView(r.rows[0]) : undefined;
}

export async function readQueryRevision(q: Queryable, projectId: string, revisionId: string): Promise<QueryRevisionView | undefined> {
  const k = ids(projectId, revisionId);
  if (!k) return undefined;
  const r = await q.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM ${REVISION_FROM} WHERE r.project_id = $1 AND r.id = $2`, k);
  return r.rows[0] ? revisionView(r.rows[0]) : undefined;
}

/** What a commit needs of a variant of the project: its query and the version a commit must follow. */
export interface QueryVariantHead { queryId: string; variantId: string; slug: string; latestVersion: number }

export async function readQueryVariantHead(q: Queryable, projectId: string, variantId: string): Promise<QueryVariantHead | undefined> {
  const k = ids(projectId, variantId);
  if (!k) return undefined;
  const r = await q.query<{ query_id: string; id: string; slug: string; latest_version: number }>(
    "SELECT artifact_id::text AS query_id, id::text AS id, slug, latest_version FROM artifact_variants WHERE project_id = $1 AND id = $2 AND family = 'query'", k);
  const row = r.rows[0];
  return row ? { queryId: row.query_id, variantId: row.id, slug: row.slug, latestVersion: row.latest_version } : undefined;
}

/** The default variant of a query of the project: its oldest (archived or not). */
export async function readDefaultVariantHead(q: Queryable, projectId: string, queryId: string): Promise<QueryVariantHead | undefined> {
  const k = ids(projectId, queryId);
  if (!k) return undefined;
  const r = await q.query<{ query_id: string; id: string; slug: string; latest_version: number }>(
    `SELECT artifact_id::text AS query_id, id::text AS id, slug, latest_version FROM artifact_variants
      WHERE project_id = $1 AND artifact_id = $2 AND family = 'query' ORDER BY created_at, id LIMIT 1`, k);
  const row = r.rows[0];
  return row ? { queryId: row.query_id, variantId: row.id, slug: row.slug, latestVersion: row.latest_version } : undefined;
}

/** The simple-query view: the artifact with the data of its default variant's latest revision. */
export async function readSimpleQuery(q: Queryable, projectId: string, queryId: string): Promise<SimpleQueryView | undefined> {
  const query = await readQuery(q, projectId, queryId);
  if (!query) return undefined;
  const head = await readDefaultVariantHead(q, projectId, queryId);
  const latest = head ? await latestRevision(q, projectId, head.variantId) : undefined;
  return compact({ ...query, data: latest?.data ?? undefined });
}

/** A variant's revision with that version, else its latest (the highest version: the newest in log order). */
async function latestRevision(q: Queryable, projectId: string, variantId: string, version?: string): Promise<RevisionRow | undefined> {
  const r = await q.query<RevisionRow>(
    `SELECT ${REVISION_COLUMNS} FROM ${REVISION_FROM}
      WHERE r.project_id = $1 AND r.variant_id = $2 AND ($3::int IS NULL OR r.version = $3::int)
      ORDER BY r.version DESC LIMIT 1`,
    [projectId, variantId, version ?? null]);
  return r.rows[0];
}

// ── Lists ──

/** List windowing (§1.3): by id, newest first unless ascending; `next` = last id seen. */
export interface ListWindow { newest?: string; oldest?: string; next?: string; limit?: number; order?: 'ascending' | 'descending' }

/** WHERE terms and their values, numbered from `first`. */
class Terms {
  readonly where: string[] = [];
  constructor(readonly values: unknown[]) {}
  add(sql: (n: string) => string, value: unknown): void {
    this.values.push(value);
    this.where.push(sql(`$${this.values.length}`));
  }
  window(alias: string, w: ListWindow | undefined): string {
    if (!w) return '';
    const asc = w.order === 'ascending';
    if (w.next && asUuid(w.next)) this.add((n) => `${alias}.id ${asc ? '>' : '<'} ${n}::uuid`, asUuid(w.next));
    // The routes pass dates and limits through @llm/contracts' bounded schemas; should one slip
    // past, a bound that is no date the stores hold, or a limit that is no integer, bounds nothing
    // (never a database error).
    const date = (v: string | undefined): string | undefined => {
      const ms = v ? Date.parse(v) : NaN;
      return Number.isFinite(ms) && ms * 1000 >= MIN_TIME_US && ms * 1000 <= MAX_TIME_US ? new Date(ms).toISOString() : undefined;
    };
    const newest = date(w.newest);
    const oldest = date(w.oldest);
    if (newest) this.add((n) => `${alias}.created_at <= ${n}::timestamptz`, newest);
    if (oldest) this.add((n) => `${alias}.created_at >= ${n}::timestamptz`, oldest);
    const limit = w.limit !== undefined && Number.isSafeInteger(w.limit) ? ` LIMIT ${Math.max(1, w.limit)}` : '';
    return ` ORDER BY ${alias}.id ${asc ? 'ASC' : 'DESC'}${limit}`;
  }
  sql(): string { return this.where.length ? this.where.join(' AND ') : 'true'; }
}

export interface QueryFilter {
  ids?: string[]; slugs?: string[]; tags?: JsonMap; flags?: JsonMap; includeArchived?: boolean; window?: ListWindow;
}

export async function listQueries(q: Queryable, projectId: string, f: QueryFilter): Promise<QueryView[]> {
  const t = new Terms([asUuid(projectId)]);
  t.where.push('q.project_id = $1', IS_QUERY('q'));
  if (!f.includeArchived) t.where.push('q.deleted_at IS NULL');
  if (f.ids?.length) t.add((n) => `q.id = ANY(${n}::uuid[])`, f.ids.map(asUuid).filter((x) => x !== null));
  if (f.slugs?.length) t.add((n) => `q.slug = ANY(${n}::text[])`, f.slugs);
  if (f.tags) t.add((n) => `COALESCE(q.tags, '{}'::jsonb) @> ${n}::jsonb`, JSON.stringify(f.tags));
  if (f.flags) t.add((n) => `COALESCE(q.flags, '{}'::jsonb) @> ${n}::jsonb`, JSON.stringify(f.flags));
  const order = t.window('q', f.window);
  const r = await q.query<QueryRow>(`SELECT ${QUERY_COLUMNS} FROM ${QUERIES} WHERE ${t.sql()}${order || ' ORDER BY q.id DESC'}`, t.values);
  return r.rows.map(queryView);
}

/** Simple queries: each artifact with its default variant's latest data; those without a revision are skipped. */
export async function listSimpleQueries(q: Queryable, projectId: string, f: QueryFilter): Promise<SimpleQueryView[]> {
  const out: SimpleQueryView[] = [];
  for (const query of await listQueries(q, projectId, f)) {
    const head = await readDefaultVariantHead(q, projectId, query.id);
    const latest = head ? await latestRevision(q, projectId, head.variantId) : undefined;
    if (latest) out.push(compact({ ...query, data: latest.data ?? undefined }));
  }
  return out;
}

export interface VariantFilter {
  queryIds?: string[]; querySlugs?: string[]; ids?: string[]; slugs?: string[]; name?: string; description?: string;
  tags?: JsonMap; flags?: JsonMap; includeArchived?: boolean; window?: ListWindow;
}

export async function listQueryVariants(q: Queryable, projectId: string, f: VariantFilter): Promise<QueryVariantView[]> {
  const t = new Terms([asUuid(projectId)]);
  t.where.push('v.project_id = $1');
  if (!f.includeArchived) t.where.push('v.deleted_at IS NULL');
  if (f.queryIds?.length) t.add((n) => `v.artifact_id = ANY(${n}::uuid[])`, f.queryIds.map(asUuid).filter((x) => x !== null));
  if (f.querySlugs?.length) t.add((n) => `q.slug = ANY(${n}::text[])`, f.querySlugs);
  if (f.ids?.length) t.add((n) => `v.id = ANY(${n}::uuid[])`, f.ids.map(asUuid).filter((x) => x !== null));
  if (f.slugs?.length) t.add((n) => `v.slug = ANY(${n}::text[])`, f.slugs);
  if (f.name) t.add((n) => `strpos(lower(COALESCE(v.name, v.slug)), lower(${n})) > 0`, f.name);
  if (f.description) t.add((n) => `strpos(lower(COALESCE(v.description, '')), lower(${n})) > 0`, f.description);
  if (f.tags) t.add((n) => `COALESCE(v.tags, '{}'::jsonb) @> ${n}::jsonb`, JSON.stringify(f.tags));
  if (f.flags) t.add((n) => `COALESCE(v.flags, '{}'::jsonb) @> ${n}::jsonb`, JSON.stringify(f.flags));
  const order = t.window('v', f.window);
  const r = await q.query<VariantRow>(
    `SELECT ${VARIANT_COLUMNS} FROM ${VARIANT_FROM} WHERE ${t.sql()}${order || ' ORDER BY v.id DESC'}`, t.values);
  return r.rows.map((row) => variantView(row));
}

export interface RevisionFilter {
  queryIds?: string[]; querySlugs?: string[]; variantIds?: string[]; variantSlugs?: string[]; ids?: string[]; slugs?: string[];
  authors?: string[]; message?: string; name?: string; description?: string; tags?: JsonMap; flags?: JsonMap; includeArchived?: boolean; window?: ListWindow;
}

export async function listQueryRevisions(q: Queryable, projectId: string, f: RevisionFilter): Promise<QueryRevisionView[]> {
  const t = new Terms([asUuid(projectId)]);
  t.where.push('r.project_id = $1');
  if (!f.includeArchived) t.where.push('r.deleted_at IS NULL');
  const uuids = (xs: string[]): string[] => xs.map(asUuid).filter((x) => x !== null);
  if (f.queryIds?.length) t.add((n) => `r.artifact_id = ANY(${n}::uuid[])`, uuids(f.queryIds));
  if (f.querySlugs?.length) t.add((n) => `q.slug = ANY(${n}::text[])`, f.querySlugs);
  if (f.variantIds?.length) t.add((n) => `r.variant_id = ANY(${n}::uuid[])`, uuids(f.variantIds));
  if (f.variantSlugs?.length) t.add((n) => `v.slug = ANY(${n}::text[])`, f.variantSlugs);
  if (f.ids?.length) t.add((n) => `r.id = ANY(${n}::uuid[])`, uuids(f.ids));
  if (f.slugs?.length) t.add((n) => `r.slug = ANY(${n}::text[])`, f.slugs);
  if (f.authors?.length) t.add((n) => `r.created_by_id = ANY(${n}::text[])`, f.authors);
  if (f.message) t.add((n) => `strpos(lower(COALESCE(r.message, '')), lower(${n})) > 0`, f.message);
  if (f.name) t.add((n) => `strpos(lower(COALESCE(r.name, '')), lower(${n})) > 0`, f.name);
  if (f.description) t.add((n) => `strpos(lower(COALESCE(r.description, '')), lower(${n})) > 0`, f.description);
  if (f.tags) t.add((n) => `COALESCE(r.tags, '{}'::jsonb) @> ${n}::jsonb`, JSON.stringify(f.tags));
  if (f.flags) t.add((n) => `COALESCE(r.flags, '{}'::jsonb) @> ${n}::jsonb`, JSON.stringify(f.flags));
  const order = t.window('r', f.window);
  const r = await q.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM ${REVISION_FROM} WHERE ${t.sql()}${order || ' ORDER BY r.id DESC'}`, t.values);
  return r.rows.map((row) => revisionView(row));
}

/**
 * The log (§1.3): the target revision (named, else the variant's latest, else the latest of the
 * query's default variant) and the earlier live revisions of its variant, newest first, ≤ depth.
 */
export async function logQueryRevisions(
  q: Queryable, projectId: string, target: { queryId?: string; variantId?: string; revisionId?: string }, depth?: number,
): Promise<QueryRevisionView[]> {
  const p = asUuid(projectId);
  if (p === null || (depth !== undefined && depth < 1)) return [];
  let head: RevisionRow | undefined;
  if (target.revisionId) {
    const k = asUuid(target.revisionId);
    head = k ? (await q.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM ${REVISION_FROM} WHERE r.project_id = $1 AND r.id = $2`, [p, k])).rows[0] : undefined;
  } else {
    const variant = target.variantId ? await readQueryVariantHead(q, p, target.variantId)
      : target.queryId ? await readDefaultVariantHead(q, p, target.queryId) : undefined;
    head = variant ? await latestRevision(q, p, variant.variantId) : undefined;
  }
  if (!head) return [];
  const r = await q.query<RevisionRow>(
    `SELECT ${REVISION_COLUMNS} FROM ${REVISION_FROM}
      WHERE r.project_id = $1 AND r.variant_id = $2::uuid AND r.version < $3 AND r.deleted_at IS NULL
      ORDER BY r.version DESC${depth !== undefined && Number.isSafeInteger(depth) ? ` LIMIT ${depth - 1}` : ''}`,
    [p, head.variant_id, head.version]);
  return [head, ...r.rows].map((row) => revisionView(row, false));
}

// ── Saved-query references (§1.4; also POST /spans/query and /traces/query) ──

export interface RevisionRef { id?: string | null; slug?: string | null; version?: string | null }
export interface RevisionRefs { query?: RevisionRef | undefined; variant?: RevisionRef | undefined; revision?: RevisionRef | undefined }

/**
 * The revision the refs resolve to: the revision's id (else slug); else the variant's (id, else
 * slug) revision with the version, or its latest; else the query's (id, else slug) default
 * variant, then as before. Consistency with the other refs is the caller's check.
 */
export async function resolveQueryRevision(q: Queryable, projectId: string, refs: RevisionRefs): Promise<QueryRevisionView | undefined> {
  const p = asUuid(projectId);
  if (p === null) return undefined;
  const one = async (where: string, value: unknown): Promise<RevisionRow | undefined> =>
    (await q.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM ${REVISION_FROM} WHERE r.project_id = $1 AND ${where}`, [p, value])).rows[0];
  const version = refs.revision?.version ?? undefined;
  if (version !== undefined && !/^[0-9]{1,9}$/.test(version)) return undefined;
  let row: RevisionRow | undefined;
  if (refs.revision?.id) row = asUuid(refs.revision.id) ? await one('r.id = $2::uuid', asUuid(refs.revision.id)) : undefined;
  else if (refs.revision?.slug) row = await one('r.slug = $2', refs.revision.slug);
  else {
    let variantId: string | undefined;
    const v = refs.variant;
    const query = refs.query;
    if (v?.id || v?.slug) {
      const r = await q.query<{ id: string }>(
        `SELECT id::text AS id FROM artifact_variants WHERE project_id = $1 AND family = 'query' AND ${v.id ? 'id = $2::uuid' : 'slug = $2'}`,
        [p, v.id ? asUuid(v.id) : v.slug]);
      variantId = r.rows[0]?.id;
    } else if (query?.id || query?.slug) {
      const r = await q.query<{ id: string }>(
        `SELECT v.id::text AS id FROM ${VARIANT_FROM}
          WHERE v.project_id = $1 AND ${query.id ? 'q.id = $2::uuid' : 'q.slug = $2'} ORDER BY v.created_at, v.id LIMIT 1`,
        [p, query.id ? asUuid(query.id) : query.slug]);
      variantId = r.rows[0]?.id;
    }
    row = variantId ? await latestRevision(q, p, variantId, version) : undefined;
  }
  return row ? revisionView(row) : undefined;
}

/** The name POST /spans/query and /traces/query resolve their refs with. */
export const findSavedQueryRevision = resolveQueryRevision;

/** The slugs of a variant and of its query (the platform facts of a commit name them). */
export async function querySlugsOfVariant(q: Queryable, variantId: string): Promise<{ query: string; variant: string } | undefined> {
  const r = await q.query<{ q: string; v: string }>(
    `SELECT q.slug AS q, v.slug AS v FROM ${VARIANT_FROM} WHERE v.id = $1::uuid`, [asUuid(variantId)]);
  const row = r.rows[0];
  return row ? { query: row.q, variant: row.v } : undefined;
}
