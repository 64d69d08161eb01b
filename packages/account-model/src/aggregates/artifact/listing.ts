// The list reads of the artifact model (reference compat §1.3, evaluations §1.2/§1.4): artifacts,
// variants and revisions of a project and family filtered by header (name/description substring,
// flags/tags containment), slugs, ids and the levels above them; archived rows only on request;
// windowed by id (newest first unless ascending, `next` exclusive, `newest`/`oldest` on
// created_at) when a window is sent, else oldest first. And a revision's log.
import type { ArtifactFamily } from './rules.ts';
import type { ArtifactRevisionRow, ArtifactRow, ArtifactVariantRow } from './reads.ts';
import { asUuid, type Queryable } from '../../queryable.ts';

export type ListLevel = 'artifact' | 'variant' | 'revision';
export interface ArtifactListWindow { newest?: string | null | undefined; oldest?: string | null | undefined; next?: string | null | undefined; limit?: number | null | undefined; order?: 'ascending' | 'descending' | null | undefined }
export interface LevelFilter { ids?: string[] | undefined; slugs?: string[] | undefined; name?: string | null | undefined; description?: string | null | undefined; flags?: Record<string, unknown> | null | undefined; tags?: Record<string, unknown> | null | undefined }
export interface ListFilter {
  /** The filter of the listed level itself. */
  own: LevelFilter;
  /** Filters of the levels above (refs): artifact, variant. */
  artifact?: LevelFilter | undefined; variant?: LevelFilter | undefined;
  /** The role flag the artifact must carry (applications, evaluators). */
  role?: 'is_application' | 'is_evaluator' | undefined;
  authors?: string[] | undefined; message?: string | null | undefined;
  includeArchived?: boolean | undefined;
  window?: ArtifactListWindow | null | undefined;
}

const TABLE: Record<ListLevel, string> = { artifact: 'artifacts', variant: 'artifact_variants', revision: 'artifact_revisions' };
const HEADER = 'name, description, flags, tags, meta, created_at, created_by_id, updated_at, updated_by_id, deleted_at, deleted_by_id';
const COLUMNS: Record<ListLevel, string> = {
  artifact: `x.id::text AS id, x.project_id::text AS project_id, x.family, x.slug, ${prefixed(HEADER)}`,
  variant: `x.id::text AS id, x.artifact_id::text AS artifact_id, x.slug, x.latest_version, ${prefixed(HEADER)}`,
  revision: `x.id::text AS id, x.artifact_id::text AS artifact_id, x.variant_id::text AS variant_id, x.slug, x.version, x.data, x.message, ${prefixed(HEADER)}`,
};
function prefixed(cols: string): string { return cols.split(', ').map((c) => `x.${c}`).join(', '); }

export async function listLevel(q: Queryable, projectId: string, family: ArtifactFamily, level: 'artifact', f: ListFilter): Promise<ArtifactRow[]>;
export async function listLevel(q: Queryable, projectId: string, family: ArtifactFamily, level: 'variant', f: ListFilter): Promise<ArtifactVariantRow[]>;
export async function listLevel(q: Queryable, projectId: string, family: ArtifactFamily, level: 'revision', f: ListFilter): Promise<ArtifactRevisionRow[]>;
export async function listLevel(q: Queryable, projectId: string, family: ArtifactFamily, level: ListLevel, f: ListFilter): Promise<unknown[]> {
  const values: unknown[] = [asUuid(projectId), family];
  const where = ['x.project_id = $1::uuid', 'x.family = $2'];
  const add = (sql: (n: number) => string, v: unknown): void => { values.push(v); where.push(sql(values.length)); };
  const level_ = (alias: string, l: LevelFilter | undefined): void => {
    if (!l) return;
    if (l.ids?.length) add((n) => `${alias}.id = ANY($${n}::uuid[])`, l.ids.map(asUuid).filter((x) => x !== null));
    if (l.slugs?.length) add((n) => `${alias}.slug = ANY($${n}::text[])`, l.slugs);
    if (l.name != null) add((n) => `strpos(lower(coalesce(${alias}.name, '')), lower($${n})) > 0`, l.name);
    if (l.description != null) add((n) => `strpos(lower(coalesce(${alias}.description, '')), lower($${n})) > 0`, l.description);
    if (l.flags && Object.keys(l.flags).length) add((n) => `coalesce(${alias}.flags, '{}'::jsonb) @> $${n}::jsonb`, JSON.stringify(l.flags));
    if (l.tags && Object.keys(l.tags).length) add((n) => `coalesce(${alias}.tags, '{}'::jsonb) @> $${n}::jsonb`, JSON.stringify(l.tags));
  };
  const joins: string[] = [];
  const artifactAlias = level === 'artifact' ? 'x' : 'a';
  if (level !== 'artifact') joins.push('JOIN artifacts a ON a.id = x.artifact_id');
  if (level === 'revision') joins.push('JOIN artifact_variants v ON v.id = x.variant_id');
  level_('x', f.own);
  if (level !== 'artifact') level_('a', f.artifact);
  if (level === 'revision') level_('v', f.variant);
  if (f.role) add((n) => `coalesce(${artifactAlias}.flags, '{}'::jsonb) @> $${n}::jsonb`, JSON.stringify({ [f.role!]: true }));
  if (f.authors?.length) add((n) => `x.created_by_id = ANY($${n}::text[])`, f.authors);
  if (f.message != null) add((n) => `strpos(lower(coalesce(x.message, '')), lower($${n})) > 0`, f.message);
  if (!f.includeArchived) where.push('x.deleted_at IS NULL');
  let order = 'x.created_at, x.id';
  let limit = '';
  const w = f.window;
  if (w) {
    const asc = w.order === 'ascending';
    order = asc ? 'x.id' : 'x.id DESC';
    if (w.next) add((n) => `x.id ${asc ? '>' : '<'} $${n}::uuid`, asUuid(w.next));
    if (w.newest) add((n) => `x.created_at <= $${n}::timestamptz`, w.newest);
    if (w.oldest) add((n) => `x.created_at >= $${n}::timestamptz`, w.oldest);
    if (w.limit != null) limit = ` LIMIT ${Math.max(1, Math.min(10_000, Math.floor(w.limit)))}`;
  }
  const r = await q.query(`SELECT ${COLUMNS[level]} FROM ${TABLE[level]} x ${joins.join(' ')} WHERE ${where.join(' AND ')} ORDER BY ${order}${limit}`, values);
  return r.rows;
}

/** A variant's live revisions up to `version`, newest first, at most `depth` (below 1: none). */
export async function revisionLog(q: Queryable, variantId: string, version: number, depth: number): Promise<ArtifactRevisionRow[]> {
  if (depth < 1) return [];
  const r = await q.query<ArtifactRevisionRow>(
    `SELECT ${COLUMNS.revision} FROM artifact_revisions x WHERE x.variant_id = $1::uuid AND x.version <= $2 AND x.deleted_at IS NULL ORDER BY x.version DESC LIMIT $3`,
    [asUuid(variantId), version, Math.min(depth, 10_000)],
  );
  return r.rows;
}

/** A variant's revisions up to `version`, oldest first (archived included: a fork copies its source's history). */
export async function revisionsUpTo(q: Queryable, variantId: string, version: number): Promise<ArtifactRevisionRow[]> {
  const r = await q.query<ArtifactRevisionRow>(
    `SELECT ${COLUMNS.revision} FROM artifact_revisions x WHERE x.variant_id = $1::uuid AND x.version <= $2 ORDER BY x.version`, [asUuid(variantId), version],
  );
  return r.rows;
}
