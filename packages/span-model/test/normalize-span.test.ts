import { describe, expect, it } from 'vitest';

import { normalizeSpan } from '../src/normalize-span.ts';
import type { JsonObject, RawSpan } from '../src/span.ts';
import { APP_ID, raw, sid, span, TRACE_A } from './fixtures/builders.ts';
import { realisticTrace } from './fixtures/realistic-spans.ts';

function ag(s: { attributes: JsonObject }): JsonObject {
  return s.attributes.ag as JsonObject;
}
function metrics(s: { attributes: JsonObject }): JsonObject {
  return ag(s).metrics as JsonObject;
}

describe('normalizeSpan: identity and validation', () => {
  it('when ids come in any accepted form, then they are returned as lowercase hex, span id as sent', () => {
    const s = span({ trace_id: `0x${TRACE_A.toUpperCase()}`, span_id: 'B7AD6B7169203331', parent_id: '0X00F067AA0BA902B7' });
    expect([s.trace_id, s.span_id, s.parent_id]).toEqual([TRACE_A, 'b7ad6b7169203331', '00f067aa0ba902b7']);
  });

  it('when parent_id is empty or null, then the span is a root', () => {
    expect(span({ parent_id: '' }).parent_id).toBeUndefined();
    expect(span({ parent_id: null }).parent_id).toBeUndefined();
  });

  it.each<[string, Partial<RawSpan>, string]>([
    ['a bad trace_id', { trace_id: 'xyz' }, 'trace_id:'],
    ['a bad span_id', { span_id: '123' }, 'span_id:'],
    ['a bad parent_id', { parent_id: 'nope' }, 'parent_id:'],
    ['a bad link id', { links: [{ trace_id: TRACE_A, span_id: 'zz' }] }, 'links[0].span_id:'],
    ['an ambiguous start_time', { start_time: 12345 }, 'start_time: Timestamp 12345 is ambiguous.'],
    ['an invalid end_time', { end_time: 'tomorrow' }, 'end_time:'],
    ['an invalid event timestamp', { events: [{ name: 'e', timestamp: 1 }] }, 'events[0].timestamp:'],
    ['an unknown span_kind', { span_kind: 'SPAN_KIND_WEIRD' }, 'span_kind:'],
    ['an unknown status_code', { status_code: 'FINE' }, 'status_code:'],
    ['non-object attributes', { attributes: [] as unknown as JsonObject }, 'attributes:'],
  ])('when given %s, then the span is rejected with a reason', (_, overrides, reason) => {
    const r = normalizeSpan(raw(overrides));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(reason);
  });

  it('when span_kind and status_code are short or lower-case names, then they are accepted', () => {
    const s = span({ span_kind: 'client', status_code: 'error' });
    expect([s.span_kind, s.status_code]).toEqual(['SPAN_KIND_CLIENT', 'STATUS_CODE_ERROR']);
  });

  it('when the input is normalised, then it is not mutated', () => {
    const input = realisticTrace(7)[1] as RawSpan;
    const snapshot = structuredClone(input);
    normalizeSpan(input);
    expect(input).toEqual(snapshot);
  });
});

describe('normalizeSpan: defaults', () => {
  it('when optional fields are absent, then defaults apply', () => {
    const s = span();
    expect(s).toMatchObject({
      span_name: sid(1).slice(0, 12),
      span_kind: 'SPAN_KIND_UNSPECIFIED',
      status_code: 'STATUS_CODE_UNSET',
      span_type: 'task',
      trace_type: 'invocation',
      start_time: '2024-06-01T12:00:00.000000Z',
      end_time: '2024-06-01T12:00:00.000000Z',
      events: [],
      references: [],
      hashes: [],
    });
    expect(s.attributes).toEqual({ ag: { type: { span: 'task' }, data: {}, metrics: { duration: {}, errors: {}, tokens: {}, costs: {} } } });
    expect(s.links).toBeUndefined();
  });

  it('when only one time is given, then the other copies it', () => {
    expect(span({ start_time: 1_700_000_000 }).end_time).toBe('2023-11-14T22:13:20.000000Z');
    expect(span({ end_time: '2023-11-14T22:13:20Z' }).start_time).toBe('2023-11-14T22:13:20.000000Z');
  });

  it('when times mix naive ISO, offsets and integers, then all are UTC', () => {
    const s = span({ start_time: '2024-01-01T00:00:00', end_time: 1_704_067_201_500 });
    expect([s.start_time, s.end_time]).toEqual(['2024-01-01T00:00:00.000000Z', '2024-01-01T00:00:01.500000Z']);
  });

  it('when a link has no attributes, then the span is kept and the link gets {}', () => {
    expect(span({ links: [{ trace_id: TRACE_A, span_id: sid(9) }] }).links).toEqual([{ trace_id: TRACE_A, span_id: sid(9), attributes: {} }]);
  });

  it('when an event has no timestamp, then it takes the span start time', () => {
    expect(span({ start_time: 1_700_000_000, events: [{ name: 'log' }] }).events).toEqual([
      { name: 'log', timestamp: '2023-11-14T22:13:20.000000Z' },
    ]);
  });

  it('when attributes are flat, then they are unflattened and non-ag keys kept verbatim', () => {
    const s = span({ attributes: { 'tags.created_at': '2024-01-15', 'input.value': 'hi' } });
    expect(s.attributes.tags).toEqual({ created_at: '2024-01-15' });
    expect(s.attributes.input).toEqual({ value: 'hi' });
  });

  it('when now is not given, then the clock is used', () => {
    const before = Date.now();
    const r = normalizeSpan(raw());
    expect(r.ok && Date.parse(r.span.start_time) >= before - 1).toBe(true);
  });
});

describe('normalizeSpan: span_type precedence', () => {
  it('when the top-level span_type is valid, then it wins over ag.type.span (kept in unsupported)', () => {
    const s = span({ span_type: 'LLM', attributes: { 'ag.type.span': 'chat' } });
    expect(s.span_type).toBe('llm');
    expect(ag(s).type).toEqual({ span: 'llm' });
    expect(ag(s).unsupported).toEqual({ type: { span: 'chat' } });
  });

  it('when span_type is absent, then ag.type.span is used', () => {
    expect(span({ attributes: { 'ag.type.span': 'embedding' } }).span_type).toBe('embedding');
  });

  it('when span_type is invalid, then ag.type.span is used and the bad value kept in unsupported', () => {
    const s = span({ span_type: 'generation', attributes: { ag: { type: { span: 'tool' } } } });
    expect(s.span_type).toBe('tool');
    expect(ag(s).unsupported).toEqual({ span_type: 'generation' });
  });

  it('when neither is valid, then the type is task', () => {
    expect(span({ attributes: { 'ag.type.span': 'nope' } }).span_type).toBe('task');
  });
});

describe('normalizeSpan: derived metrics', () => {
  it('when end is after start, then duration.cumulative is milliseconds to 3 decimals (client value overwritten)', () => {
    const s = span({
      start_time: '2024-01-01T00:00:00.000001Z',
      end_time: '2024-01-01T00:00:01.234568Z',
      attributes: { 'ag.metrics.duration.cumulative': 99 },
    });
    expect(metrics(s).duration).toEqual({ cumulative: 1234.567 });
  });

  it('when end equals start, then a client duration stays', () => {
    expect(metrics(span({ start_time: 1_700_000_000, attributes: { 'ag.metrics.duration.cumulative': 5 } })).duration).toEqual({ cumulative: 5 });
  });

  it('when the span has events, then errors.incremental counts exception events', () => {
    const s = span({ events: [{ name: 'exception', timestamp: 1_700_000_000 }, { name: 'log' }, { name: 'exception' }] });
    expect(metrics(s).errors).toEqual({ incremental: 2 });
    expect(metrics(span({ events: [{ name: 'log' }] })).errors).toEqual({ incremental: 0 });
  });

  it('when the span has no events, then a client error count stays', () => {
    expect(metrics(span({ attributes: { 'ag.metrics.errors.incremental': 3 } })).errors).toEqual({ incremental: 3 });
  });

  it('when a chat span has tokens and a known model, then incremental costs are computed', () => {
    const s = span({
      span_type: 'chat',
      attributes: {
        'ag.meta.response.model': 'gpt-4o-2024-08-06',
        'ag.metrics.tokens.incremental.prompt': 1_000_000,
        'ag.metrics.tokens.incremental.completion': 100_000,
      },
    });
    expect(metrics(s).costs).toEqual({ incremental: { prompt: 2.5, completion: 1, total: 3.5 } });
  });

  it('when the client sent incremental costs, then they are kept even for a known model', () => {
    const s = span({
      span_type: 'chat',
      attributes: { 'ag.meta.request.model': 'gpt-4o', 'ag.metrics.tokens.incremental.prompt': 10, 'ag.metrics.costs.incremental.total': 0.5 },
    });
    expect(metrics(s).costs).toEqual({ incremental: { total: 0.5 } });
  });

  it('when the span is not a model call, then no costs are computed', () => {
    const s = span({ span_type: 'tool', attributes: { 'ag.meta.request.model': 'gpt-4o', 'ag.metrics.tokens.incremental.prompt': 10 } });
    expect(metrics(s).costs).toEqual({});
  });
});

describe('normalizeSpan: references and hashes', () => {
  it('when ag.references is set, then references lists one entry per key in order, and a hash is computed', () => {
    const s = span({ attributes: { 'ag.references.application.id': APP_ID, 'ag.references.testset_revision.version': 2 } });
    expect(s.references).toEqual([
      { id: APP_ID, attributes: { key: 'application' } },
      { version: '2', attributes: { key: 'testset_revision' } },
    ]);
    expect(s.hashes).toHaveLength(1);
    expect(s.hashes[0]?.attributes).toEqual({ key: 'indirect' });
    expect(s.hashes[0]?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('when ag.references is set, then it replaces top-level references', () => {
    const s = span({ references: [{ slug: 'x', attributes: { key: 'query' } }], attributes: { 'ag.references.query.slug': 'q' } });
    expect(s.references).toEqual([{ slug: 'q', attributes: { key: 'query' } }]);
  });

  it('when only top-level references are sent, then they are kept with attributes defaulting to {}', () => {
    expect(span({ references: [{ id: APP_ID.replaceAll('-', '') }] }).references).toEqual([{ id: APP_ID, attributes: {} }]);
  });

  it('when two spans point at the same things, then their hashes are equal whatever the key order', () => {
    const link = { trace_id: TRACE_A, span_id: sid(5), attributes: { key: 'invocation' } };
    const a = span({ span_id: sid(1), links: [link], attributes: { ag: { references: { evaluator: { slug: 'e1' }, application: { id: APP_ID } } } } });
    const b = span({ span_id: sid(2), links: [link], attributes: { ag: { references: { application: { id: APP_ID }, evaluator: { slug: 'e1' } } } } });
    expect(a.hashes).toEqual(b.hashes);
    const c = span({ span_id: sid(3), links: [link], attributes: { ag: { references: { evaluator: { slug: 'e2' } } } } });
    expect(c.hashes).not.toEqual(a.hashes);
  });

  it('when only testset variant/revision references or unkeyed links exist, then there is no hash', () => {
    const s = span({ links: [{ trace_id: TRACE_A, span_id: sid(5) }], attributes: { 'ag.references.testset_variant.slug': 'v' } });
    expect(s.hashes).toEqual([]);
  });
});

describe('normalizeSpan: trace type, session and user', () => {
  it('when the span has links (even empty), then its own trace_type is annotation', () => {
    expect(span({ links: [] }).trace_type).toBe('annotation');
  });

  it('when the span is a root with ag.session.id / ag.user.id, then session_id / user_id are set', () => {
    const s = span({ attributes: { 'ag.session.id': 'sess', 'ag.user.id': 'u1' } });
    expect([s.session_id, s.user_id]).toEqual(['sess', 'u1']);
  });

  it('when the span is a child, then ag ids are not promoted and sent values kept', () => {
    const s = span({ parent_id: sid(9), session_id: 'sent', attributes: { 'ag.session.id': 'sess', 'ag.user.id': 'u1' } });
    expect([s.session_id, s.user_id]).toEqual(['sent', undefined]);
  });
});

describe('normalizeSpan: realistic spans', () => {
  it('when normalising a realistic trace, then every span is accepted with its derived fields', () => {
    const results = realisticTrace(10).map((r) => normalizeSpan(r));
    expect(results.every((r) => r.ok)).toBe(true);
    const [root, chat, tool] = results.map((r) => (r.ok ? r.span : undefined));
    expect(root?.span_type).toBe('workflow');
    expect(root?.session_id).toBe('session-10');
    expect(chat?.span_type).toBe('chat');
    expect((metrics(chat!).costs as JsonObject).incremental).toBeDefined();
    expect(metrics(chat!).duration).toEqual({ cumulative: 1400 });
    expect((ag(tool!).data as JsonObject).inputs).toEqual({ query: 'Paris landmarks', limit: 5 });
    expect(ag(tool!).unsupported).toEqual({ unknown_section: { something: true } });
    expect(metrics(tool!).errors).toEqual({ incremental: 1 });
  });
});
