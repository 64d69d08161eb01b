// The success answers the contracts describe, checked through the generated document (as the
// end-to-end client checks them): real-shaped answers pass, malformed ones are refused, and writes
// that are only acknowledged are documented under 202.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteId } from '@llm/contracts';
import { buildOpenApiDocument, openApiPath, type JsonObject } from '@llm/openapi';

const doc = buildOpenApiDocument();
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ ...doc, $id: 'doc' } as JsonObject);

const responses = (id: RouteId): Record<string, JsonObject> => {
  const r = ROUTES[id];
  return (doc.paths[openApiPath(r.path).path]?.[r.method.toLowerCase()] as { responses: Record<string, JsonObject> }).responses;
};
const accepts = (id: RouteId, status: number, body: unknown): boolean => {
  const r = ROUTES[id];
  const pointer = `/paths/${openApiPath(r.path).path.replace(/~/g, '~0').replace(/\//g, '~1')}/${r.method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
  return ajv.validate({ $ref: `doc#${pointer}` }, body);
};

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const span = (spanId: string, name: string, extra: Record<string, unknown> = {}) => ({
  trace_id: TRACE, span_id: spanId, span_name: name, span_kind: 'SPAN_KIND_INTERNAL', span_type: 'workflow', trace_type: 'invocation',
  status_code: 'STATUS_CODE_UNSET', start_time: '2025-01-01T00:00:00Z', end_time: '2025-01-01T00:00:01.5Z',
  attributes: { ag: { type: { trace: 'invocation', span: 'workflow' }, data: { inputs: { q: 'hi' } }, metrics: {} } },
  events: [], references: [], hashes: [], ...extra,
});

describe('documented success answers', () => {
  it('when a write is acknowledged asynchronously, then its answer is documented under 202 only', () => {
    for (const id of ['traces.create', 'traces.ingest', 'tracing.spans.ingest', 'simple.traces.create'] as const) {
      expect(Object.keys(responses(id)).filter((k) => k.startsWith('2')), id).toEqual(['202']);
    }
    expect(accepts('tracing.spans.ingest', 202, {
      count: 1, links: [{ trace_id: TRACE, span_id: 'b7ad6b7169203331' }],
      rejected: { count: 1, spans: [{ index: 1, span_id: 'zz', reason: 'span_id: not a span id' }] },
    })).toBe(true);
  });

  it('when a trace is read with a nested child, an orphan and a repeated name, then the tree is accepted', () => {
    const child = span('b7ad6b7169203332', 'llm', { parent_id: 'b7ad6b7169203331' });
    const root = { ...span('b7ad6b7169203331', 'root'), spans: { llm: [child, { ...child, span_id: 'b7ad6b7169203333' }] } };
    const orphan = { ...span('b7ad6b7169203334', 'late', { parent_id: 'b7ad6b7169203335' }), orphan: true };
    expect(accepts('traces.fetch', 200, { count: 1, trace: { trace_id: TRACE, spans: { root, late: orphan } } })).toBe(true);
    expect(accepts('traces.fetch', 200, { count: 0 })).toBe(true);
    expect(accepts('tracing.traces.fetch', 200, { count: 1, traces: { [TRACE]: { spans: { root } } } })).toBe(true);
  });

  it('when an answer breaks the shape (id casing, a count as text, a nested span without its kind), then it is refused', () => {
    expect(accepts('spans.fetch', 200, { count: 1, span: span('B7AD6B7169203331', 'x') })).toBe(false);
    expect(accepts('spans.query', 200, { count: '1', spans: [span('b7ad6b7169203331', 'x')] })).toBe(false);
    const { span_kind: _k, ...kindless } = span('b7ad6b7169203332', 'llm');
    const root = { ...span('b7ad6b7169203331', 'root'), spans: { llm: kindless } };
    expect(accepts('traces.query', 200, { count: 1, traces: [{ trace_id: TRACE, spans: { root } }] })).toBe(false);
  });
});
