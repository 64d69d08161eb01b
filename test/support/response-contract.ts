// Every JSON answer the end-to-end tests receive from an app under test is checked against the
// OpenAPI document's schema for its operation and status: the check sits in the test client
// (global fetch, which every e2e test uses), so no test has to remember it. A mismatch makes that
// fetch reject, failing the test at the request that received it.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { ROUTES, hasPreviewAlias, stripApiPrefix, type RouteId } from '@llm/contracts';
import { buildOpenApiDocument, openApiPath, type JsonObject } from '@llm/openapi';

const DOC_ID = 'openapi.json';

interface Matcher { id: RouteId; method: string; re: RegExp; pointer: string }

let state: { ajv: Ajv2020; doc: ReturnType<typeof buildOpenApiDocument>; matchers: Matcher[]; validators: Map<string, ValidateFunction | null> } | undefined;

const escapePointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

function init(): NonNullable<typeof state> {
  if (state) return state;
  const doc = buildOpenApiDocument();
  // Formats are not asserted (zod already enforces them on the way in; the document states them for readers).
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ ...doc, $id: DOC_ID } as JsonObject);
  // Route table order: express tries routes in this order, so the first match is the one that answered.
  const matchers = (Object.keys(ROUTES) as RouteId[]).map((id) => {
    const { path } = openApiPath(ROUTES[id].path);
    const re = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i');
    return { id, method: ROUTES[id].method, re, pointer: `/paths/${escapePointer(path)}/${ROUTES[id].method.toLowerCase()}` };
  });
  state = { ajv, doc, matchers, validators: new Map() };
  return state;
}

function operationOf(method: string, url: URL): Matcher | undefined {
  let p = stripApiPrefix(url.pathname);
  // Under /preview only the aliased routes answer (compat §5.1); any other path there is no operation.
  const preview = /^\/preview(\/|$)/i.test(p);
  if (preview) p = p.slice('/preview'.length) || '/';
  return init().matchers.find((m) => m.method === method && m.re.test(p) && (!preview || hasPreviewAlias(ROUTES[m.id])));
}

/** The validator of one operation's JSON answer with this status; null = the document gives it no JSON schema. */
function validatorFor(m: Matcher, status: number): ValidateFunction | null | 'undocumented' {
  const s = init();
  const op = s.doc.paths[openApiPath(ROUTES[m.id].path).path]?.[m.method.toLowerCase()] as { responses: Record<string, JsonObject> };
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => op.responses[k]);
  if (!key) return 'undocumented';
  const cacheKey = `${m.id} ${key}`;
  if (s.validators.has(cacheKey)) return s.validators.get(cacheKey)!;
  let response = op.responses[key]!;
  let pointer = `${m.pointer}/responses/${key}`;
  const ref = response.$ref;
  if (typeof ref === 'string') {
    pointer = ref.slice(1);
    response = s.doc.components.responses[ref.split('/').pop()!]!;
  }
  const content = response.content as Record<string, unknown> | undefined;
  const v = content?.['application/json'] ? s.ajv.compile({ $ref: `${DOC_ID}#${pointer}/content/application~1json/schema` }) : null;
  s.validators.set(cacheKey, v);
  return v;
}

/** The problem with one answer, or undefined when it matches the document. */
export function contractProblem(method: string, url: URL, status: number, contentType: string | null, body: string): string | undefined {
  const m = operationOf(method, url);
  if (!m) return undefined; // no route: the app's 404, not an operation
  const v = validatorFor(m, status);
  if (v === 'undocumented') return `${m.id}: status ${status} is not documented`;
  if (!v || !/^application\/json\b/i.test(contentType ?? '') || body === '') return undefined;
  let json: unknown;
  try { json = JSON.parse(body); } catch { return `${m.id}: ${status} says application/json but the body is not JSON`; }
  if (v(json)) return undefined;
  const errs = (v.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
  return `${m.id}: ${status} body does not match the document (${errs}); body: ${body.slice(0, 300)}`;
}

const checked = new Set<string>();
let installed = false;

/** Checks every answer from `baseUrl` from now on (idempotent; one wrapper serves every app of the file). */
export function checkResponsesAgainstDocument(baseUrl: string): void {
  checked.add(new URL(baseUrl).origin);
  if (installed) return;
  installed = true;
  const inner = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await inner(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!checked.has(url.origin)) return res;
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const ctype = res.headers.get('content-type');
    // Only JSON answers are read (a clone: the test still reads its own copy).
    const body = ctype && /json/i.test(ctype) ? await res.clone().text() : '';
    const problem = contractProblem(method, url, res.status, ctype, body);
    if (problem) throw new Error(`response contract: ${method} ${url.pathname} → ${problem}`);
    return res;
  };
}
