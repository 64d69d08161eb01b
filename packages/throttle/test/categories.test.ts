// Request → throttle category (reference accounts §2.2) and the fnmatch globs of endpoint throttles.
import { describe, expect, it } from 'vitest';
import { categoryOf, endpointMatches, globMatches, normalizePath } from '../src/index.ts';

describe('categoryOf', () => {
  it.each([
    ['POST', '/retrieve', 'core_fast'],
    ['POST', '/applications/revisions/retrieve', 'core_fast'],
    ['POST', '/workflows/variants/revisions/retrieve/', 'core_fast'],
    ['POST', '/variants/configs/fetch', 'core_fast'],
    ['POST', '/otlp/v1/traces', 'tracing_fast'],
    ['POST', '/tracing/spans/query', 'tracing_slow'],
    ['POST', '/tracing/traces/query', 'tracing_slow'],
    ['POST', '/tracing/a/b/query', 'tracing_slow'],
    ['POST', '/tracing/spans/analytics', 'tracing_slow'],
    ['POST', '/spans/export', 'tracing_slow'],
    ['POST', '/traces/export', 'tracing_slow'],
    ['POST', '/preview/spans/export', 'tracing_slow'],
    ['POST', '/access/permissions/check', 'services_fast'],
    ['GET', '/access/permissions/check', 'services_fast'],
    ['DELETE', '/access/permissions/check', 'services_fast'],
    ['POST', '/ai/services/tools/call', 'ai_services'],
  ] as const)('when %s %s, then %s', (method, path, category) => {
    expect(categoryOf(method, path)).toBe(category);
  });

  it('given paths with a trailing slash, leading /api segments or a query, then they map like the bare path', () => {
    expect(categoryOf('POST', '/otlp/v1/traces/')).toBe('tracing_fast');
    expect(categoryOf('POST', '/api/otlp/v1/traces')).toBe('tracing_fast');
    expect(categoryOf('POST', '/api/api/ai/services/tools/call/')).toBe('ai_services');
    expect(categoryOf('GET', '/access/permissions/check?resource_type=local_secrets')).toBe('services_fast');
    expect(categoryOf('POST', '/tracing/spans/analytics/')).toBe('tracing_slow');
  });

  it('given the right path with another method, or a near-miss path, then the request is standard', () => {
    expect(categoryOf('GET', '/otlp/v1/traces')).toBe('standard');
    expect(categoryOf('GET', '/variants/configs/fetch')).toBe('standard');
    expect(categoryOf('GET', '/tracing/spans/query')).toBe('standard');
    expect(categoryOf('PUT', '/ai/services/tools/call')).toBe('standard');
    expect(categoryOf('POST', '/retrieve/more')).toBe('standard');
    expect(categoryOf('POST', '/tracing/query')).toBe('standard');
    expect(categoryOf('POST', '/spans/query')).toBe('standard');
    expect(categoryOf('GET', '/health')).toBe('standard');
    expect(categoryOf('POST', '/')).toBe('standard');
  });

  it('when the method is lower case, then it matches all the same', () => {
    expect(categoryOf('post', '/otlp/v1/traces')).toBe('tracing_fast');
  });
});

describe('globs', () => {
  it('given fnmatch semantics, then * spans slashes, ? is one character and [..] / [!..] are classes', () => {
    expect(globMatches('/a/*', '/a/b/c/d')).toBe(true);
    expect(globMatches('*/x', '/x')).toBe(true);
    expect(globMatches('/a?c', '/abc')).toBe(true);
    expect(globMatches('/a?c', '/ac')).toBe(false);
    expect(globMatches('/v[12]/x', '/v2/x')).toBe(true);
    expect(globMatches('/v[!12]/x', '/v2/x')).toBe(false);
    expect(globMatches('/v[!12]/x', '/v3/x')).toBe(true);
    expect(globMatches('/a[b', '/a[b')).toBe(true);
    expect(globMatches('/a.b', '/aXb')).toBe(false);
    // Case-insensitive, like the router (issue 24: a throttle escaped by changing case).
    expect(globMatches('/Secrets', '/secrets')).toBe(true);
    expect(categoryOf('POST', '/TRACING/Spans/Query/')).toBe('tracing_slow');
    expect(categoryOf('POST', '/PREVIEW/tracing/spans/query')).toBe('tracing_slow');
  });

  it('given a trailing slash or /api prefix on either side, then it is ignored', () => {
    expect(globMatches('/secrets/', '/secrets')).toBe(true);
    expect(globMatches('/secrets', '/api/secrets/')).toBe(true);
    expect(globMatches('/api/secrets/*', '/secrets/1')).toBe(true);
    expect(normalizePath('/api/api/')).toBe('/');
  });

  it('given a /preview alias, then it counts in its route\'s category', () => {
    expect(categoryOf('POST', '/preview/tracing/spans/query')).toBe('tracing_slow');
    expect(categoryOf('POST', '/api/preview/queries/revisions/retrieve')).toBe('core_fast');
    expect(normalizePath('/preview')).toBe('/preview');
  });

  it('given endpoint pairs, then the method must match too (ANY and * match every method)', () => {
    const eps = [['POST', '/secrets/*'], ['ANY', '/webhooks'], ['*', '/events/*']] as const;
    expect(endpointMatches(eps, 'POST', '/secrets/x')).toBe(true);
    expect(endpointMatches(eps, 'GET', '/secrets/x')).toBe(false);
    expect(endpointMatches(eps, 'PATCH', '/webhooks/')).toBe(true);
    expect(endpointMatches(eps, 'GET', '/events/query')).toBe(true);
    expect(endpointMatches(eps, 'GET', '/other')).toBe(false);
  });
});
