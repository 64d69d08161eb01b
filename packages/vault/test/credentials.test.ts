// The credential rules of secret data (reference accounts §6.1–6.3).
import { describe, expect, it } from 'vitest';
import { isConfigured, mergeUpdate, preview, publicData, stringValueOf, valueOf, withoutCredentials } from '../src/credentials.ts';

describe('credentials', () => {
  it('preview: **** below 20 characters, else ceil(d/2) + **** + floor(d/2) with d = min(6, len/4)', () => {
    expect(preview('short')).toBe('****');
    expect(preview('a'.repeat(19))).toBe('****');
    expect(preview('abcdefghijklmnopqrst')).toBe('abc****st'); // 20 characters: d = 5, so 3 and 2
    expect(preview('abcdefghijklmnopqrstuvwxyz0123456789')).toBe('abc****789');
  });

  it('the value field of each kind, and what is left without credentials', () => {
    expect(valueOf('provider_key', { kind: 'openai', provider: { key: 'k' } })).toBe('k');
    expect(valueOf('sso_provider', { provider: { client_id: 'c', client_secret: 's' } })).toBe('s');
    expect(valueOf('custom_secret', { secret: { format: 'json', content: { a: 1 } } })).toBe('{"a":1}');
    expect(valueOf('subscription_provider', { provider: 'chatgpt' })).toBeUndefined();
    expect(withoutCredentials('custom_provider', { kind: 'bedrock', provider: { url: 'u', key: 'k', extras: { aws_secret_access_key: 'x', OPENAI_API_KEY: 'y', region: 'eu' } } }))
      .toEqual({ kind: 'bedrock', provider: { url: 'u', extras: { region: 'eu' } } });
    expect(withoutCredentials('subscription_provider', { provider: 'chatgpt', login: { refresh: 'r' }, login_attempt: {} })).toEqual({ provider: 'chatgpt' });
    expect(isConfigured('custom_provider', { provider: { extras: { api_key: 'x' } } })).toBe(true);
    expect(isConfigured('webhook_provider', { provider: {} })).toBe(false);
  });

  it('an update keeps the stored value, credential extras, models and harnesses when omitted; another family needs a value', () => {
    const stored = { kind: 'provider_key' as const, data: { kind: 'openai', provider: { key: 'old' }, models: [{ slug: 'm' }] } };
    expect(mergeUpdate('provider_key', stored, { kind: 'openai', provider: {} })).toEqual({ kind: 'openai', provider: { key: 'old' }, models: [{ slug: 'm' }] });
    expect(mergeUpdate('provider_key', stored, { kind: 'openai', provider: { key: 'new' }, models: [] })).toEqual({ kind: 'openai', provider: { key: 'new' }, models: [] });
    expect(mergeUpdate('provider_key', stored, { kind: 'openai', provider: { key: '' } })).toEqual({ problem: 'empty_value' });
    expect(mergeUpdate('provider_key', stored, { kind: 'anthropic', provider: {} })).toEqual({ problem: 'needs_value' });
    expect(mergeUpdate('custom_secret', stored, { secret: { format: 'text' } })).toEqual({ problem: 'needs_value' });
    const custom = { kind: 'custom_provider' as const, data: { kind: 'bedrock', provider: { extras: { aws_secret_access_key: 's', region: 'eu' } }, models: [] } };
    expect(mergeUpdate('custom_provider', custom, { kind: 'bedrock', provider: { extras: { region: 'us' } }, models: [] }))
      .toEqual({ kind: 'bedrock', provider: { extras: { aws_secret_access_key: 's', region: 'us' } }, models: [] });
  });

  it('the clear part of an event or row is an allow-list: extras, model extras, URL queries and unknown fields stay sealed', () => {
    const data = {
      kind: 'custom', provider: { url: 'https://llm.example.com/v1?api-key=SECRET#x', key: 'SECRET', version: 'v1', extras: { headers: { Authorization: 'SECRET' }, region: 'eu' } },
      models: [{ slug: 'm', extras: { api_key: 'SECRET' } }], harnesses: ['h'], provider_slug: 'c', model_keys: ['c/m'], surprise: 'SECRET',
    };
    const clear = publicData('custom_provider', data);
    expect(JSON.stringify(clear)).not.toContain('SECRET');
    expect(clear).toEqual({ kind: 'custom', provider: { url: 'https://llm.example.com/v1', version: 'v1' }, models: [{ slug: 'm' }], harnesses: ['h'], provider_slug: 'c', model_keys: ['c/m'] });
    expect(publicData('sso_provider', { provider: { client_id: 'c', client_secret: 'SECRET', issuer_url: 'https://idp', scopes: [], extra: { k: 'SECRET' } } }))
      .toEqual({ provider: { client_id: 'c', issuer_url: 'https://idp', scopes: [] } });
    expect(publicData('subscription_provider', { provider: 'chatgpt', login: { refresh: 'SECRET' }, login_attempt: { user_code: 'SECRET' }, login_state: 'ready', login_version: 1, login_generation: 1 }))
      .toEqual({ provider: 'chatgpt', login_state: 'ready', login_version: 1, login_generation: 1 });
  });

  it('only a text value has a preview (a JSON secret does not)', () => {
    expect(stringValueOf('custom_secret', { secret: { format: 'json', content: { password: 'hunter2-and-more-characters' } } })).toBeUndefined();
    expect(stringValueOf('custom_secret', { secret: { format: 'text', content: 'abc' } })).toBe('abc');
  });
});
