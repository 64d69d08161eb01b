// The OpenAPI 3.1 description of the route table, generated from the zod contracts: one operation per
// ROUTES entry (none is ever left out: a route whose bodies the contracts do not describe gets the
// documented generic body), the request and response schemas of operation-schemas.ts, the error
// bodies of the central error handler, and the authentication schemes.
import { z } from 'zod';
import { ROUTES, type RouteDef, type RouteId } from '@llm/contracts';
import { ERROR_SCHEMAS, ERROR_STATUSES } from './error-bodies.ts';
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
  UndescribedBody: {
    description: 'A JSON body the contracts do not describe yet (see the interface specification of the route). Any JSON value is accepted here; the handler still validates it.',
  },
  UndescribedResponse: {
    description: 'A JSON answer the contracts do not describe yet (see the interface specification of the route).',
  },
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

// The handlers that answer a success with 204 and no body (found by the contract fuzzing run).
const NO_CONTENT = new Set<RouteId>([
  'auth.signout', 'organizations.domains.delete', 'organizations.providers.delete', 'keys.revoke', 'secrets.delete', 'vault.secrets.delete',
  'webhooks.subscriptions.delete', 'admin.accounts.delete', 'admin.memberships.remove', 'admin.transfer_ownership',
]);

// Node's HTTP parser answers 431 itself, before any route runs: no body, no Content-Type.
const BODILESS_ERRORS = new Set(['431']);

function queryParameters(schema: z.ZodType): JsonObject[] {
  const js = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonObject & { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({ name, in: 'query', required: js.required?.includes(name) ?? false, schema: s }));
}

function errorResponses(id: RouteId): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const status of Object.keys(ERROR_STATUSES)) {
    out[status] = { $ref: `#/components/responses/${status === '422' ? 'ValidationError' : `Error${status}`}` };
  }
  // Billing handlers answer their own refusals in the reference's shape; authentication and
  // validation in front of them still answer with `detail`.
  if (id.startsWith('billing.')) {
    for (const status of Object.keys(ERROR_STATUSES)) {
      out[status] = {
        description: ERROR_STATUSES[status],
        content: { 'application/json': { schema: { anyOf: [ref(status === '422' ? 'UnprocessableBody' : 'ErrorBody'), ref('BillingErrorBody')] } } },
      };
    }
  }
  // OTLP exporters read a google.rpc.Status from a failed export (429 and 415 among them).
  if (id === 'otlp.traces.export') {
    for (const status of Object.keys(ERROR_STATUSES)) {
      out[status] = {
        description: ERROR_STATUSES[status],
        content: { 'application/x-protobuf': { schema: ref('Binary') }, 'application/json': { schema: ref(status === '422' ? 'UnprocessableBody' : 'ErrorBody') } },
      };
    }
  }
  for (const status of BODILESS_ERRORS) out[status] = { $ref: `#/components/responses/Error${status}` };
  return out;
}

function successResponses(id: RouteId, route: RouteDef, responseComponent: string | undefined): Record<string, JsonObject> {
  if (id === 'otlp.traces.export') return { 200: { description: 'Accepted: an ExportTraceServiceResponse (partial_success names refused spans).', content: { 'application/x-protobuf': { schema: ref('Binary') } } } };
  if (id === 'docs.page') return { 200: { description: 'The rendered API reference.', content: { 'text/html': { schema: { type: 'string' } } } } };
  if (id === 'docs.asset') return { 200: { description: 'A script, style sheet or image of the docs page.', content: { 'application/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } }, 'image/png': { schema: ref('Binary') } } } };
  if (id === 'docs.openapi') return { 200: { description: 'This document.', content: { 'application/json': { schema: { type: 'object' } } } } };
  if (responseComponent) {
    const accepted = OPERATION_SCHEMAS[id]?.status === 202;
    const description = accepted ? 'Accepted: appended to the log, projected asynchronously.' : 'OK';
    return {
      [accepted ? 202 : 200]: { description, content: { 'application/json': { schema: ref(responseComponent) } } },
      ...(NO_CONTENT.has(id) ? { 204: { description: 'Done; no body.' } } : {}),
    };
  }
  const out: Record<string, JsonObject> = {
    '2XX': { description: route.side === 'command' ? 'Done (writes are acknowledged once appended to the log).' : 'OK', content: { 'application/json': { schema: ref('UndescribedResponse') } } },
  };
  // Sign-in steps answer by redirecting the browser.
  if (id === 'auth.sso.start' || id === 'auth.sso.callback' || id === 'auth.callback') out['3XX'] = { description: 'Redirect to the identity provider or back to the application.' };
  if (NO_CONTENT.has(id)) out['204'] = { description: 'Done; no body.' };
  return out;
}

function requestBody(id: RouteId, route: RouteDef, bodyComponent: string | undefined): JsonObject | undefined {
  if (id === 'otlp.traces.export') {
    return { required: true, description: 'An OTLP ExportTraceServiceRequest (protobuf; gzip or deflate Content-Encoding accepted).', content: { 'application/x-protobuf': { schema: ref('Binary') } } };
  }
  if (route.method === 'GET') return undefined;
  if (bodyComponent) return { required: OPERATION_SCHEMAS[id]?.bodyOptional !== true, content: { 'application/json': { schema: ref(bodyComponent) } } };
  if (route.method === 'DELETE') return undefined;
  return { required: false, content: { 'application/json': { schema: ref('UndescribedBody') } } };
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
      summary: id,
      tags: [id.split('.')[0]!],
      ...(route.deprecated ? { deprecated: true } : {}),
      security: securityOf(id),
      ...(parameters.length ? { parameters } : {}),
      ...(body ? { requestBody: body } : {}),
      responses: { ...successResponses(id, route, componentOf(responses, ops?.response)), ...errorResponses(id) },
      'x-side': route.side,
    };
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }

  const errorComponents: Record<string, JsonObject> = {};
  for (const [status, description] of Object.entries(ERROR_STATUSES)) {
    const name = status === '422' ? 'ValidationError' : `Error${status}`;
    errorComponents[name] = BODILESS_ERRORS.has(status) ? { description } : { description, content: { 'application/json': { schema: ref(status === '422' ? 'UnprocessableBody' : 'ErrorBody') } } };
  }

  return {
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
}

let cached: string | undefined;

/** The document serialized once per process (it depends on code only). */
export function openApiJson(): string {
  cached ??= JSON.stringify(buildOpenApiDocument());
  return cached;
}
