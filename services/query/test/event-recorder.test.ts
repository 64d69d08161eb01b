// The read-event recorder never waits for Kafka and never loses an event silently: what it cannot
// send (Kafka refusing, a full queue, after close) is counted in /metrics.
import { describe, expect, it } from 'vitest';
import { decodeEvent, topicsFor } from '@llm/events';
import type { OutgoingRecord, Producer } from '@llm/kafka';
import { createLogger } from '@llm/logging';
import { renderMetrics } from '@llm/metrics';
import { createEventRecorder, readEvents } from '../src/adapters/event-recorder.ts';

const topics = topicsFor({ prefix: 'unit.', spansPartitions: 1, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 });
const log = createLogger({ name: 'unit', level: 'silent' });
const metric = async (name: string): Promise<number> => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(await renderMetrics())?.[1] ?? 'NaN');
const req = { id: 'not-a-uuid', scope: { projectId: '0195f0a0-0000-7000-8000-000000000001', organizationId: '0195f0a0-0000-7000-8000-000000000002', userId: '0195f0a0-0000-7000-8000-000000000003' } };

function producer(behaviour: 'ok' | 'fail' | 'hang'): Producer & { sent: OutgoingRecord[]; release(): void } {
  let release = (): void => undefined;
  const sent: OutgoingRecord[] = [];
  return {
    sent,
    release: () => release(),
    async send(_topic, records) {
      if (behaviour === 'fail') throw new Error('broker gone');
      if (behaviour === 'hang') await new Promise<void>((r) => { release = r; });
      sent.push(...records);
    },
    async close() {},
  };
}

describe('read-event recorder', () => {
  it('when a read is recorded, then the call returns before Kafka and the record carries the event', async () => {
    const p = producer('hang');
    const r = createEventRecorder({ producer: p, topics, log });
    const before = await metric('query_read_events_recorded_total');
    readEvents(r).queried(req, 2, ['a'.repeat(32), 'a'.repeat(32), 'b'.repeat(32)]);
    readEvents(r).queried(req, 0, []);
    expect(p.sent).toHaveLength(0);
    await new Promise((res) => setTimeout(res, 20));
    p.release();
    await r.close();
    expect(p.sent).toHaveLength(1);
    expect(p.sent[0]!.key).toBe(req.scope.projectId);
    const d = decodeEvent(p.sent[0]!.value);
    if (!d.ok || d.value.type !== 'platform.event.recorded') throw new Error('not a platform event');
    expect(d.value.projectId).toBe(req.scope.projectId);
    const payload = d.value.payload as { event_type: string; request_type: string; attributes_json: string };
    expect(payload.event_type).toBe('traces.queried');
    expect(payload.request_type).toBe('unknown');
    expect(JSON.parse(payload.attributes_json)).toEqual({ user_id: req.scope.userId, count: 2, trace_ids: ['a'.repeat(32), 'b'.repeat(32)] });
    expect(await metric('query_read_events_recorded_total')).toBe(before + 1);
  });

  it('when Kafka refuses the send, then every event of it is counted as lost', async () => {
    const r = createEventRecorder({ producer: producer('fail'), topics, log });
    const before = await metric('query_read_events_lost_total');
    for (let i = 0; i < 3; i++) readEvents(r).fetched(req, ['c'.repeat(32)], true);
    await r.close();
    expect(await metric('query_read_events_lost_total')).toBe(before + 3);
  });

  it('when the queue is full, then further events are counted as lost and the rest are sent', async () => {
    const p = producer('hang');
    const r = createEventRecorder({ producer: p, topics, log, maxPending: 5, maxBatch: 2 });
    const before = await metric('query_read_events_lost_total');
    for (let i = 0; i < 8; i++) readEvents(r).fetched(req, ['d'.repeat(32)], true);
    expect(await metric('query_read_events_lost_total')).toBe(before + 3);
    const closing = r.close();
    // Sends go one batch at a time: release each hanging send.
    for (let i = 0; i < 5; i++) { await new Promise((res) => setTimeout(res, 5)); p.release(); }
    await closing;
    expect(p.sent).toHaveLength(5);
    readEvents(r).fetched(req, ['e'.repeat(32)], true);
    expect(await metric('query_read_events_lost_total')).toBe(before + 4);
  });
});
