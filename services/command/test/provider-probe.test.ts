// The provider probe's rules (reference §8) without I/O: kinds and aliases, the one request each
// kind sends, what a provider's answer means for the key and the model list, and the config.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@llm/config';
import type { ProbeProviderRequest } from '@llm/contracts';
import {
  BASE_URL_REQUIRED, NO_KEY, extractModelIds, failureOutcome, interpretAnswer, modelListUrl, normaliseKind, planProbe, probeResponse,
  supportedKinds, type ProbePlan, type ProbeRequest,
} from '../src/accounts/domain/provider-probe.ts';
import { providerProbeEnv } from '../src/provider-probe-config.ts';

const KEY = 'sk-test-0123456789abcdef';
const req = (kind: string, provider: ProbeProviderRequest['provider'] = {}): ProbeProviderRequest => ({ kind, provider });

function sent(plan: ProbePlan): ProbeRequest {
  if (!plan.ok || !('send' in plan)) throw new Error(`expected a request, got ${JSON.stringify(plan)}`);
  return plan.send;
}

describe('provider kinds', () => {
  it('when a kind is spelled with an alias, then it is the canonical kind', () => {
    expect(normaliseKind('mistralai')).toBe('mistral');
    expect(normaliseKind('togetherai')).toBe('together_ai');
    expect(normaliseKind('openai')).toBe('openai');
    expect(normaliseKind('OpenAI')).toBeUndefined();
    expect(normaliseKind('__proto__')).toBeUndefined();
    expect(normaliseKind('toString')).toBeUndefined();
  });

  it('when the kind is unknown, then the refusal names it and lists the supported kinds sorted', () => {
    const plan = planProbe(req('llama-farm', { key: KEY }));
    expect(plan).toEqual({
      ok: false,
      refusal: {
        code: 'unknown_kind',
        message: "'llama-farm' is not a provider Agenta can test. Supported: alephalpha, anthropic, anyscale, azure, bedrock, cohere, custom, deepinfra, gemini, groq, minimax, mistral, openai, openrouter, perplexityai, sagemaker, together_ai, vertex_ai.",
      },
    });
    expect(supportedKinds()).toEqual([...supportedKinds()].sort());
  });

  it.each(['minimax', 'anyscale', 'alephalpha', 'sagemaker', 'bedrock', 'vertex_ai'])('when the kind is %s, then nothing is sent: unknown + unsupported', (kind) => {
    const plan = planProbe(req(kind, { key: KEY, url: 'https://example.com' }));
    expect(plan).toMatchObject({ ok: true, answer: { credential: { status: 'unknown' }, discovery: { status: 'unsupported', models: [] } } });
    expect(JSON.stringify(plan)).not.toContain(KEY);
  });
});

describe('planning the request', () => {
  it.each(['custom', 'azure'])('when %s has no base URL (or a blank one), then it is refused', (kind) => {
    for (const url of [undefined, null, '', '   ']) {
      expect(planProbe(req(kind, { key: KEY, url }))).toEqual({ ok: false, refusal: { code: 'base_url_required', message: BASE_URL_REQUIRED } });
    }
  });

  it('when an authenticated kind has no key, then invalid + failed and nothing is sent (§8); a custom server may be asked without one', () => {
    const noKey = { ok: true, answer: { credential: { status: 'invalid', message: NO_KEY }, discovery: { status: 'failed', models: [] } } };
    expect(planProbe(req('openai'))).toEqual(noKey);
    for (const key of [undefined, null, '']) {
      expect(planProbe(req('azure', { url: 'https://r.openai.azure.com', key }))).toEqual(noKey);
      expect(planProbe(req('anthropic', { key }))).toEqual(noKey);
      expect(planProbe(req('openrouter', { key, url: 'https://proxy.example.com/v1' }))).toEqual(noKey);
    }
    // A malformed base URL is still the caller's 422, key or no key.
    expect(planProbe(req('azure', { url: 'not a url' }))).toMatchObject({ ok: false, refusal: { code: 'bad_url' } });
    const custom = sent(planProbe(req('custom', { url: 'https://llm.example.com/v1' })));
    expect(custom).toEqual({ kind: 'custom', label: 'llm.example.com', url: 'https://llm.example.com/v1/models', headers: { accept: 'application/json' }, key: 'none' });
  });

  it('when the kind is OpenAI-compatible, then GET {base}/models with a Bearer key', () => {
    expect(sent(planProbe(req('openai', { key: KEY })))).toEqual({
      kind: 'openai', label: 'OpenAI', url: 'https://api.openai.com/v1/models', headers: { accept: 'application/json', authorization: `Bearer ${KEY}` }, key: 'sent',
    });
    expect(sent(planProbe(req('groq', { key: KEY }))).url).toBe('https://api.groq.com/openai/v1/models');
    expect(sent(planProbe(req('mistralai', { key: KEY }))).url).toBe('https://api.mistral.ai/v1/models');
    expect(sent(planProbe(req('togetherai', { key: KEY }))).url).toBe('https://api.together.xyz/v1/models');
    expect(sent(planProbe(req('openrouter', { key: KEY }))).url).toBe('https://openrouter.ai/api/v1/models/user');
    expect(sent(planProbe(req('custom', { key: KEY, url: 'https://llm.example.com/v1/' }))).headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('when the kind is Anthropic, then x-api-key and anthropic-version, no Bearer', () => {
    const p = sent(planProbe(req('anthropic', { key: KEY })));
    expect(p.url).toBe('https://api.anthropic.com/v1/models?limit=1000');
    expect(p.headers).toEqual({ accept: 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' });
  });

  it('when the kind is Gemini, then the key goes in x-goog-api-key and never in the URL', () => {
    const p = sent(planProbe(req('gemini', { key: KEY })));
    expect(p.url).toBe('https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000');
    expect(p.url).not.toContain(KEY);
    expect(p.headers['x-goog-api-key']).toBe(KEY);
  });

  it('when the kind is Azure, then {url}/openai/models with api-key and version as api-version', () => {
    const p = sent(planProbe(req('azure', { key: KEY, url: 'https://res.openai.azure.com/', version: '2024-06-01' })));
    expect(p).toMatchObject({ label: 'Azure OpenAI', url: 'https://res.openai.azure.com/openai/models?api-version=2024-06-01', headers: { 'api-key': KEY }, key: 'sent' });
    expect(p.headers.authorization).toBeUndefined();
    expect(sent(planProbe(req('azure', { key: KEY, url: 'https://res.openai.azure.com/openai' }))).url).toBe('https://res.openai.azure.com/openai/models?api-version=2024-10-21');
  });

  it('when the kind is a public catalog, then the list is read without the key', () => {
    for (const kind of ['deepinfra', 'perplexityai']) {
      const p = sent(planProbe(req(kind, { key: KEY })));
      expect(p.key).toBe('public_catalog');
      expect(JSON.stringify(p)).not.toContain(KEY);
    }
    expect(sent(planProbe(req('deepinfra'))).url).toBe('https://api.deepinfra.com/v1/openai/models');
  });

  it('when the deployment or the request names a base URL, then the request one wins, then the deployment one', () => {
    const baseUrls = { openai: 'https://proxy.example.com/openai/v1' };
    expect(sent(planProbe(req('openai', { key: KEY }), { baseUrls })).url).toBe('https://proxy.example.com/openai/v1/models');
    expect(sent(planProbe(req('openai', { key: KEY, url: 'https://other.example.com/v1' }), { baseUrls })).url).toBe('https://other.example.com/v1/models');
    expect(sent(planProbe(req('anthropic', { key: KEY }), { baseUrls })).url).toBe('https://api.anthropic.com/v1/models?limit=1000');
  });

  it('when the base URL is no URL, then it is refused before anything is sent', () => {
    expect(planProbe(req('custom', { url: 'not a url' }))).toMatchObject({ ok: false, refusal: { code: 'bad_url' } });
    expect(modelListUrl('custom', 'https://h.example.com/v1?tenant=a#frag')).toBe('https://h.example.com/v1/models?tenant=a');
  });
});

describe('reading the answer', () => {
  const openai = sent(planProbe(req('openai', { key: KEY })));
  const list = JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o' }, { id: 'gpt-4o-mini' }, { id: 'gpt-4o' }] });

  it('when the model list answers 2xx, then the key is valid and the ids are fetched', () => {
    expect(interpretAnswer(openai, 200, list)).toEqual({
      credential: { status: 'valid', message: 'OpenAI accepted the key.' }, discovery: { status: 'fetched', models: ['gpt-4o', 'gpt-4o-mini'] },
    });
  });

  it('when the answer is 2xx but no model list, then the key is valid and discovery failed', () => {
    expect(interpretAnswer(openai, 200, '<html>')).toMatchObject({ credential: { status: 'valid' }, discovery: { status: 'failed', models: [] } });
    expect(interpretAnswer(openai, 200, '{"data":7}')).toMatchObject({ credential: { status: 'valid' }, discovery: { status: 'failed' } });
  });

  it.each([401, 403])('when the provider answers %i, then the key is invalid and discovery failed', (status) => {
    expect(interpretAnswer(openai, status, '{"error":"bad key"}')).toEqual({
      credential: { status: 'invalid', message: 'OpenAI rejected the key.' }, discovery: { status: 'failed', models: [] },
    });
  });

  it('when Gemini answers 400 API_KEY_INVALID, then the key is invalid; another 400 is not', () => {
    const gemini = sent(planProbe(req('gemini', { key: KEY })));
    expect(interpretAnswer(gemini, 400, '{"error":{"status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}').credential.status).toBe('invalid');
    expect(interpretAnswer(gemini, 400, '{"error":{"status":"INVALID_ARGUMENT"}}')).toMatchObject({ credential: { status: 'unknown' }, discovery: { status: 'failed' } });
  });

  it.each([404, 405, 501])('when the provider answers %i, then there is no model endpoint: unknown + unsupported', (status) => {
    expect(interpretAnswer(openai, status, '')).toMatchObject({ credential: { status: 'unknown' }, discovery: { status: 'unsupported', models: [] } });
  });

  it.each([500, 502, 429, 400, 302])('when the provider answers %i, then unknown + failed', (status) => {
    const r = interpretAnswer(openai, status, 'oops');
    expect(r).toMatchObject({ credential: { status: 'unknown', message: expect.stringContaining(`HTTP ${status}`) }, discovery: { status: 'failed', models: [] } });
  });

  it('when a public catalog answers, then models are fetched and the key stays unknown; its 401 is no verdict on the key', () => {
    const deepinfra = sent(planProbe(req('deepinfra', { key: KEY })));
    expect(interpretAnswer(deepinfra, 200, list)).toMatchObject({ credential: { status: 'unknown' }, discovery: { status: 'fetched', models: ['gpt-4o', 'gpt-4o-mini'] } });
    expect(interpretAnswer(deepinfra, 401, '')).toMatchObject({ credential: { status: 'unknown' }, discovery: { status: 'failed' } });
  });

  it('when a custom server was asked without a key, then a 2xx fetches models but proves no key', () => {
    const custom = sent(planProbe(req('custom', { url: 'https://llm.example.com/v1' })));
    expect(interpretAnswer(custom, 200, list)).toMatchObject({ credential: { status: 'unknown' }, discovery: { status: 'fetched' } });
  });

  it('when the probe times out, cannot connect or the list is too large, then unknown + failed with the label', () => {
    expect(failureOutcome(openai, 'timeout')).toEqual({ credential: { status: 'unknown', message: 'Could not reach OpenAI in time.' }, discovery: { status: 'failed', models: [] } });
    expect(failureOutcome(openai, 'unreachable')).toMatchObject({ credential: { status: 'unknown', message: 'Could not reach OpenAI.' }, discovery: { status: 'failed' } });
    expect(failureOutcome(openai, 'too_large', 200)).toMatchObject({ credential: { status: 'valid' }, discovery: { status: 'failed' } });
    expect(failureOutcome(openai, 'too_large', 500)).toMatchObject({ credential: { status: 'unknown' }, discovery: { status: 'failed' } });
  });

  it('when model lists come in each provider shape, then their ids are extracted', () => {
    expect(extractModelIds('together_ai', JSON.stringify([{ id: 'meta/llama' }, { id: 'qwen' }]))).toEqual(['meta/llama', 'qwen']);
    expect(extractModelIds('gemini', JSON.stringify({ models: [{ name: 'models/gemini-2.0-flash' }, { name: 'models/embedding-001' }] }))).toEqual(['gemini-2.0-flash', 'embedding-001']);
    expect(extractModelIds('cohere', JSON.stringify({ models: [{ name: 'command-r' }] }))).toEqual(['command-r']);
    expect(extractModelIds('openai', JSON.stringify({ data: [{ id: '' }, { id: 5 }, null, 'plain', { id: 'x'.repeat(600) }] }))).toEqual(['plain']);
    expect(extractModelIds('openai', '{"data":{}}')).toBeUndefined();
    expect(extractModelIds('openai', 'null')).toBeUndefined();
  });

  it('when the response is built, then fetched_at is UTC ending with Z', () => {
    const r = probeResponse(interpretAnswer(openai, 200, list), new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
    expect(r.fetched_at).toBe('2026-01-02T03:04:05.000Z');
  });
});

describe('configuration', () => {
  it('when nothing is set, then the probe has 10 s and no base URL overrides', () => {
    expect(parseConfig(providerProbeEnv, {})).toEqual({ ok: true, config: { PROVIDER_PROBE_TIMEOUT_MS: 10_000, PROVIDER_PROBE_BASE_URLS: {} } });
  });

  it('when base URLs are given as JSON, then hosted kinds map to http(s) URLs', () => {
    const r = parseConfig(providerProbeEnv, { PROVIDER_PROBE_BASE_URLS: '{"openai":"http://127.0.0.1:9/v1","deepinfra":"https://x.example.com"}', PROVIDER_PROBE_TIMEOUT_MS: '1500' });
    expect(r).toEqual({ ok: true, config: { PROVIDER_PROBE_TIMEOUT_MS: 1500, PROVIDER_PROBE_BASE_URLS: { openai: 'http://127.0.0.1:9/v1', deepinfra: 'https://x.example.com' } } });
  });

  it.each([
    ['not JSON', '{openai'],
    ['not an object', '["https://x.example.com"]'],
    ['a URL-based kind', '{"custom":"https://x.example.com"}'],
    ['an unknown kind', '{"nope":"https://x.example.com"}'],
    ['a non-http URL', '{"openai":"ftp://x.example.com"}'],
  ])('when PROVIDER_PROBE_BASE_URLS is %s, then the config is refused', (_, value) => {
    const r = parseConfig(providerProbeEnv, { PROVIDER_PROBE_BASE_URLS: value });
    expect(r.ok).toBe(false);
  });
});

describe('provider kinds', () => {
  it('the probe knows exactly the kinds a vault secret may name (one list of kinds, two views of it)', async () => {
    const { CUSTOM_PROVIDER_KINDS } = await import('@llm/contracts');
    const { PROVIDER_KINDS } = await import('../src/accounts/domain/provider-probe.ts');
    expect([...PROVIDER_KINDS].sort()).toEqual([...CUSTOM_PROVIDER_KINDS].sort());
  });
});
