// The test delivery adapter when the payload is over the budget (adapters/webhook-test-delivery.ts):
// nothing is sent, the answer is a failed delivery with code "400" and "payload too large: …", and
// for a stored subscription that outcome is recorded (final) like any other test delivery.
import { describe, expect, it } from 'vitest';
import { decodeEvent, topicsFor } from '@llm/events';
import type { Producer } from '@llm/kafka';
import type { OutboundClient } from '@llm/outbound';
import type { Pool } from '@llm/postgres';
import { testDelivery, DRAFT_SUBSCRIPTION_ID, type TestDeliveryDeps } from '../src/webhooks/adapters/webhook-test-delivery.ts';

const topics = topicsFor({ prefix: 't.', spansPartitions: 1, accountsPartitions: 1, spansRetentionMs: 1, dlqRetentionMs: 1 });
const caller = {
  projectId: '0190a5b2-7c3e-7a10-8000-0000000000aa', organizationId: '0190a5b2-7c3e-7a10-8000-0000000000bb',
  userId: '0190a5b2-7c3e-7a10-8000-0000000000cc', requestId: '0190a5b2-7c3e-7a10-8000-0000000000dd',
};
// 2,000 copies of a 1 MB meta: hundreds of times the budget.
const subscription = {
  url: 'https://hooks.example/in', auth_mode: 'signature' as const, meta: { blob: 'm'.repeat(1_000_000) },
  payload_fields: Array.from({ length: 2000 }, () => '$.subscription.meta'),
};

function deps(): TestDeliveryDeps & { sent: Array<{ topic: string; value: Buffer }>; requests: number } {
  const sent: Array<{ topic: string; value: Buffer }> = [];
  const d = {
    sent,
    requests: 0,
    topics,
    timeoutMs: 1000,
    outbound: { request: async () => { d.requests++; throw new Error('nothing may be sent'); } } as unknown as OutboundClient,
    producer: { send: async (topic: string, records: Array<{ value: Buffer }>) => { for (const r of records) sent.push({ topic, value: r.value }); } } as unknown as Producer,
    pool: { query: async () => ({ rows: [{ applied: true }] }) } as unknown as Pool,
  };
  return d;
}

describe('testDelivery over the payload budget', () => {
  // (How long the refusal takes: test/bench/bounded-work.bench.ts.)
  it('when a draft resolves to more than 1 MiB, then the answer is a failed delivery with code 400, and nothing is sent or stored', async () => {
    const d = deps();
    const view = await testDelivery(d, caller, { subscription, secret: 'whsec' });
    expect(view.subscription_id).toBe(DRAFT_SUBSCRIPTION_ID);
    expect(view.status).toMatchObject({ code: '400', message: 'failed' });
    expect(view.data?.error).toMatch(/^payload too large: /);
    expect(view.data?.payload).toBeNull();
    expect(d.requests).toBe(0);
    expect(d.sent).toHaveLength(0);
  });

  it('when a stored subscription is tested, then the failed outcome is recorded as final', async () => {
    const d = deps();
    const storedId = '0190a5b2-7c3e-7a10-8000-0000000000ee';
    const view = await testDelivery(d, caller, { storedId, subscription, secret: 'whsec' });
    expect(view.status).toMatchObject({ code: '400', message: 'failed' });
    expect(d.requests).toBe(0);
    const record = d.sent.find((m) => m.topic === topics.deliveries)!;
    const decoded = decodeEvent(record.value);
    if (!decoded.ok || decoded.value.type !== 'webhooks.delivery.recorded') throw new Error('not a delivery record');
    const p = decoded.value.payload as { final: boolean; status_json: string; data_json: string };
    expect(p.final).toBe(true);
    expect(JSON.parse(p.status_json)).toMatchObject({ code: '400', message: 'failed' });
    expect(JSON.parse(p.data_json).error).toMatch(/^payload too large: /);
  });
});
