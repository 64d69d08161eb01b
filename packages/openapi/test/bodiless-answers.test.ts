// Answers without a body that the contract fuzzing run (`npm run test:contract`) found undocumented:
// the 204 of deletions and a few commands. (The 431 Node's HTTP parser sends before any route runs
// has the error body since issue 29: packages/http answers the parser's refusals itself.)
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteId } from '@llm/contracts';
import { buildOpenApiDocument, openApiPath } from '@llm/openapi';

const doc = buildOpenApiDocument();
const responses = (id: RouteId): Record<string, { content?: unknown; $ref?: string }> => {
  const r = ROUTES[id];
  return doc.paths[openApiPath(r.path).path]![r.method.toLowerCase()]!.responses as Record<string, { content?: unknown; $ref?: string }>;
};

describe('answers without a body', () => {
  it('when a handler answers 204, then its operation documents a 204 with no content', () => {
    for (const id of ['secrets.delete', 'vault.secrets.delete', 'keys.revoke', 'admin.accounts.delete', 'auth.signout'] as const) {
      expect(responses(id)['204'], id).toEqual({ description: 'Done; no body.' });
    }
  });

  it('when the request headers are too large, then every operation documents a 431 with the error body', () => {
    expect(doc.components.responses.Error431).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } });
    for (const id of ['auth.sso.start', 'otlp.traces.export', 'billing.plans.switch', 'traces.query'] as const) {
      expect(responses(id)['431'], id).toEqual({ $ref: '#/components/responses/Error431' });
    }
  });
});
