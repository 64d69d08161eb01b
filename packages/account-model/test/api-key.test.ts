// Given/when/then of the API key aggregate: keys are created in a project that exists, revoked only
// in their own project, and revoking twice is harmless.
import { describe, expect, it } from 'vitest';
import { apiKey, decideKeyRef, type ApiKeyState } from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

const P1 = '00000000-0000-4000-8000-0000000000d1';
const P2 = '00000000-0000-4000-8000-0000000000d2';
const K1 = '00000000-0000-4000-8000-0000000000e1';
const USER = '00000000-0000-4000-8000-000000000001';
const nothing: ApiKeyState = { projects: [], keys: [] };
const projects: ApiKeyState = { projects: [{ id: P1 }, { id: P2 }], keys: [] };
/** The projects, with key K1 of project P1. */
const withKey: ApiKeyState = { ...projects, keys: [{ id: K1, projectId: P1, revoked: false }] };
/** The projects, with key K1 of project P1 revoked. */
const withRevokedKey: ApiKeyState = { ...projects, keys: [{ id: K1, projectId: P1, revoked: true }] };

const created = (key = K1, project = P1) =>
  ev('accounts.api_key.created', { key_id: key, project_id: project, user_id: USER, prefix: 'abcdefgh', secret_hash: 'h', name: 'ci', expires_at_us: 0 });
const revoked = (key = K1, project = P1) => ev('accounts.api_key.revoked', { key_id: key, project_id: project });

describe('api key aggregate', () => {
  it('given the project, when a key is created, then it is accepted', () => {
    expect(decideOn(apiKey, projects, created()).status).toBe('accepted');
  });

  it('given no such project, when a key is created, then project_not_found', () => {
    expect(decideOn(apiKey, nothing, created())).toEqual({ status: 'rejected', code: 'project_not_found', message: 'Project not found' });
  });

  it('given a key with the id (in any project), when it is created again, then api_key_exists', () => {
    expect(decideOn(apiKey, withKey, created())).toEqual({ status: 'rejected', code: 'api_key_exists', message: 'API key already exists' });
    expect(decideOn(apiKey, withKey, created(K1, P2))).toMatchObject({ code: 'api_key_exists' });
  });

  it('given a key, when revoked, then it is accepted; given it revoked, revoking it again is accepted too', () => {
    expect(decideOn(apiKey, withKey, revoked()).status).toBe('accepted');
    expect(decideOn(apiKey, withRevokedKey, revoked()).status).toBe('accepted');
  });

  it('when an unknown key, or the key of another project, is revoked, then api_key_not_found', () => {
    expect(decideOn(apiKey, projects, revoked())).toEqual({ status: 'rejected', code: 'api_key_not_found', message: 'API key not found' });
    expect(decideOn(apiKey, withKey, revoked(K1, P2))).toMatchObject({ code: 'api_key_not_found' });
  });

  it('command rule: the key named by id or prefix must be found in the project', () => {
    expect(decideKeyRef(undefined)).toMatchObject({ code: 'api_key_not_found', message: 'API key not found' });
    expect(decideKeyRef({ id: K1 }).status).toBe('accepted');
  });
});
