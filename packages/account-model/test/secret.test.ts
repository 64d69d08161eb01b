// Given/when/then of vault secrets: slugs, ids, managed rows, one subscription per provider.
import { describe, expect, it } from 'vitest';
import type { SecretInfo } from '@llm/events';
import { generatedSlug, nextProviderKeyName, secret } from '../src/aggregates/secret.ts';
import { ev, given } from './support/given.ts';

const P = '00000000-0000-4000-8000-00000000000a';
const Q = '00000000-0000-4000-8000-00000000000b';
const S1 = '00000000-0000-4000-8000-000000000001';
const S2 = '00000000-0000-4000-8000-000000000002';
const info = (over: Partial<SecretInfo> = {}): SecretInfo => ({
  secret_id: S1, project_id: P, slug: 'openai-1', kind: 'provider_key', name: 'OpenAI', description: '', public_data_json: '{"kind":"openai","provider":{}}',
  sealed_data: 'v1.x.y.z.w', write_only: true, managed_by: '', configured: true, ...over,
});
const created = (over: Partial<SecretInfo> = {}) => ev('accounts.secret.created', { secret: info(over) });
const updated = (over: Partial<SecretInfo> = {}) => ev('accounts.secret.updated', { secret: info(over) });
const deleted = (id = S1, project = P) => ev('accounts.secret.deleted', { secret_id: id, project_id: project });

describe('secret aggregate', () => {
  it('given nothing, when a secret is created, then the project holds it', () => {
    const t = given(secret, []).when(created());
    expect(t.decision.status).toBe('accepted');
    expect(t.state.secrets).toEqual([{ id: S1, projectId: P, slug: 'openai-1', kind: 'provider_key', name: 'OpenAI', managedBy: '', subscriptionProvider: '', version: 1 }]);
  });

  it('slugs are unique per project; ids everywhere', () => {
    const h = given(secret, [created()]);
    expect(h.when(created({ secret_id: S2 })).decision).toMatchObject({ code: 'secret_slug_exists', details: { slug: 'openai-1' } });
    expect(h.when(created({ secret_id: S2, project_id: Q })).decision.status).toBe('accepted');
    expect(h.when(created({ slug: 'other', project_id: Q })).decision).toMatchObject({ code: 'secret_exists' });
    expect(h.when(updated({ name: 'renamed' })).decision.status).toBe('accepted');
  });

  it('an update needs the secret in its project; a delete of nothing is still a fact', () => {
    expect(given(secret, []).when(updated()).decision).toMatchObject({ code: 'secret_not_found' });
    expect(given(secret, [created()]).when(updated({ project_id: Q })).decision).toMatchObject({ code: 'secret_not_found' });
    expect(given(secret, []).when(deleted()).decision.status).toBe('accepted');
    expect(given(secret, [created()]).when(deleted()).state.secrets).toEqual([]);
  });

  it('platform-managed rows are read-only', () => {
    const h = given(secret, [created({ managed_by: 'platform' })]);
    expect(h.when(updated()).decision).toMatchObject({ code: 'secret_managed' });
    expect(h.when(deleted()).decision).toMatchObject({ code: 'secret_managed' });
  });

  it('one subscription connection per provider and project', () => {
    const sub = (id: string, slug: string) => created({ secret_id: id, slug, kind: 'subscription_provider', public_data_json: '{"provider":"chatgpt"}' });
    expect(given(secret, [sub(S1, 'a')]).when(sub(S2, 'b')).decision).toMatchObject({ code: 'subscription_exists', message: expect.stringMatching(/already has a chatgpt subscription/) });
    // …nor by turning another secret into a second one.
    const toSub = ev('accounts.secret.updated', { secret: info({ secret_id: S2, slug: 'b', kind: 'subscription_provider', public_data_json: '{"provider":"chatgpt"}' }) });
    expect(given(secret, [sub(S1, 'a'), created({ secret_id: S2, slug: 'b' })]).when(toSub).decision).toMatchObject({ code: 'subscription_exists' });
    expect(given(secret, [sub(S1, 'a')]).when(ev('accounts.secret.updated', { secret: info({ secret_id: S1, slug: 'a', kind: 'subscription_provider', public_data_json: '{"provider":"chatgpt"}' }) })).decision.status).toBe('accepted');
  });

  it('command rules: provider-key names and generated slugs', () => {
    expect(nextProviderKeyName('OpenAI', [])).toBe('OpenAI');
    expect(nextProviderKeyName('OpenAI', ['OpenAI', 'OpenAI 2'])).toBe('OpenAI 3');
    expect(generatedSlug('Mon  Clé — API', '01234567-89ab-cdef-0123-456789abcdef')).toBe('mon-cle-api-456789abcdef');
  });

  it('a change made at the version it read applies only there; without an expectation it always applies', () => {
    const h = given(secret, [created(), updated({ name: 'two' })]);
    expect(h.state.secrets[0]!.version).toBe(2);
    expect(h.when(ev('accounts.secret.updated', { secret: info() }, { expectedVersion: 1 })).decision).toMatchObject({ code: 'secret_changed', details: { current_version: 2 } });
    expect(h.when(ev('accounts.secret.updated', { secret: info() }, { expectedVersion: 2 })).state.secrets[0]!.version).toBe(3);
  });
});
