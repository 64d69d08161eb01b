// Pure projection of API key events (accounts.api_key.*). A project's key events share a partition.
import type { DecodedEvent } from '@llm/events';
import type { Projection } from './projection.ts';

export type ApiKeyEvent = DecodedEvent<'accounts.api_key.created'> | DecodedEvent<'accounts.api_key.revoked'>;

export interface ApiKeyFactsNeeded { projectId: string; keyId: string }
export interface ApiKeyFacts {
  projectExists: boolean;
  /** The key with the event's id in this project. */
  key?: { revoked: boolean };
}

export const apiKeyFactsNeeded = (e: ApiKeyEvent): ApiKeyFactsNeeded => ({ projectId: e.payload.project_id, keyId: e.payload.key_id });

export function projectApiKeyEvent(e: ApiKeyEvent, f: ApiKeyFacts): Projection {
  const at = new Date(e.timeUs / 1000).toISOString();
  if (e.type === 'accounts.api_key.created') {
    const p = e.payload;
    if (!f.projectExists) return { status: 'rejected', reason: 'Project not found' };
    if (f.key) return { status: 'rejected', reason: 'API key already exists' };
    return {
      status: 'applied',
      statements: [{
        text: 'INSERT INTO api_keys (id, project_id, user_id, prefix, secret_hash, name, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        values: [p.key_id, p.project_id, p.user_id, p.prefix, p.secret_hash, p.name, p.expires_at_us ? new Date(p.expires_at_us / 1000).toISOString() : null, at],
      }],
    };
  }
  const p = e.payload;
  if (!f.key) return { status: 'rejected', reason: 'API key not found' };
  // Revoking twice is harmless: the first revocation time stays.
  return { status: 'applied', statements: [{ text: 'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1', values: [p.key_id, at] }] };
}
