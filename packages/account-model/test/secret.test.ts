// Given/when/then of vault secrets: slugs, ids, managed rows, one subscription per provider.
import { describe, expect, it } from 'vitest';
import type { SecretInfo } from '@llm/events';
import { generatedSlug, nextProviderKeyName, secret, type SecretState, type StoredSecret } from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

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

const nothing: SecretState = { secrets: [] };
/** Secret S1 of project P as `created()` stores it (version 1). */
const stored = (over: Partial<StoredSecret> = {}): StoredSecret => ({
  id: S1, projectId: P, slug: 'openai-1', kind: 'provider_key', name: 'OpenAI', managedBy: '', subscriptionProvider: '', version: 1, ...over,
});
const secrets = (...x: StoredSecret[]): SecretState => ({ secrets: x });
/** A chatgpt subscription connection of project P. */
const subscription = (id: string, slug: string): StoredSecret => stored({ id, slug, kind: 'subscription_provider', subscriptionProvider: 'chatgpt' });

describe('secret aggregate', () => {
  it('given nothing, when a secret is created, then it is accepted', () => {
    expect(decideOn(secret, nothing, created()).status).toBe('accepted');
  });

  it('slugs are unique per project; ids everywhere', () => {
    const h = secrets(stored());
    expect(decideOn(secret, h, created({ secret_id: S2 }))).toMatchObject({ code: 'secret_slug_exists', details: { slug: 'openai-1' } });
    expect(decideOn(secret, h, created({ secret_id: S2, project_id: Q })).status).toBe('accepted');
    expect(decideOn(secret, h, created({ slug: 'other', project_id: Q }))).toMatchObject({ code: 'secret_exists' });
    expect(decideOn(secret, h, updated({ name: 'renamed' })).status).toBe('accepted');
  });

  it('an update needs the secret in its project; a delete of nothing is still a fact', () => {
    expect(decideOn(secret, nothing, updated())).toMatchObject({ code: 'secret_not_found' });
    expect(decideOn(secret, secrets(stored()), updated({ project_id: Q }))).toMatchObject({ code: 'secret_not_found' });
    expect(decideOn(secret, nothing, deleted()).status).toBe('accepted');
    expect(decideOn(secret, secrets(stored()), deleted()).status).toBe('accepted');
  });

  it('platform-managed rows are read-only', () => {
    const h = secrets(stored({ managedBy: 'platform' }));
    expect(decideOn(secret, h, updated())).toMatchObject({ code: 'secret_managed' });
    expect(decideOn(secret, h, deleted())).toMatchObject({ code: 'secret_managed' });
  });

  it('one subscription connection per provider and project', () => {
    const sub = (id: string, slug: string) => created({ secret_id: id, slug, kind: 'subscription_provider', public_data_json: '{"provider":"chatgpt"}' });
    expect(decideOn(secret, nothing, sub(S1, 'a')).status).toBe('accepted');
    expect(decideOn(secret, secrets(subscription(S1, 'a')), sub(S2, 'b'))).toMatchObject({ code: 'subscription_exists', message: expect.stringMatching(/already has a chatgpt subscription/) });
    // …nor by turning another secret into a second one.
    const toSub = ev('accounts.secret.updated', { secret: info({ secret_id: S2, slug: 'b', kind: 'subscription_provider', public_data_json: '{"provider":"chatgpt"}' }) });
    expect(decideOn(secret, secrets(subscription(S1, 'a'), stored({ id: S2, slug: 'b' })), toSub)).toMatchObject({ code: 'subscription_exists' });
    expect(decideOn(secret, secrets(subscription(S1, 'a')), ev('accounts.secret.updated', { secret: info({ secret_id: S1, slug: 'a', kind: 'subscription_provider', public_data_json: '{"provider":"chatgpt"}' }) })).status).toBe('accepted');
  });

  it('command rules: provider-key names and generated slugs', () => {
    expect(nextProviderKeyName('OpenAI', [])).toBe('OpenAI');
    expect(nextProviderKeyName('OpenAI', ['OpenAI', 'OpenAI 2'])).toBe('OpenAI 3');
    expect(generatedSlug('Mon  Clé — API', '01234567-89ab-cdef-0123-456789abcdef')).toBe('mon-cle-api-456789abcdef');
  });

  it('a change made at the version it read applies only there; without an expectation it always applies', () => {
    const h = secrets(stored({ name: 'two', version: 2 }));
    expect(decideOn(secret, h, ev('accounts.secret.updated', { secret: info() }, { expectedVersion: 1 }))).toMatchObject({ code: 'secret_changed', details: { current_version: 2 } });
    expect(decideOn(secret, h, ev('accounts.secret.updated', { secret: info() }, { expectedVersion: 2 })).status).toBe('accepted');
    expect(decideOn(secret, h, updated()).status).toBe('accepted');
  });
});
