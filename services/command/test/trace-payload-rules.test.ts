import { describe, expect, it } from 'vitest';
import { checkRoot, checkSameTrace } from '../src/ingest/domain/trace-payload-rules.ts';
import { flattenTree } from '../src/ingest/domain/flatten-tree.ts';
import { chunkSpans } from '../src/ingest/domain/chunk-spans.ts';
import type { SpanRecord } from '@llm/events';

const T = '0af7651916cd43dd8448eb211c80319c';

describe('trace payload rules', () => {
  it('when the top level has zero, one or two roots, then Missing root span / ok / Too many root spans', () => {
    expect(checkRoot([])).toEqual({ ok: false, error: 'Missing spans' });
    expect(checkRoot([{ parent_id: 'x' }])).toEqual({ ok: false, error: 'Missing root span' });
    expect(checkRoot([{}]).ok).toBe(true);
    expect(checkRoot([{}, { parent_id: null }])).toEqual({ ok: false, error: 'Too many root spans' });
  });

  it('when path and payload ids are spelled differently but name the same trace, then they match', () => {
    const dashed = '0af76519-16cd-43dd-8448-eb211c80319c';
    expect(checkSameTrace(dashed, [{ trace_id: `0x${T.toUpperCase()}`, span_id: 'b7ad6b7169203331' }])).toEqual({ ok: true, value: T });
  });

  it('when the payload holds two traces or another trace, then a clear error', () => {
    const other = 'ffffffffffffffffffffffffffffffff';
    expect(checkSameTrace(T, [{ trace_id: T, span_id: 'a' }, { trace_id: other, span_id: 'b' }])).toEqual({ ok: false, error: 'Trace payload must contain exactly one trace_id.' });
    const r = checkSameTrace(T, [{ trace_id: other, span_id: 'a' }]);
    expect(r.ok).toBe(false);
    expect(checkSameTrace('nope', [{ trace_id: T, span_id: 'a' }])).toEqual({ ok: false, error: 'Invalid trace_id in path or payload.' });
  });
});

describe('tree flattening', () => {
  it('when a child has no parent_id, then its tree parent becomes its parent, and names come from keys', () => {
    const flat = flattenTree({ root: { trace_id: T, span_id: 'r', spans: { kid: [{ trace_id: T, span_id: 'k1' }, { trace_id: T, span_id: 'k2', parent_id: 'other' }] } } });
    expect(flat.map((s) => [s.span_id, s.parent_id, s.span_name])).toEqual([['r', undefined, 'root'], ['k1', 'r', 'kid'], ['k2', 'other', 'kid']]);
  });
});

describe('record chunking', () => {
  it('when a trace is larger than a record may be, then it is split in order and nothing is lost', () => {
    const span = (i: number): SpanRecord => ({ span_id: String(i), attributes_json: 'x'.repeat(100_000), events_json: '', links_json: '', references_json: '' }) as SpanRecord;
    const parts = chunkSpans(Array.from({ length: 25 }, (_, i) => span(i)));
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.flat().map((s) => s.span_id)).toEqual(Array.from({ length: 25 }, (_, i) => String(i)));
    for (const p of parts) expect(p.reduce((a, s) => a + s.attributes_json.length, 0)).toBeLessThanOrEqual(1024 * 1024);
  });
});
