// Given/when/then tests of the span projector's pure state transitions.
import { describe, expect, it } from 'vitest';
import type { DecodedEvent, SpanRecord } from '@llm/events';
import { applyTraceEvent, type TraceRows } from '../src/domain/trace-state.ts';

const rec = (span_id: string, parent_id = '', tokens: Record<string, number> = {}): SpanRecord => ({
  trace_id: 't1', span_id, parent_id, span_name: span_id, span_kind: 'SPAN_KIND_INTERNAL', span_type: 'task', trace_type: 'invocation',
  status_code: 'STATUS_CODE_UNSET', status_message: '', start_time_us: 1_700_000_000_000_000, end_time_us: 1_700_000_000_500_000,
  attributes_json: '{}', events_json: '[]', links_json: '', references_json: '[]', hashes_json: '[]', session_id: '', user_id: '',
  tokens_incremental: tokens, costs_incremental: {}, errors_incremental: 0, duration_ms: 500,
});

function event<T extends 'tracing.spans.upserted' | 'tracing.trace.replaced' | 'tracing.trace.deleted'>(type: T, spans: SpanRecord[] = []): DecodedEvent<T> {
  return {
    eventId: 'e', type, schemaVersion: 1, projectId: 'p1', organizationId: '', timeUs: 1_700_000_001_000_000, requestId: '', actorId: '',
    aggregateId: 't1', expectedVersion: 0, payload: (type === 'tracing.trace.deleted' ? { trace_id: 't1' } : { trace_id: 't1', spans }) as DecodedEvent<T>['payload'],
  };
}

describe('trace state', () => {
  it('given nothing, when a parent and child are upserted, then both are written with rolled-up cumulatives', () => {
    const t = applyTraceEvent(new Map(), event('tracing.spans.upserted', [rec('a'), rec('b', 'a', { total: 5 })]), 10n);
    const byId = new Map(t.writes.map((w) => [w.span_id, w]));
    expect(byId.get('a')!.tokens_cumulative.total).toBe(5);
    expect(byId.get('b')!.tokens_cumulative.total).toBe(5);
    expect(t.writes.every((w) => w.version === '10' && w.is_deleted === 0)).toBe(true);
  });

  it('given a stored parent, when a child arrives later, then the parent is re-written with the new cumulative at the new version', () => {
    const first = applyTraceEvent(new Map(), event('tracing.spans.upserted', [rec('a', '', { total: 1 })]), 10n);
    const second = applyTraceEvent(first.next, event('tracing.spans.upserted', [rec('b', 'a', { total: 2 })]), 11n);
    const parent = second.writes.find((w) => w.span_id === 'a')!;
    expect(parent.tokens_cumulative.total).toBe(3);
    expect(parent.version).toBe('11');
  });

  it('given stored spans, when an unrelated sibling subtree is unchanged, then it is not re-written', () => {
    const first = applyTraceEvent(new Map(), event('tracing.spans.upserted', [rec('a'), rec('b', 'a'), rec('c', 'a')]), 10n);
    const second = applyTraceEvent(first.next, event('tracing.spans.upserted', [rec('d', 'b')]), 11n);
    expect(second.writes.map((w) => w.span_id).sort()).toEqual(['d']);
  });

  it('given stored spans, when the trace is replaced, then absent spans get tombstones and present ones are re-written', () => {
    const first = applyTraceEvent(new Map(), event('tracing.spans.upserted', [rec('a'), rec('b', 'a')]), 10n);
    const replaced = applyTraceEvent(first.next, event('tracing.trace.replaced', [rec('a'), rec('c', 'a')]), 12n);
    const tomb = replaced.writes.filter((w) => w.is_deleted === 1).map((w) => w.span_id);
    expect(tomb).toEqual(['b']);
    expect([...replaced.next.keys()].sort()).toEqual(['a', 'c']);
  });

  it('given a stored span, when it comes again with another start time, then its old row (old ordering key) gets a tombstone', () => {
    const first = applyTraceEvent(new Map(), event('tracing.spans.upserted', [rec('a')]), 10n);
    const moved = { ...rec('a'), start_time_us: 1_700_000_100_000_000, end_time_us: 1_700_000_100_500_000 };
    const second = applyTraceEvent(first.next, event('tracing.spans.upserted', [moved]), 11n);
    expect(second.writes.map((w) => [w.start_time, w.is_deleted, w.version])).toEqual([
      ['1700000000.000000', 1, '11'],
      ['1700000100.000000', 0, '11'],
    ]);
  });

  it('given a stored span read back from ClickHouse (calendar time), when the same start time comes again, then nothing is tombstoned', () => {
    const stored = { ...applyTraceEvent(new Map(), event('tracing.spans.upserted', [rec('a')]), 10n).writes[0]!, start_time: '2023-11-14 22:13:20.000000' };
    const again = applyTraceEvent(new Map([['a', stored]]), event('tracing.spans.upserted', [rec('a')]), 11n);
    expect(again.writes.filter((w) => w.is_deleted === 1)).toEqual([]);
  });

  it('given stored spans, when the trace is deleted, then every span gets a tombstone with the deletion version', () => {
    const first = applyTraceEvent(new Map(), event('tracing.spans.upserted', [rec('a'), rec('b', 'a')]), 10n);
    const del = applyTraceEvent(first.next, event('tracing.trace.deleted'), 13n);
    expect(del.writes.map((w) => [w.span_id, w.is_deleted, w.version])).toEqual([['a', 1, '13'], ['b', 1, '13']]);
    expect(del.next.size).toBe(0);
  });

  it('given the same event twice (re-delivery), then the second application writes identical rows', () => {
    const ev = event('tracing.spans.upserted', [rec('a'), rec('b', 'a', { total: 1 })]);
    const once = applyTraceEvent(new Map() as TraceRows, ev, 10n);
    const twice = applyTraceEvent(once.next, ev, 10n);
    const norm = (ws: typeof once.writes) => ws.map((w) => JSON.stringify(w)).sort();
    expect(norm(twice.writes)).toEqual(norm(once.writes));
  });
});
