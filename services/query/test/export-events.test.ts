// The read events of an export: `traces.queried` marked `export`, one per READ_EVENT_MAX_IDS distinct
// traces sent and one for the rest, each counting the records it covers.
import { describe, expect, it } from 'vitest';
import { READ_EVENT_MAX_IDS, readEvents, type ReadEvent } from '../src/adapters/event-recorder.ts';
import { exportEvents } from '../src/http/export-routes.ts';

const req = { id: '0190a0b0-0000-7000-8000-000000000001', scope: { projectId: 'p', organizationId: 'o', userId: 'u' } };
const trace = (n: number): string => n.toString(16).padStart(32, '0');

/** Each page: the trace of each record sent. */
function recorded(pages: number[][]): ReadEvent[] {
  const out: ReadEvent[] = [];
  const e = exportEvents(readEvents({ record: (ev) => { out.push(ev); }, close: async () => undefined }), req, { format: 'csv', focus: 'span' });
  for (const p of pages) e.add(p.map(trace));
  e.end();
  return out;
}

describe('export read events', () => {
  it('when an export sends fewer traces than the cap, then one event carries them all and the count of records', () => {
    const evs = recorded([[1, 2, 2, 3, 1], [3, 4]]);
    expect(evs).toHaveLength(1);
    expect(evs[0]).toMatchObject({ projectId: 'p', organizationId: 'o', userId: 'u', requestId: req.id, eventType: 'traces.queried' });
    expect(evs[0]!.attributes).toEqual({ count: 7, trace_ids: [1, 2, 3, 4].map(trace), export: { format: 'csv', focus: 'span' } });
  });

  it('when an export sends more distinct traces than the cap, then each event holds at most the cap and counts its own records', () => {
    const n = READ_EVENT_MAX_IDS * 2 + 10;
    // Two records a trace, side by side (a span export's pages follow time, and a trace's spans are close), in pages of 700.
    const sent = Array.from({ length: n }, (_, i) => [i, i]).flat();
    const pages = Array.from({ length: Math.ceil(sent.length / 700) }, (_, k) => sent.slice(k * 700, k * 700 + 700));
    const evs = recorded(pages);
    expect(evs.map((e) => (e.attributes.trace_ids as string[]).length)).toEqual([READ_EVENT_MAX_IDS, READ_EVENT_MAX_IDS, 10]);
    expect(evs.map((e) => e.attributes.count)).toEqual([2 * READ_EVENT_MAX_IDS, 2 * READ_EVENT_MAX_IDS, 20]);
    expect(new Set(evs.flatMap((e) => e.attributes.trace_ids as string[])).size).toBe(n);
  });

  it('when an export sends nothing, then nothing is recorded', () => {
    expect(recorded([[]])).toEqual([]);
  });
});
