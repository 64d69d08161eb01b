// applications, application_variants, application_revisions from the application aggregate's facts
// (rules: rules.ts). A new application brings its first variant with the
// placeholder revision 0 and revision 1 holding its data; a commit moves the variant's number on.
import { eventTime } from '../../account-event.ts';
import type { ApplicationEvent, ApplicationState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

const jsonOrNull = (s: string): string | null => (s === '' ? null : s);

export function projectApplication(e: ApplicationEvent, _s: ApplicationState): SqlStatement[] {
  const at = eventTime(e);
  const by = e.actorId || null;
  if (e.type === 'accounts.application.created') {
    const a = e.payload.application;
    const p = e.payload;
    return [
      {
        text: `INSERT INTO applications (id, project_id, slug, name, description, tags, meta, flags, data, created_at, created_by_id)
               VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, $9::jsonb, $10, $11)`,
        values: [a.application_id, a.project_id, a.slug, a.name || null, a.description || null, jsonOrNull(a.tags_json), jsonOrNull(a.meta_json),
          jsonOrNull(a.flags_json), jsonOrNull(a.data_json), at, by],
      },
      {
        text: `INSERT INTO application_variants (id, project_id, application_id, slug, name, flags, revision, created_at, created_by_id)
               VALUES ($1, $2, $3, $4, $5, $6::jsonb, 1, $7, $8)`,
        values: [p.variant_id, a.project_id, a.application_id, p.variant_slug, a.name || a.slug, jsonOrNull(a.flags_json), at, by],
      },
      {
        text: `INSERT INTO application_revisions (id, project_id, application_id, variant_id, slug, version, message, data, created_at, created_by_id)
               VALUES ($1, $3, $4, $5, NULL, 0, NULL, NULL, $7, $8), ($2, $3, $4, $5, NULL, 1, NULL, $6::jsonb, $7, $8)`,
        values: [p.revision0_id, p.revision_id, a.project_id, a.application_id, p.variant_id, jsonOrNull(a.data_json), at, by],
      },
    ];
  }
  if (e.type === 'accounts.application.variant_created') {
    const p = e.payload;
    return [{
      text: `INSERT INTO application_variants (id, project_id, application_id, slug, name, flags, tags, revision, created_at, created_by_id)
             VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, NULL, $8, $9)`,
      values: [p.variant_id, p.project_id, p.application_id, p.slug, p.name || null, jsonOrNull(p.flags_json), jsonOrNull(p.tags_json), at, by],
    }];
  }
  const p = e.payload;
  return [
    {
      text: `INSERT INTO application_revisions (id, project_id, application_id, variant_id, slug, version, message, data, created_at, created_by_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10)`,
      values: [p.revision_id, p.project_id, p.application_id, p.variant_id, p.slug || null, p.version, p.message || null, jsonOrNull(p.data_json), at, by],
    },
    { text: 'UPDATE application_variants SET revision = $2 WHERE id = $1', values: [p.variant_id, p.version] },
  ];
}
