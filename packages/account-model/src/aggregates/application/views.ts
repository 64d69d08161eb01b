// How applications and their variants read to a client (reference compat §4.2): the answers of the
// command's writes and of the query service's reads are built here, once.
import type { Queryable } from '../../queryable.ts';
import { readApplicationRevision, readApplicationVariants, type ApplicationRow, type ApplicationVariantRow } from './reads.ts';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function applicationView(app: ApplicationRow, variant: ApplicationVariantRow | undefined, revisionId: string | undefined): Record<string, unknown> {
  return {
    id: app.id, slug: app.slug, name: app.name ?? app.slug, description: app.description, tags: app.tags, meta: app.meta, flags: app.flags, data: app.data,
    created_at: iso(app.created_at), updated_at: null, created_by_id: app.created_by_id,
    variant_id: variant?.id ?? null, revision_id: revisionId ?? null,
  };
}

export function applicationVariantView(v: ApplicationVariantRow): Record<string, unknown> {
  return {
    id: v.id, slug: v.slug, name: v.name ?? v.slug, application_id: v.application_id, flags: v.flags, tags: v.tags,
    created_at: iso(v.created_at), created_by_id: v.created_by_id,
  };
}

/** The application with its first variant and that variant's latest revision. */
export async function applicationAnswer(q: Queryable, projectId: string, app: ApplicationRow): Promise<Record<string, unknown>> {
  const first = (await readApplicationVariants(q, projectId, app.id))[0];
  const revision = first && first.revision !== null ? await readApplicationRevision(q, projectId, first.id, first.revision) : undefined;
  return applicationView(app, first, revision?.id);
}
