// The committed client types are what openapi-typescript generates from today's document: a route or
// contract change without `npm run generate -w @llm/client` fails here (and in `npm run lint`).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSchemaSource } from '../src/generate.ts';

describe('the generated client', () => {
  it('when the types are generated from the current OpenAPI document, then they equal the committed src/schema.ts', async () => {
    const committed = readFileSync(new URL('../src/schema.ts', import.meta.url), 'utf8');
    const fresh = await generateSchemaSource();
    // Equal text, compared by length and first difference so a failure stays readable.
    const at = [...fresh].findIndex((c, i) => c !== committed[i]);
    expect({ length: committed.length, firstDifference: at === -1 && fresh.length === committed.length ? null : fresh.slice(Math.max(0, at - 80), at + 80) })
      .toEqual({ length: fresh.length, firstDifference: null });
  }, 60_000);

  it('when a typed call is built, then its path, parameters and answer come from the document', async () => {
    const { createApiClient } = await import('@llm/client');
    const seen: Request[] = [];
    const api = createApiClient({ baseUrl: 'http://api.test', apiKey: 'abc.def', fetch: async (req: Request) => { seen.push(req); return Response.json({ count: 0 }); } });
    const { data } = await api.GET('/traces/{trace_id}', { params: { path: { trace_id: '4bf92f3577b34da6a3ce929d0e0e4736' } } });
    expect(data).toEqual({ count: 0 });
    expect(seen[0]!.url).toBe('http://api.test/traces/4bf92f3577b34da6a3ce929d0e0e4736');
    expect(seen[0]!.headers.get('authorization')).toBe('ApiKey abc.def');
  });
});
