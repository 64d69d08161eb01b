// The OpenAPI 3.1 description of the route table, generated from the zod contracts: one operation per
// ROUTES entry (none is ever left out), its summary and description (operation-docs.ts), the request
// and response schemas of operation-schemas.ts with an example of each body (examples.ts), the error
// statuses the route can answer (error-statuses.ts) with the central error handler's bodies, and the
// authentication schemes.
import { z } from 'zod';
import { EXPORT_MEDIA_TYPES, ROUTES, type RouteDef, type RouteId } from '@llm/contracts';
import { ERROR_SCHEMAS, ERROR_STATUSES } from './error-bodies.ts';
import { errorStatusesOf } from './error-statuses.ts';
import { EXAMPLES, ExampleBuilder } from './examples.ts';
import { OPERATION_DOCS } from './operation-docs.ts';
import { OPERATION_SCHEMAS } from './operation-schemas.ts';
import { SECURITY_SCHEMES, securityOf } from './security.ts';

/** A JSON Schema or OpenAPI object: plain JSON, typed loosely on purpose (it is only ever serialized). */
export type JsonObject = { [key: string]: unknown };

export interface OpenApiDocument extends JsonObject {
  openapi: '3.1.1';
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, JsonObject>>;
  components: { schemas: Record<string, JsonObject>; responses: Record<string, JsonObject>; securitySchemes: Record<string, JsonObject> };
}

const COMPONENT = '#/components/schemas/';

const GENERIC_SCHEMAS: Record<string, JsonObject> = {
  Binary: { type: 'string', contentMediaType: 'application/octet-stream' },
};

/** `/traces/:trace_id` → `/traces/{trace_id}`, and the parameter names in order. */
export function openApiPath(expressPath: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = expressPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => { params.push(name); return `{${name}}`; });
  return { path, params };
}

/** Converts the schemas of one direction through one zod registry, so shared parts become components. */
function convertAll(entries: Array<{ id: string; schema: z.ZodType }>, io: 'input' | 'output', sharedPrefix: string): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  const seen = new Map<z.ZodType, string>();
  for (const e of entries) {
    if (seen.has(e.schema)) continue;
    registry.add(e.schema, { id: e.id });
    seen.set(e.schema, e.id);
  }
  const out = z.toJSONSchema(registry, { target: 'draft-2020-12', io, unrepresentable: 'any', cycles: 'ref', reused: 'inline', uri: (id) => `${COMPONENT}${id}` });
  const schemas: Record<string, JsonObject> = {};
  for (const [id, schema] of Object.entries(out.schemas)) {
    const { $schema: _s, $id: _i, $defs, ...rest } = schema as JsonObject & { $defs?: Record<string, JsonObject> };
    // zod puts the parts several schemas share (recursive JSON values) in the `$defs` of a synthetic
    // `__shared` entry: each becomes a component of its own, since a fragment inside a component
    // cannot be addressed with a `#/components/schemas/…` pointer.
    if (id === '__shared') {
      for (const [name, def] of Object.entries($defs ?? {})) schemas[`${sharedPrefix}${name}`] = def;
      continue;
    }
    schemas[id] = $defs ? { ...rest, $defs } : rest;
  }
  return rewriteRefs(schemas, sharedPrefix) as Record<string, JsonObject>;
}

function rewriteRefs(value: unknown, sharedPrefix: string): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, sharedPrefix));
  if (!value || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === '$ref' && typeof v === 'string'
      ? v.replace(/^#\/components\/schemas\/__shared#\/\$defs\//, `${COMPONENT}${sharedPrefix}`)
      : rewriteRefs(v, sharedPrefix);
  }
  return out;
}

const ref = (name: string): JsonObject => ({ $ref: `${COMPONENT}${name}` });

// Answered by the HTTP server before any route runs (packages/http answerClientError): the same
// error body on every operation, whatever shape the route's own errors take.
const SERVER_ERRORS = new Set(['431']);

// What the error bodies say, as a client sees them (the messages of the error handler and the auth layer).
const ERROR_EXAMPLES: Record<string, string> = {
  400: 'The request path or a parameter is not valid percent-encoding.', 401: 'Unauthorized', 403: 'Forbidden.', 404: 'Not Found',
  409: 'A query with this slug already exists.', 413: 'Request body too large.', 415: 'Unsupported media type.', 431: 'Request header fields too large.',
  429: 'Rate limit exceeded. Please retry after 2 seconds.', 500: 'An internal error has occurred.', 503: 'A backing store is not available; retry shortly.',
};

function queryParameters(schema: z.ZodType): JsonObject[] {
  const js = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonObject & { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({ name, in: 'query', required: js.required?.includes(name) ?? false, schema: s }));
}

function errorResponses(id: RouteId): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const code of errorStatusesOf(id)) {
    const status = String(code);
    out[status] = { $ref: `#/components/responses/${status === '422' ? 'ValidationError' : `Error${status}`}` };
    if (SERVER_ERRORS.has(status)) continue;
    // Billing handlers answer their own refusals in the reference's shape; authentication and
    // validation in front of them still answer with `detail`.
    if (id.startsWith('billing.')) {
      out[status] = {
        description: ERROR_STATUSES[status],
        content: { 'application/json': { schema: { anyOf: [ref(status === '422' ? 'UnprocessableBody' : 'ErrorBody'), ref('BillingErrorBody')] }, example: { status: 'error', message: ERROR_STATUSES[status] } } },
      };
    }
    // OTLP exporters read a google.rpc.Status from a failed export (429 and 415 among them).
    if (id === 'otlp.traces.export') {
      out[status] = {
        description: ERROR_STATUSES[status],
        content: { 'application/x-protobuf': { schema: ref('Binary') }, 'application/json': { schema: ref(status === '422' ? 'UnprocessableBody' : 'ErrorBody') } },
      };
    }
  }
  return out;
}

function successResponses(id: RouteId, responseComponent: string | undefined): Record<string, JsonObject> {
  if (id === 'otlp.traces.export') return { 200: { description: 'Accepted: an ExportTraceServiceResponse (partial_success names refused spans).', content: { 'application/x-protobuf': { schema: ref('Binary') } } } };
  if (id === 'docs.page') return { 200: { description: 'The rendered API reference.', content: { 'text/html': { schema: { type: 'string' } } } } };
  if (id === 'docs.asset') return { 200: { description: 'A script, style sheet or image of the docs page.', content: { 'application/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } }, 'image/png': { schema: ref('Binary') } } } };
  if (id === 'docs.openapi') return { 200: { description: 'This document.', content: { 'application/json': { schema: { type: 'object' } } } } };
  const ops = OPERATION_SCHEMAS[id];
  const out: Record<string, JsonObject> = {};
  if (responseComponent) {
    const status = ops?.status ?? 200;
    const description = status === 202 ? 'Accepted: appended to the log, projected asynchronously.' : status === 201 ? 'Created.' : 'OK';
    out[status] = { description, content: { 'application/json': { schema: ref(responseComponent) } } };
  }
  switch (ops?.success) {
    case 'no_content': out['204'] = { description: 'Done; no body.' }; break;
    case 'accepted': out['202'] = { description: 'Accepted: the work is queued; no body.' }; break;
    case 'redirect': out['302'] = { description: 'Redirects the browser (`Location`) to the identity provider or back to the application.' }; break;
    case 'ndjson': out['200'] = { description: 'Progress as NDJSON lines, then the result or the error.', content: { 'application/x-ndjson': { schema: { type: 'string' } } } }; break;
    case 'export': out['200'] = {
      description: 'The whole result, streamed in the `format` asked for: JSON Lines (one span or trace per line), CSV (flat columns) or Parquet.',
      content: Object.fromEntries(Object.values(EXPORT_MEDIA_TYPES).map((t) => [t.split(';')[0]!, { schema: t.includes('parquet') ? ref('Binary') : { type: 'string' } }])),
    }; break;
    case 'file': out['200'] = {
      description: 'The file, as an attachment (`Content-Disposition`).',
      content: { 'text/csv': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'array', items: { type: 'object' } } } },
    }; break;
    default: break;
  }
  // The admin transfer answers 204 when every organization moved, its report otherwise.
  if (id === 'admin.transfer_ownership') out['204'] = { description: 'Every organization moved; no body.' };
  return out;
}

function requestBody(id: RouteId, route: RouteDef, bodyComponent: string | undefined): JsonObject | undefined {
  if (id === 'otlp.traces.export') {
    return { required: true, description: 'An OTLP ExportTraceServiceRequest (protobuf; gzip or deflate Content-Encoding accepted).', content: { 'application/x-protobuf': { schema: ref('Binary') } } };
  }
  const multipart = OPERATION_SCHEMAS[id]?.multipart;
  if (multipart) {
    const properties: JsonObject = { file: { type: 'string', format: 'binary' } };
    for (const f of multipart) properties[f] = { type: 'string' };
    return { required: true, content: { 'multipart/form-data': { schema: { type: 'object', required: ['file'], properties } } } };
  }
  if (route.method === 'GET' || !bodyComponent) return undefined;
  return { required: OPERATION_SCHEMAS[id]?.bodyOptional !== true, content: { 'application/json': { schema: ref(bodyComponent) } } };
}

/** Adds an example to every JSON body of the document: the hand-written one of the route, or one built from the schema. */
function addExamples(doc: OpenApiDocument): void {
  const builder = new ExampleBuilder(doc.components.schemas);
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as Array<{ operationId: RouteId; requestBody?: JsonObject; responses: Record<string, JsonObject> }>) {
      const own = EXAMPLES[op.operationId];
      const json = (holder: JsonObject | undefined): (JsonObject & { schema: JsonObject; example?: unknown }) | undefined =>
        (holder?.content as Record<string, JsonObject & { schema: JsonObject }> | undefined)?.['application/json'];
      const body = json(op.requestBody);
      if (body && body.example === undefined) body.example = own?.request ?? builder.build(body.schema);
      for (const [status, response] of Object.entries(op.responses)) {
        const media = json(response);
        if (!media || media.example !== undefined || op.operationId === 'docs.openapi') continue;
        media.example = (status.startsWith('2') ? own?.response : undefined) ?? builder.build(media.schema);
      }
    }
  }
  for (const response of Object.values(doc.components.responses)) {
    const media = (response.content as Record<string, JsonObject & { schema: JsonObject; example?: unknown }> | undefined)?.['application/json'];
    if (media && media.example === undefined) media.example = builder.build(media.schema);
  }
}

export interface DocumentOptions {
  version?: string;
}

export function buildOpenApiDocument(opts: DocumentOptions = {}): OpenApiDocument {
  const ids = Object.keys(ROUTES) as RouteId[];
  const bodies = ids.flatMap((id) => { const s = OPERATION_SCHEMAS[id]?.body; return s ? [{ id: `${id}.body`, schema: s }] : []; });
  const responses = ids.flatMap((id) => { const s = OPERATION_SCHEMAS[id]?.response; return s ? [{ id: `${id}.response`, schema: s }] : []; });
  const inputSchemas = convertAll(bodies, 'input', 'SharedInput_');
  const outputSchemas = convertAll(responses, 'output', 'SharedOutput_');
  // A schema reused by several routes is converted once, under the first route's id.
  const componentOf = (list: typeof bodies, schema: z.ZodType | undefined): string | undefined => (schema ? list.find((e) => e.schema === schema)?.id : undefined);

  const paths: OpenApiDocument['paths'] = {};
  for (const id of ids) {
    const route: RouteDef = ROUTES[id];
    const { path, params } = openApiPath(route.path);
    const ops = OPERATION_SCHEMAS[id];
    const parameters = [
      ...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...(ops?.query ? queryParameters(ops.query) : []),
    ];
    const body = requestBody(id, route, componentOf(bodies, ops?.body));
    const operation: JsonObject = {
      operationId: id,
      summary: OPERATION_DOCS[id]?.summary ?? id,
      ...(OPERATION_DOCS[id] ? { description: OPERATION_DOCS[id].description } : {}),
      tags: [id.split('.')[0]!],
      ...(route.deprecated ? { deprecated: true } : {}),
      security: securityOf(id),
      ...(parameters.length ? { parameters } : {}),
      ...(body ? { requestBody: body } : {}),
      responses: { ...successResponses(id, componentOf(responses, ops?.response)), ...errorResponses(id) },
      'x-side': route.side,
    };
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }

  const errorComponents: Record<string, JsonObject> = {};
  for (const [status, description] of Object.entries(ERROR_STATUSES)) {
    const name = status === '422' ? 'ValidationError' : `Error${status}`;
    const example = status === '422' ? { detail: [{ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }] } : { detail: ERROR_EXAMPLES[status] ?? description };
    errorComponents[name] = { description, content: { 'application/json': { schema: ref(status === '422' ? 'UnprocessableBody' : 'ErrorBody'), example } } };
  }

  const doc: OpenApiDocument = {
    openapi: '3.1.1',
    info: {
      title: 'LLM backend API',
      version: opts.version ?? '0.1.0',
      description: 'Agenta-compatible tracing, analytics and accounts API, generated from the zod contracts of the route table. '
        + 'Every path also answers under any number of leading `/api` segments and with a trailing slash; '
        + 'the tracing and query families also answer under `/preview`.',
    },
    servers: [{ url: '/', description: 'This deployment' }],
    paths,
    components: {
      schemas: { ...ERROR_SCHEMAS as unknown as Record<string, JsonObject>, ...GENERIC_SCHEMAS, ...inputSchemas, ...outputSchemas },
      responses: errorComponents,
      securitySchemes: SECURITY_SCHEMES as unknown as Record<string, JsonObject>,
    },
  };
  addExamples(doc);
  return doc;
}

let cached: string | undefined;

/** The document serialized once per process (it depends on code only). */
export function openApiJson(): string {
  cached ??= JSON.stringify(buildOpenApiDocument());
  return cached;
}
