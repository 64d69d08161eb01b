// The projector's trace cache is bounded by the approximate bytes of the rows it holds (and by span
// count), evicts least recently used traces first, and never evicts a trace whose rows are not yet
// flushed to ClickHouse.
import { describe, expect, it } from 'vitest';
import { MAP_ENTRY_BYTES, ROW_OVERHEAD_BYTES, spanRowBytes } from '@llm/span-table';
import { TraceCache } from '../src/consumer/trace-cache.ts';
import type { SpanRow } from '../src/domain/span-row.ts';
import type { TraceRows } from '../src/domain/trace-state.ts';

function row(spanId: string, attributes = '{}', extra: Partial<SpanRow> = {}): SpanRow {
  return {
    project_id: 'p', trace_id: 't'.repeat(32), span_id: spanId, parent_id: '', span_name: 'n', span_kind: 'SPAN_KIND_INTERNAL',
    span_type: 'task', trace_type: 'invocation', status_code: 'STATUS_CODE_UNSET', status_message: '',
    start_time: '1700000000.000000', end_time: '1700000001.000000', duration_ms: 1000,
    attributes, events: '[]', links: '[]', references: '[]', hashes: '[]', session_id: '', user_id: '',
    tokens_incremental: {}, costs_incremental: {}, errors_incremental: 0,
    tokens_cumulative: {}, costs_cumulative: {}, errors_cumulative: 0,
    created_at: '1700000002.000000', version: '1', is_deleted: 0, ...extra,
  };
}

/** A trace of `spans` rows whose attributes make each row exactly `rowBytes` by the estimate. */
function trace(spans: number, rowBytes: number): TraceRows {
  const base = spanRowBytes(row('0'.repeat(16), ''));
  const rows: TraceRows = new Map();
  for (let i = 0; i < spans; i++) {
    const id = i.toString(16).padStart(16, '0');
    rows.set(id, row(id, 'x'.repeat(rowBytes - base)));
  }
  return rows;
}

const bytesOf = (rows: TraceRows): number => [...rows.values()].reduce((n, r) => n + spanRowBytes(r), 0);

describe('span row size estimate', () => {
  it('counts every text column, a flat allowance per row and per token/cost map entry', () => {
    const r = row('0123456789abcdef', '{"a":"bcd"}', { events: '[{"name":"e"}]', tokens_incremental: { prompt: 1, total: 1 }, costs_cumulative: { total: 0.5 } });
    const text = 32 + 16 + 0 + 1 + 'SPAN_KIND_INTERNAL'.length + 4 + 'invocation'.length + 'STATUS_CODE_UNSET'.length + 0
      + '{"a":"bcd"}'.length + '[{"name":"e"}]'.length + 2 + 2 + 2 + 0 + 0;
    expect(spanRowBytes(r)).toBe(ROW_OVERHEAD_BYTES + text + 3 * MAP_ENTRY_BYTES);
  });
});

describe('TraceCache', () => {
  it('when traces are cached, replaced and cleared, then the byte and span totals follow', () => {
    const cache = new TraceCache({ maxBytes: 1e9, maxSpans: 1e9 });
    const a = trace(3, 1000);
    const b = trace(2, 5000);
    cache.set('a', a, 1);
    cache.set('b', b, 1);
    expect(cache.sizeBytes).toBe(3000 + 10_000);
    expect(cache.size).toBe(5);
    // Re-caching a trace replaces its old size rather than adding to it.
    const a2 = trace(4, 1000);
    cache.set('a', a2, 2);
    expect(cache.sizeBytes).toBe(4000 + 10_000);
    expect(cache.size).toBe(6);
    expect(cache.traces).toBe(2);
    cache.clear();
    expect([cache.sizeBytes, cache.size, cache.traces]).toEqual([0, 0, 0]);
  });

  it('when the bytes exceed the bound, then least recently used traces go until under 90 %', () => {
    const cache = new TraceCache({ maxBytes: 10_000, maxSpans: 1e9 });
    for (const k of ['a', 'b', 'c', 'd']) cache.set(k, trace(1, 3000), 1); // 12,000 bytes, 4 spans
    expect(cache.get('a')).toBeDefined(); // a is now the most recently used
    cache.evict(1);
    // 12,000 bytes; dropping the least recently used (b) reaches 9,000, the low-water mark.
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.get('d')).toBeDefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.sizeBytes).toBe(9000);
  });

  it('when few spans carry many bytes, then the byte bound evicts although the span bound is far', () => {
    const cache = new TraceCache({ maxBytes: 1024 * 1024, maxSpans: 100_000 });
    cache.set('big', trace(2, 600 * 1024), 1); // 2 spans, 1.2 MiB
    cache.set('small', trace(2, 1024), 1);
    cache.evict(1);
    expect(cache.get('big')).toBeUndefined();
    expect(cache.get('small')).toBeDefined();
    expect(cache.sizeBytes).toBe(2048);
  });

  it('when the span count exceeds its bound, then it evicts too', () => {
    const cache = new TraceCache({ maxBytes: 1e12, maxSpans: 10 });
    cache.set('a', trace(6, 1000), 1);
    cache.set('b', trace(6, 1000), 1);
    cache.evict(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(6);
  });

  it('when a trace is not yet flushed, then it stays however far over the bound the cache is', () => {
    const cache = new TraceCache({ maxBytes: 5000 });
    cache.set('old', trace(1, 4000), 1);
    cache.set('new', trace(1, 4000), 2);
    cache.evict(0); // nothing flushed yet
    expect(cache.traces).toBe(2);
    cache.evict(1); // 'old' is in ClickHouse, 'new' is not
    expect(cache.get('old')).toBeUndefined();
    expect(cache.get('new')).toBeDefined();
    cache.set('newer', trace(1, 4000), 3);
    cache.evict(3);
    expect(cache.get('new')).toBeUndefined();
    expect(cache.sizeBytes).toBe(4000);
  });

  it('when under both bounds, then nothing is evicted', () => {
    const cache = new TraceCache();
    const t = trace(10, 2000);
    cache.set('t', t, 1);
    cache.evict(1);
    expect(cache.get('t')).toEqual(t); // the same rows (held as text, so equal, not the same objects)
    expect(cache.sizeBytes).toBe(bytesOf(t));
  });
});
