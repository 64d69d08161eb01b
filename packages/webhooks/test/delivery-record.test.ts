// A delivery record always fits its topic: data_json is kept within RECORD_DATA_MAX_BYTES, the
// payload left out first (with its size), then the texts cut; the record as produced is checked.
import { describe, expect, it } from 'vitest';
import { decodeEvent, topicsFor } from '@llm/events';
import type { Producer } from '@llm/kafka';
import { appendDeliveryRecord, RECORD_DATA_MAX_BYTES, recordDataJson, type DeliveryRecord } from '../src/delivery-record.ts';

const base: NonNullable<DeliveryRecord['data']> = {
  event_type: 'traces.queried', url: 'https://hooks.example/in', headers: { 'X-Team': 'blue' },
  payload: { small: true }, response: { status_code: 500, body: 'oops' }, error: 'failed', attempts: 2,
};

describe('recordDataJson', () => {
  it('when the data is small, then it is recorded as it is', () => {
    expect(recordDataJson(base)).toBe(JSON.stringify(base));
  });

  it('when the payload makes it too large, then the payload is left out and its size recorded', () => {
    const payload = { blob: 'é'.repeat(600_000) };
    const json = recordDataJson({ ...base, payload });
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(RECORD_DATA_MAX_BYTES);
    const data = JSON.parse(json);
    expect(data).not.toHaveProperty('payload');
    expect(data).toMatchObject({ payload_truncated: true, payload_bytes: Buffer.byteLength(JSON.stringify(payload)), headers: base.headers, response: base.response, error: 'failed', attempts: 2 });
  });

  it('when even the rest is too large, then the texts are cut, the headers left out, and the outcome kept', () => {
    const huge = 'x'.repeat(400_000);
    const data = JSON.parse(recordDataJson({ ...base, headers: { a: huge }, response: { status_code: 502, body: huge }, error: huge }));
    expect(data).toEqual({
      event_type: base.event_type, url: base.url, response: { status_code: 502, body: 'x'.repeat(2000) }, error: 'x'.repeat(2000), attempts: 2,
      payload_truncated: true, payload_bytes: 14, truncated: true,
    });
  });
});

describe('appendDeliveryRecord', () => {
  it('when the payload is megabytes, then the message produced stays small', async () => {
    const sent: Buffer[] = [];
    const producer = { send: async (_topic: string, messages: Array<{ value: Buffer }>) => { sent.push(...messages.map((m) => m.value)); } } as unknown as Producer;
    const ids = { deliveryId: '0190a5b2-7c3e-7a10-8000-000000000001', projectId: '0190a5b2-7c3e-7a10-8000-000000000002', subscriptionId: '0190a5b2-7c3e-7a10-8000-000000000003', eventId: '0190a5b2-7c3e-7a10-8000-000000000004' };
    await appendDeliveryRecord(producer, topicsFor({ prefix: 't.', spansPartitions: 1, accountsPartitions: 1, spansRetentionMs: 1, dlqRetentionMs: 1 }), {
      ...ids, status: { timestamp: '2024-07-01T10:00:00.000Z', code: '200', message: 'success' },
      data: { ...base, payload: { blob: 'p'.repeat(5_000_000) } }, attempts: 1, final: true,
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.length).toBeLessThan(RECORD_DATA_MAX_BYTES + 4096);
    const decoded = decodeEvent(sent[0]!);
    if (!decoded.ok || decoded.value.type !== 'webhooks.delivery.recorded') throw new Error('not a delivery record');
    const p = decoded.value.payload as { data_json: string; status_json: string };
    expect(JSON.parse(p.data_json)).toMatchObject({ payload_truncated: true, payload_bytes: 5_000_011 });
    expect(JSON.parse(p.status_json)).toMatchObject({ code: '200' });
  });
});
