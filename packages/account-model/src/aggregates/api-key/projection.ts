// api_keys from the API key aggregate's facts (rules: rules.ts).
import { eventTime } from '../../account-event.ts';
import type { ApiKeyEvent, ApiKeyState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

export function projectApiKey(e: ApiKeyEvent, _s: ApiKeyState): SqlStatement[] {
  const at = eventTime(e);
  if (e.type === 'accounts.api_key.created') {
    const p = e.payload;
    return [{
      text: 'INSERT INTO api_keys (id, project_id, user_id, prefix, secret_hash, name, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      values: [p.key_id, p.project_id, p.user_id, p.prefix, p.secret_hash, p.name, p.expires_at_us ? new Date(p.expires_at_us / 1000).toISOString() : null, at],
    }];
  }
  // Revoking twice is harmless: the first revocation time stays.
  return [{ text: 'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1', values: [e.payload.key_id, at] }];
}
