// secrets from the secret aggregate's facts (rules: rules.ts). The sealed value
// is stored as it came; this process never holds a data key.
import { eventTime } from '../../account-event.ts';
import type { SecretEvent, SecretState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

export function projectSecret(e: SecretEvent, _s: SecretState): SqlStatement[] {
  const at = eventTime(e);
  if (e.type === 'accounts.secret.deleted') return [{ text: 'DELETE FROM secrets WHERE id = $1 AND project_id = $2', values: [e.payload.secret_id, e.payload.project_id] }];
  const i = e.payload.secret;
  const values = [i.secret_id, i.project_id, i.slug, i.kind, i.name, i.description, i.public_data_json || '{}', i.sealed_data, i.write_only, i.managed_by || null, i.configured, at, e.actorId || null];
  return [e.type === 'accounts.secret.created'
    ? {
      text: `INSERT INTO secrets (id, project_id, slug, kind, name, description, public_data, sealed_data, write_only, managed_by, configured, created_at, updated_at, updated_by_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12, $12, $13)`,
      values,
    }
    : {
      text: `UPDATE secrets SET slug = $3, kind = $4, name = $5, description = $6, public_data = $7::jsonb, sealed_data = $8, write_only = $9,
               managed_by = $10, configured = $11, updated_at = $12, updated_by_id = $13, version = version + 1
             WHERE id = $1 AND project_id = $2`,
      values,
    }];
}
