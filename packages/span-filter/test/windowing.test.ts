import { describe, expect, it } from 'vitest';

import { compileWindowing, decodeCursor, DEFAULT_LIMIT, encodeCursor, MAX_LIMIT, spanCursor, traceCursor } from '../src/index.ts';
import { render } from './render-sql.ts';

const T1 = '0af7651916cd43dd8448eb211c80319c';
const S1 = 'b7ad6b7169203331';

function ok(input: unknown, focus: 'span' | 'trace' = 'span') {
  const r = compileWindowing(input, focus);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  return r;
}

function errors(input: unknown, focus: 'span' | 'trace' = 'span'): string[] {
  const r = compileWindowing(input, focus);
  if (r.ok) throw new Error('expected errors');
  return r.errors.map((e) => e.message);
}

describe('compileWindowing: defaults', () => {
  it.each([
    ['absent', undefined],
    ['null', null],
    ['empty', {}],
  ])('when windowing is %s, then spans come newest first, DEFAULT_LIMIT at a time', (_, input) => {
    expect(compileWindowing(input, 'span')).toEqual({
      ok: true,
      where: '1',
      having: '1',
      orderBy: 'start_time DESC, trace_id DESC, span_id DESC',
      limit: DEFAULT_LIMIT,
      order: 'descending',
      params: {},
      traceKey: 'max(start_time)',
    });
  });

  it('when the order is ascending, then every sort key ascends', () => {
    expect(ok({ order: 'ascending' }).orderBy).toBe('start_time ASC, trace_id ASC, span_id ASC');
  });

  it('when the focus is trace, then traces are ordered by their latest span and trace id', () => {
    expect(ok({}, 'trace').orderBy).toBe('max(start_time) DESC, trace_id DESC');
    expect(ok({ order: 'ascending' }, 'trace').orderBy).toBe('max(start_time) ASC, trace_id ASC');
  });

  it('when limit is at the maximum, then it is accepted', () => {
    expect(ok({ limit: MAX_LIMIT }).limit).toBe(MAX_LIMIT);
  });

  it('when interval and rate are given, then they are echoed', () => {
    const r = ok({ interval: 60, rate: 0.5 });
    expect([r.interval, r.rate]).toEqual([60, 0.5]);
  });
});

describe('compileWindowing: time bounds', () => {
  it.each<[string, unknown, unknown]>([
    ['ISO strings', '2024-01-01T00:00:00Z', '2024-01-02T00:00:00+00:00'],
    ['unix seconds', 1704067200, 1704153600],
    ['unix milliseconds', 1704067200000, 1704153600000],
  ])('when oldest and newest are %s, then the window is oldest <= start_time < newest', (_, oldest, newest) => {
    const r = ok({ oldest, newest });
    expect(r.where).toBe("(start_time >= {w_oldest:DateTime64(6,'UTC')}) AND (start_time < {w_newest:DateTime64(6,'UTC')})");
    expect(render(r.where, r.params)).toBe('(start_time >= "2024-01-01 00:00:00.000000") AND (start_time < "2024-01-02 00:00:00.000000")');
  });

  it('when the order is ascending, then the window is the same', () => {
    const r = ok({ oldest: 1704067200, order: 'ascending' });
    expect(render(r.where, r.params)).toBe('(start_time >= "2024-01-01 00:00:00.000000")');
  });

  it('when only newest is given, then only the upper bound applies', () => {
    expect(ok({ newest: '2024-01-01' }).where).toBe("(start_time < {w_newest:DateTime64(6,'UTC')})");
  });
});

describe('compileWindowing: sampling', () => {
  it('when rate is 1, then nothing is sampled out', () => {
    expect(ok({ rate: 1 }).where).toBe('1');
  });

  it.each([
    [0.25, 2500],
    [0.5, 5000],
    [0.00001, 1],
  ])('when rate is %f, then %i of 10000 trace buckets are kept', (rate, buckets) => {
    const r = ok({ rate });
    expect(r.where).toBe('(cityHash64(trace_id) % 10000 < {w_rate:UInt32})');
    expect(r.params.w_rate).toEqual({ type: 'UInt32', value: buckets });
  });
});

describe('compileWindowing: cursor', () => {
  const span = { start_time: '2024-01-15 10:00:00.250000', trace_id: T1, span_id: S1 };

  it('when a span cursor is given descending, then the page starts strictly after it in (start_time, trace_id, span_id)', () => {
    const r = ok({ next: spanCursor(span) });
    expect(render(r.where, r.params)).toBe(
      `((start_time, trace_id, span_id) < ("2024-01-15 10:00:00.250000", "${T1}", "${S1}"))`,
    );
  });

  it('when a span cursor is given ascending, then the comparison flips', () => {
    expect(ok({ next: spanCursor(span), order: 'ascending' }).where).toContain(') > (');
  });

  it('when a trace cursor is given, then it applies to the grouped traces', () => {
    const r = ok({ next: traceCursor({ key: '2024-01-15 10:00:00.250000', trace_id: T1 }) }, 'trace');
    expect(r.where).toBe('1');
    expect(render(r.having, r.params)).toBe(`(max(start_time), trace_id) < ("2024-01-15 10:00:00.250000", "${T1}")`);
  });

  it('when cursor and bounds are combined, then all apply', () => {
    const r = ok({ next: spanCursor(span), oldest: '2024-01-01', rate: 0.5 });
    expect(r.where.split(') AND (')).toHaveLength(3);
  });

  it('when a cursor is encoded and decoded, then it round-trips', () => {
    const c = { t: 1705312800250000, id: `${T1}:${S1}` };
    const s = encodeCursor(c);
    expect(s).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(s)).toEqual({ ok: true, value: c });
  });

  it('when a span cursor is built from µs or from ClickHouse text, then both give the same cursor', () => {
    expect(spanCursor(span)).toBe(spanCursor({ ...span, start_time: 1705312800250000 }));
  });

  it('when a cursor is built from an unreadable time, then it throws (our rows are never like that)', () => {
    expect(() => spanCursor({ ...span, start_time: 'soon' })).toThrow(/cannot build a cursor/);
  });

  it.each<[string, string]>([
    ['empty', ''],
    ['not base64url', 'abc+/='],
    ['not JSON', Buffer.from('{t:1').toString('base64url')],
    ['the wrong shape', encodeCursor({ t: 1.5, id: 'x' })],
    ['an extra key', Buffer.from(JSON.stringify({ t: 1, id: 'x', admin: true })).toString('base64url')],
    ['too long', 'A'.repeat(600)],
  ])('when a cursor is %s, then decoding fails', (_, s) => {
    expect(decodeCursor(s).ok).toBe(false);
  });

  it.each<[string, string, 'span' | 'trace', string]>([
    ['garbage', 'not-a-cursor!', 'span', 'windowing.next: is not a cursor returned by this API'],
    ['a reference-style UUID', '0af76519-16cd-43dd-8448-eb211c80319c', 'span', 'windowing.next: is not a cursor returned by this API'],
    ['an unknown id form', encodeCursor({ t: 1, id: 'abc' }), 'span', 'windowing.next: is not a cursor returned by this API'],
    ['a trace cursor in a span query', encodeCursor({ t: 1, id: T1 }), 'span', 'windowing.next: is a cursor of a trace query, not of a span query'],
    ['a span cursor in a trace query', encodeCursor({ t: 1, id: `${T1}:${S1}` }), 'trace', 'windowing.next: is a cursor of a span query, not of a trace query'],
    ['an unknown id form in a trace query', encodeCursor({ t: 1, id: 'abc' }), 'trace', 'windowing.next: is not a cursor returned by this API'],
  ])('when next is %s, then it is an error', (_, next, focus, message) => {
    expect(errors({ next }, focus)).toEqual([message]);
  });
});

describe('compileWindowing: errors', () => {
  it.each<[string, unknown, string]>([
    ['newest before oldest', { oldest: '2024-01-02', newest: '2024-01-01' }, 'windowing.newest: must be later than windowing.oldest (the window is oldest <= start_time < newest)'],
    ['newest equal to oldest', { oldest: 1704067200, newest: '2024-01-01T00:00:00Z' }, 'windowing.newest: must be later than windowing.oldest'],
    ['an ambiguous timestamp', { newest: 12345 }, 'windowing.newest: Timestamp 12345 is ambiguous.'],
    ['an unparsable timestamp', { oldest: 'last week' }, "windowing.oldest: Invalid timestamp 'last week'."],
    ['a boolean timestamp', { oldest: true }, 'windowing.oldest: Invalid input'],
    ['limit 0', { limit: 0 }, 'windowing.limit: limit must be at least 1'],
    ['a negative limit', { limit: -5 }, 'windowing.limit: limit must be at least 1'],
    ['a fractional limit', { limit: 1.5 }, 'windowing.limit: limit must be an integer'],
    ['a limit over the maximum', { limit: MAX_LIMIT + 1 }, `windowing.limit: limit must be at most ${MAX_LIMIT}`],
    ['an unknown order', { order: 'newest' }, 'windowing.order: order must be one of: ascending, descending'],
    ['a zero interval', { interval: 0 }, 'windowing.interval: interval must be positive'],
    ['rate 0', { rate: 0 }, 'windowing.rate: rate must be in (0, 1]'],
    ['rate above 1', { rate: 1.5 }, 'windowing.rate: rate must be in (0, 1]'],
    ['an unknown key', { limt: 10 }, 'windowing: Unrecognized key: "limt"'],
    ['a non-object', 'limit=10', 'windowing: Invalid input: expected object, received string'],
    ['NUL in a timestamp', { oldest: '2024-01-01\u0000' }, 'windowing.oldest: must not contain NUL (U+0000)'],
    ['a lone surrogate in a timestamp', { newest: '2024-01-01\ud800' }, 'windowing.newest: must not contain a lone UTF-16 surrogate'],
    ['NUL in the cursor', { next: 'abc\u0000' }, 'windowing.next: must not contain NUL (U+0000)'],
  ])('when windowing has %s, then the error names it', (_, input, message) => {
    const [got] = errors(input);
    expect(got?.startsWith(message), got).toBe(true);
  });

  it('when several things are wrong after parsing, then each is reported', () => {
    expect(errors({ oldest: '2024-01-02', newest: '2024-01-01', next: 'x' })).toHaveLength(2);
  });

  it('when the root and prefix are given, then they are used', () => {
    const r = compileWindowing({ limit: 0 }, 'span', { root: 'window' });
    expect(!r.ok && r.errors[0]!.message).toMatch(/^window\.limit: /);
    const p = compileWindowing({ oldest: '2024-01-01' }, 'span', { paramPrefix: 'win_' });
    expect(p.ok && Object.keys(p.params)).toEqual(['win_oldest']);
    expect(() => compileWindowing({}, 'span', { paramPrefix: '1x' })).toThrow(/not a valid/);
  });
});
