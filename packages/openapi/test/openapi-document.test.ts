import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteId } from '@llm/contracts';
import { buildOpenApiDocument, openApiPath, OPERATION_SCHEMAS, securityOf } from '@llm/openapi';

const doc = buildOpenApiDocument();
const operation = (id: RouteId): Record<string, unknown> | undefined => {
  const r = ROUTES[id];
  return doc.paths[openApiPath(r.path).path]?.[r.method.toLowerCase()];
};

describe('OpenAPI document', () => {
  it('when validated by an OpenAPI 3.1 validator, then it has no errors', async () => {
    // validate() dereferences in place: give it a copy.
    const result = await validate(structuredClone(doc) as never, { validate: { errors: { colorize: false } } });
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.specification).toBe('OpenAPI');
  });

  it('when every route of the table is looked up, then each has its operation with its method, path parameters and deprecation', () => {
    const ids = Object.keys(ROUTES) as RouteId[];
    const missing = ids.filter((id) => operation(id)?.operationId !== id);
    expect(missing).toEqual([]);
    const count = Object.values(doc.paths).reduce((n, p) => n + Object.keys(p).length, 0);
    expect(count).toBe(ids.length);
    for (const id of ids) {
      const op = operation(id)!;
      expect(op.deprecated === true, id).toBe((ROUTES[id] as { deprecated?: boolean }).deprecated === true);
      const params = ((op.parameters ?? []) as Array<{ name: string; in: string }>).filter((p) => p.in === 'path').map((p) => p.name);
      expect(params, id).toEqual(openApiPath(ROUTES[id].path).params);
    }
  });

  it('when an express path has parameters, then the document uses the OpenAPI form', () => {
    expect(openApiPath('/spans/:trace_id/:span_id')).toEqual({ path: '/spans/{trace_id}/{span_id}', params: ['trace_id', 'span_id'] });
    expect(Object.keys(doc.paths).filter((p) => p.includes(':'))).toEqual([]);
  });

  it('when a route validates a contract, then its request body refers to that contract converted to JSON Schema', () => {
    const body = operation('keys.create')?.requestBody as { content: Record<string, { schema: { $ref: string } }> };
    const name = body.content['application/json']!.schema.$ref.replace('#/components/schemas/', '');
    const schema = doc.components.schemas[name] as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['name', 'expires_at']));
    const probe = operation('providers.probe')?.responses as Record<string, { content: Record<string, { schema: { $ref: string } }> }>;
    expect(probe['200']!.content['application/json']!.schema.$ref).toBe('#/components/schemas/providers.probe.response');
    for (const id of Object.keys(OPERATION_SCHEMAS) as RouteId[]) if (OPERATION_SCHEMAS[id]!.body) expect(operation(id)?.requestBody, id).toBeDefined();
  });

  it('when a write reads nothing from its body, then it documents none, and every error status it lists has its response', () => {
    const op = operation('organizations.transfer')!;
    expect(op.requestBody).toBeUndefined();
    const responses = op.responses as Record<string, unknown>;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '401', '404', '409', '429', '503']));
    expect(doc.components.responses.ValidationError).toBeDefined();
    expect(JSON.stringify(doc)).not.toMatch(/Undescribed/);
  });

  it('when any operation is read, then it has a summary in words and a description', () => {
    const ids = Object.keys(ROUTES) as RouteId[];
    const unnamed = ids.filter((id) => {
      const op = operation(id)!;
      return typeof op.summary !== 'string' || op.summary === id || !/^[A-Z][a-z]/.test(op.summary) || typeof op.description !== 'string' || op.description.length < 20;
    });
    expect(unnamed).toEqual([]);
  });

  it('when a vault, webhook, sign-in, invitation, evaluation, billing or access route answers JSON (not a file), then its success body is described', () => {
    const families = /^(secrets\.(list|fetch|create|update|login_attempts|subscription_login)|vault\.secrets\.(list|fetch|create|update)|webhooks\.(?!subscriptions\.delete)|organizations\.(domains|providers)\.(?!delete)|events\.|organizations\.workspaces\.invite|workspaces\.users\.|human_evaluations\.|applications\.|testsets\.|billing\.|access\.)/;
    const ids = (Object.keys(ROUTES) as RouteId[]).filter((id) => families.test(id));
    expect(ids.length).toBeGreaterThan(40);
    expect(ids.filter((id) => !OPERATION_SCHEMAS[id]?.response && OPERATION_SCHEMAS[id]?.success !== 'file')).toEqual([]);
    const answer = (operation('webhooks.subscriptions.query')!.responses as Record<string, { content: Record<string, { schema: { $ref: string } }> }>)['200']!;
    const schema = doc.components.schemas[answer.content['application/json']!.schema.$ref.replace('#/components/schemas/', '')] as { additionalProperties?: unknown };
    expect(schema.additionalProperties).toBe(false);
  });

  it('when routes need credentials, then each names its scheme: API key, operator token, session cookie or none', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['adminToken', 'apiKey', 'sessionCookie']);
    expect(securityOf('traces.create')).toEqual([{ apiKey: [] }]);
    expect(securityOf('admin.accounts.create')).toEqual([{ adminToken: [] }]);
    expect(securityOf('organizations.list')).toEqual([{ apiKey: [] }, { sessionCookie: [] }]);
    expect(securityOf('auth.session')).toEqual([{ sessionCookie: [] }]);
    expect(securityOf('docs.openapi')).toEqual([]);
  });

  it('when the document is serialized, then no reference points into a fragment of another schema', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]*"/g) ?? [];
    expect(refs.filter((r) => (r.match(/#/g) ?? []).length !== 1)).toEqual([]);
  });
});
