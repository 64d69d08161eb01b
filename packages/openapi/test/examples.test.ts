// Every example the document shows is valid: against its JSON Schema (what a client generator and a
// validator read) and, where the route has one, against the zod contract its handler validates.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteId } from '@llm/contracts';
import { buildOpenApiDocument, openApiPath, OPERATION_SCHEMAS, type JsonObject } from '@llm/openapi';

const doc = buildOpenApiDocument();
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ ...doc, $id: 'openapi.json' } as JsonObject);

interface Media { schema: JsonObject; example?: unknown }
interface Op { operationId: RouteId; requestBody?: { content: Record<string, Media> }; responses: Record<string, { $ref?: string; content?: Record<string, Media> }> }

const escape = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every JSON body of the document: where it is (a JSON pointer), its example, and its route and direction. */
interface Body { pointer: string; example: unknown; schemaRef?: string | undefined; id?: RouteId; direction: 'request' | 'response' }

const refOf = (m: Media): string | undefined => (typeof m.schema.$ref === 'string' ? m.schema.$ref : undefined);

function bodies(): Body[] {
  const out: Body[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      const op = raw as unknown as Op;
      const base = `/paths/${escape(path)}/${method}`;
      const req = op.requestBody?.content['application/json'];
      if (req) out.push({ pointer: `${base}/requestBody/content/application~1json`, example: req.example, schemaRef: refOf(req), id: op.operationId, direction: 'request' });
      for (const [status, r] of Object.entries(op.responses)) {
        const media = r.content?.['application/json'];
        if (media && op.operationId !== 'docs.openapi') out.push({ pointer: `${base}/responses/${status}/content/application~1json`, example: media.example, schemaRef: refOf(media), id: op.operationId, direction: 'response' });
      }
    }
  }
  for (const [name, r] of Object.entries(doc.components.responses)) {
    const media = (r.content as Record<string, Media> | undefined)?.['application/json'];
    if (media) out.push({ pointer: `/components/responses/${name}/content/application~1json`, example: media.example, schemaRef: refOf(media), direction: 'response' });
  }
  return out;
}

describe('the examples of the OpenAPI document', () => {
  const all = bodies();

  it('when any JSON body of the document is read, then it has an example', () => {
    expect(all.length).toBeGreaterThan(250);
    expect(all.filter((b) => b.example === undefined).map((b) => b.pointer)).toEqual([]);
  });

  it('when each example is validated against its JSON Schema, then it is valid', () => {
    const invalid: string[] = [];
    // One validator per schema: most bodies refer to a component, many to the same one.
    const validators = new Map<string, ReturnType<typeof ajv.compile>>();
    for (const b of all) {
      const target = b.schemaRef ? `openapi.json${b.schemaRef}` : `openapi.json#${b.pointer}/schema`;
      let validate = validators.get(target);
      if (!validate) { validate = ajv.compile({ $ref: target }); validators.set(target, validate); }
      if (!validate(b.example)) invalid.push(`${b.pointer}: ${ajv.errorsText(validate.errors)} — ${JSON.stringify(b.example).slice(0, 200)}`);
    }
    expect(invalid).toEqual([]);
  }, 60_000);

  it('when a request or success example is parsed by the zod contract of its route, then it parses', () => {
    const refused: string[] = [];
    for (const b of all) {
      if (!b.id) continue;
      const ops = OPERATION_SCHEMAS[b.id];
      const success = /\/responses\/2\d\d\//.test(b.pointer);
      const schema = b.direction === 'request' ? ops?.body : success ? ops?.response : undefined;
      if (!schema) continue;
      const r = schema.safeParse(b.example);
      if (!r.success) refused.push(`${b.id} ${b.direction}: ${r.error.issues.slice(0, 3).map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
    }
    expect(refused).toEqual([]);
  }, 60_000);

  it('when the first calls of a client are read, then their examples are the hand-written ones', () => {
    const op = doc.paths[openApiPath(ROUTES['traces.create'].path).path]!.post as unknown as Op;
    const example = op.requestBody!.content['application/json']!.example as { trace: { spans: Record<string, { trace_id: string }> } };
    expect(example.trace.spans.chat!.trace_id).toMatch(/^[0-9a-f]{32}$/);
  });
});
