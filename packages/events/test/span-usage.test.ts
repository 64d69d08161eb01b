// The usage meters' light read of a spans record: the envelope's organization, project, actor and
// time, the record's trace id and its number of spans, exactly as a full decode shows them.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeEvent, decodeSpanUsage, encodeEvent, type SpanRecord } from '../src/index.ts';

const span = (id: string, parent: string, attrs = '{}'): SpanRecord => ({
  trace_id: 't', span_id: id, parent_id: parent, span_name: 'n', span_kind: 'SPAN_KIND_INTERNAL', span_type: 'task', trace_type: 'invocation',
  status_code: 'STATUS_CODE_UNSET', status_message: '', start_time_us: 1, end_time_us: 2, attributes_json: attrs, events_json: '[]', links_json: '',
  references_json: '[]', hashes_json: '[]', session_id: '', user_id: '', tokens_incremental: { prompt: 3 }, costs_incremental: {}, errors_incremental: 0, duration_ms: 1,
});
const meta = { projectId: 'p-1', organizationId: 'o-1', requestId: 'r', actorId: 'a', aggregateId: 't', timeUs: 1_750_000_000_000_000 };

describe('span usage', () => {
  it('when a record holds three spans, then it brings its trace id and 3 spans, with the envelope fields', () => {
    const buf = encodeEvent('tracing.spans.upserted', { trace_id: 'abc', spans: [span('a', ''), span('b', 'a'), span('c', 'x')] }, meta);
    expect(decodeSpanUsage(buf)).toEqual({ ok: true, value: { type: 'tracing.spans.upserted', projectId: 'p-1', organizationId: 'o-1', actorId: 'a', timeUs: meta.timeUs, traceId: 'abc', spans: 3 } });
  });

  it('when every span names a parent, then the record still brings its trace (no root needed)', () => {
    const buf = encodeEvent('tracing.spans.upserted', { trace_id: 'orphan', spans: [span('a', 'made-up')] }, meta);
    expect(decodeSpanUsage(buf)).toMatchObject({ ok: true, value: { traceId: 'orphan', spans: 1 } });
  });

  it('when a trace is replaced, its spans count; a deletion brings none', () => {
    expect(decodeSpanUsage(encodeEvent('tracing.trace.replaced', { trace_id: 't', spans: [span('a', '')] }, meta))).toMatchObject({ ok: true, value: { traceId: 't', spans: 1 } });
    expect(decodeSpanUsage(encodeEvent('tracing.trace.deleted', { trace_id: 't' }, meta))).toMatchObject({ ok: true, value: { traceId: 't', spans: 0 } });
  });

  it('when the bytes are not an envelope, then an error, never a throw', () => {
    expect(decodeSpanUsage(Buffer.from([0xff, 0xff, 0xff]))).toMatchObject({ ok: false });
  });

  it('reads what a full decode shows, for any spans', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.boolean(), fc.string({ maxLength: 40 })), { maxLength: 30 }), fc.string({ maxLength: 40 }), (xs, traceId) => {
      const spans = xs.map(([root, attrs], i) => span(`s${i}`, root ? '' : 'p', JSON.stringify({ a: attrs })));
      const buf = encodeEvent('tracing.spans.upserted', { trace_id: traceId, spans }, meta);
      const full = decodeEvent(buf);
      if (!full.ok) throw new Error(full.error);
      const payload = full.value.payload as { trace_id: string; spans: SpanRecord[] };
      expect(decodeSpanUsage(buf)).toMatchObject({ ok: true, value: { traceId: payload.trace_id, spans: payload.spans.length } });
    }), { numRuns: 200 });
  });
});
