import { describe, expect, it } from 'vitest';

import { normalizeBatch } from '../src/normalize-batch.ts';
import type { JsonObject } from '../src/span.ts';
import { deriveTraceTypes } from '../src/trace-type.ts';
import { FIXED_NOW, raw, sid, span, TRACE_A, TRACE_B } from './fixtures/builders.ts';

function agTypeTrace(s: { attributes: JsonObject }): unknown {
  return ((s.attributes.ag as JsonObject).type as JsonObject).trace;
}

describe('deriveTraceTypes', () => {
  it('when any span of a trace has links, then every span of that trace is an annotation; other traces invocations', () => {
    const out = deriveTraceTypes([
      span({ span_id: sid(1) }),
      span({ span_id: sid(2), parent_id: sid(1), links: [] }),
      span({ trace_id: TRACE_B, span_id: sid(3) }),
    ]);
    expect(out.map((s) => s.trace_type)).toEqual(['annotation', 'annotation', 'invocation']);
    expect(out.map(agTypeTrace)).toEqual(['annotation', 'annotation', 'invocation']);
  });

  it('when a client sent ag.type.trace explicitly, then it wins over the links heuristic for the whole trace', () => {
    const out = deriveTraceTypes([
      span({ span_id: sid(1), links: [] }),
      span({ span_id: sid(2), attributes: { 'ag.type.trace': 'invocation' } }),
    ]);
    expect(out.map((s) => s.trace_type)).toEqual(['invocation', 'invocation']);
  });

  it('when run twice, then the result is the same (idempotent) and unchanged spans are the same objects', () => {
    const once = deriveTraceTypes([span({ links: [] })]);
    const twice = deriveTraceTypes(once);
    expect(twice).toEqual(once);
    expect(twice[0]).toBe(once[0]);
  });

  it('when deriving, then the input spans are not mutated', () => {
    const input = span({ links: [] });
    const snapshot = structuredClone(input);
    deriveTraceTypes([input]);
    expect(input).toEqual(snapshot);
  });
});

describe('normalizeBatch', () => {
  it('when some spans are malformed, then they are rejected by index and the rest accepted with trace types', () => {
    const batch = normalizeBatch(
      [raw({ span_id: sid(1) }), raw({ span_id: 'bad' }), raw({ span_id: sid(2), links: [{ trace_id: TRACE_A, span_id: sid(1) }] })],
      { now: () => FIXED_NOW },
    );
    expect(batch.spans.map((s) => [s.span_id, s.trace_type])).toEqual([
      [sid(1), 'annotation'],
      [sid(2), 'annotation'],
    ]);
    expect(batch.rejected).toHaveLength(1);
    expect(batch.rejected[0]?.index).toBe(1);
  });
});
