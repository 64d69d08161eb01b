// API keys of a project (POST/DELETE /keys). Every key event of a project is keyed
// `project:<id>:keys`, so a key is created in a project that exists and revoked only in its own.
// Revoking twice is harmless: the first revocation stands.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, reject, type Decision } from '../../decision.ts';
import { sameId } from '../ids.ts';

export type ApiKeyEventType = 'accounts.api_key.created' | 'accounts.api_key.revoked';
export type ApiKeyEvent = AccountEvent<ApiKeyEventType>;

export interface ApiKeyRef { id: string; projectId: string; revoked: boolean }

/** The projects (that exist) and the keys an event's decision looks at. */
export interface ApiKeyState { projects: Array<{ id: string }>; keys: ApiKeyRef[] }

export const API_KEY_REJECTIONS = {
  project_not_found: 'not_found',
  api_key_exists: 'conflict',
  api_key_not_found: 'not_found',
} as const;
export type ApiKeyRejection = keyof typeof API_KEY_REJECTIONS;

const notFound = (): Decision<ApiKeyRejection> => reject('api_key_not_found', 'API key not found');
const keyOf = (s: ApiKeyState, id: string): ApiKeyRef | undefined => s.keys.find((k) => sameId(k.id, id));

export const apiKeyRules = rules({
  eventTypes: ['accounts.api_key.created', 'accounts.api_key.revoked'],
  rejections: API_KEY_REJECTIONS,

  decide(e: ApiKeyEvent, s: ApiKeyState): Decision<ApiKeyRejection> {
    const p = e.payload;
    if (e.type === 'accounts.api_key.created') {
      if (!s.projects.some((x) => sameId(x.id, p.project_id))) return reject('project_not_found', 'Project not found');
      // Key ids are unique across projects (the table's primary key).
      if (keyOf(s, p.key_id)) return reject('api_key_exists', 'API key already exists');
      return accepted;
    }
    const key = keyOf(s, p.key_id);
    return key && sameId(key.projectId, p.project_id) ? accepted : notFound();
  },
});

// Rules of the key commands that come before any event.

/** DELETE /keys/{id or prefix}: the key named must be one of the caller's project. */
export function decideKeyRef<K>(key: K | undefined): Decision<ApiKeyRejection> {
  return key === undefined ? notFound() : accepted;
}

// The stream key: every event of this aggregate goes to one partition of the accounts topic, in order.
/** A project's API keys. */
export const apiKeysKey = (projectId: string): string => `project:${projectId}:keys`;
