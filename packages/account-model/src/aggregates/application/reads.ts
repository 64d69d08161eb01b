// The one reader of applications, application_variants and application_revisions (0015; written by
// projector-accounts only): the application aggregate's state and the rows the routes answer from.
import type { ApplicationEvent, ApplicationState } from './rules.ts';
import { asUuid, type Queryable } from '../../queryable.ts';
import { existingProjects } from '../project/projects.ts';

export interface ApplicationRow {
  id: string; project_id: string; slug: string; name: string | null; description: string | null;
  tags: Record<string, unknown> | null; meta: Record<string, unknown> | null; flags: Record<string, unknown> | null;
  data: Record<string, unknown> | null; created_at: Date; created_by_id: string | null;
}
export interface ApplicationVariantRow {
  id: string; project_id: string; application_id: string; slug: string; name: string | null;
  flags: Record<string, unknown> | null; tags: Record<string, unknown> | null; archived: boolean;
  /** The current revision number; null before the first commit. */
  revision: number | null; created_at: Date; created_by_id: string | null;
}
export interface ApplicationRevisionRow {
  id: string; project_id: string; application_id: string; variant_id: string; slug: string | null; version: number;
  message: string | null; data: Record<string, unknown> | null; created_at: Date; created_by_id: string | null;
}

const APP_COLUMNS = `id::text AS id, project_id::text AS project_id, slug, name, description, tags, meta, flags, data, created_at, created_by_id`;
const VARIANT_COLUMNS = `id::text AS id, project_id::text AS project_id, application_id::text AS application_id, slug, name, flags, tags, archived,
  revision, created_at, created_by_id`;
const REVISION_COLUMNS = `id::text AS id, project_id::text AS project_id, application_id::text AS application_id, variant_id::text AS variant_id,
  slug, version, message, data, created_at, created_by_id`;

/** What an application event is decided on. */
export async function loadApplicationState(q: Queryable, e: ApplicationEvent): Promise<ApplicationState> {
  const projectId = e.type === 'accounts.application.created' ? e.payload.application.project_id : e.payload.project_id;
  const appId = e.type === 'accounts.application.created' ? e.payload.application.application_id : e.payload.application_id;
  // One query after the other: `q` may be the projector's transaction client.
  const projects = await existingProjects(q, [projectId]);
  const apps = (await q.query<{ id: string; project_id: string; slug: string }>(
    `SELECT id::text AS id, project_id::text AS project_id, slug FROM applications
      WHERE id = $1::uuid OR (project_id = $2::uuid AND slug = $3)`,
    [asUuid(appId), asUuid(projectId), e.type === 'accounts.application.created' ? e.payload.application.slug : null],
  )).rows;
  const [variantId, variantSlug] = e.type === 'accounts.application.created'
    ? [e.payload.variant_id, null]
    : [e.payload.variant_id, e.type === 'accounts.application.variant_created' ? e.payload.slug : null];
  const variants = (await q.query<{ id: string; application_id: string; project_id: string; slug: string; revision: number | null }>(
    `SELECT id::text AS id, application_id::text AS application_id, project_id::text AS project_id, slug, revision FROM application_variants
      WHERE id = $1::uuid OR (application_id = $2::uuid AND slug = $3)`,
    [asUuid(variantId), asUuid(appId), variantSlug],
  )).rows;
  return {
    projects: projects.map((id) => ({ id })),
    applications: apps.map((a) => ({ id: a.id, projectId: a.project_id, slug: a.slug })),
    variants: variants.map((v) => ({ id: v.id, applicationId: v.application_id, projectId: v.project_id, slug: v.slug, current: v.revision })),
  };
}

/** An application of the project by id (never another project's). */
export async function readApplication(q: Queryable, projectId: string, id: string): Promise<ApplicationRow | undefined> {
  const r = await q.query<ApplicationRow>(`SELECT ${APP_COLUMNS} FROM applications WHERE project_id = $1::uuid AND id = $2::uuid`, [asUuid(projectId), asUuid(id)]);
  return r.rows[0];
}

/** A variant of the project by id. */
export async function readApplicationVariant(q: Queryable, projectId: string, id: string): Promise<ApplicationVariantRow | undefined> {
  const r = await q.query<ApplicationVariantRow>(`SELECT ${VARIANT_COLUMNS} FROM application_variants WHERE project_id = $1::uuid AND id = $2::uuid`,
    [asUuid(projectId), asUuid(id)]);
  return r.rows[0];
}

/** The variants of an application of the project, oldest first. */
export async function readApplicationVariants(q: Queryable, projectId: string, applicationId: string): Promise<ApplicationVariantRow[]> {
  const r = await q.query<ApplicationVariantRow>(
    `SELECT ${VARIANT_COLUMNS} FROM application_variants WHERE project_id = $1::uuid AND application_id = $2::uuid ORDER BY created_at, id`,
    [asUuid(projectId), asUuid(applicationId)],
  );
  return r.rows;
}

/** A variant's revision by number. */
export async function readApplicationRevision(q: Queryable, projectId: string, variantId: string, version: number): Promise<ApplicationRevisionRow | undefined> {
  const r = await q.query<ApplicationRevisionRow>(
    `SELECT ${REVISION_COLUMNS} FROM application_revisions WHERE project_id = $1::uuid AND variant_id = $2::uuid AND version = $3`,
    [asUuid(projectId), asUuid(variantId), version],
  );
  return r.rows[0];
}
