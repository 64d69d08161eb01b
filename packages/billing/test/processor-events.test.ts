// Processor events (reference accounts §11 steps 2, 4 and 5): every rejection of the body and every
// branch of the interpretation, with the exact answers the route sends.
import { describe, expect, it } from 'vitest';
import { ProcessorEventRejected, interpretProcessorEvent, parseProcessorEvent, type ProcessorEvent } from '../src/index.ts';

const ORG = '0190a0b2-5c6d-7e8f-9a0b-1c2d3e4f5a6b';
const ctx = {
  target: 'llm-backend',
  planSlugs: ['cloud_v0_hobby', 'cloud_v0_pro', 'cloud_v0_business'],
  freePlan: 'cloud_v0_hobby',
  now: new Date('2026-11-17T12:00:00Z'),
};
const META = { organization_id: ORG, target: 'llm-backend', plan: 'cloud_v0_pro' };
// 2026-11-03T10:00:00Z
const ANCHOR = Date.UTC(2026, 10, 3, 10) / 1000;

function event(type: string, object: Record<string, unknown>, id = 'evt_1'): ProcessorEvent {
  return { id, object: 'event', type, data: { object } };
}
const created = (metadata: unknown, extra: Record<string, unknown> = {}) =>
  event('customer.subscription.created', { id: 'sub_1', object: 'subscription', customer: 'cus_1', billing_cycle_anchor: ANCHOR, metadata, ...extra });
const invoice = (type: string, fields: Record<string, unknown>) => event(type, { id: 'in_1', object: 'invoice', customer: 'cus_1', ...fields });
const error = (message: string) => ({ kind: 'error', status: 400, body: { status: 'error', message } });

describe('processor event body', () => {
  it('given a JSON event, then it is parsed with unknown fields kept', () => {
    const e = parseProcessorEvent(Buffer.from(JSON.stringify({ id: 'evt_9', type: 'invoice.paid', livemode: false, data: { object: { id: 'in_1' } } })));
    expect(e).toEqual({ id: 'evt_9', type: 'invoice.paid', livemode: false, data: { object: { id: 'in_1' } } });
  });

  it('when the body is not JSON, then 400 "Payload extraction failed"; when it is not an event, then 400 {"detail":"Invalid payload"}', () => {
    const rejected = (body: string) => {
      try {
        parseProcessorEvent(body);
      } catch (err) {
        expect(err).toBeInstanceOf(ProcessorEventRejected);
        return { reason: (err as ProcessorEventRejected).reason, status: (err as ProcessorEventRejected).status, body: (err as ProcessorEventRejected).body };
      }
      throw new Error('not rejected');
    };
    expect(rejected('not json')).toEqual({ reason: 'not_json', status: 400, body: { status: 'error', message: 'Payload extraction failed' } });
    expect(rejected('')).toMatchObject({ reason: 'not_json' });
    expect(rejected('[1]')).toEqual({ reason: 'invalid_payload', status: 400, body: { detail: 'Invalid payload' } });
    expect(rejected(JSON.stringify({ id: 'evt_1', type: 'x', data: {} }))).toMatchObject({ reason: 'invalid_payload' });
    expect(rejected(JSON.stringify({ type: 'x', data: { object: {} } }))).toMatchObject({ reason: 'invalid_payload' });
  });

  it('the other rejections answer 401 "Signature verification failed" and 503 when no secret is configured', () => {
    expect(new ProcessorEventRejected('signature')).toMatchObject({ status: 401, body: { status: 'error', message: 'Signature verification failed' } });
    expect(new ProcessorEventRejected('not_configured')).toMatchObject({ status: 503, body: { status: 'error', message: 'Processor events not configured' } });
  });
});

describe('processor event interpretation', () => {
  it('customer.subscription.created: the plan of the metadata, the subscription, the UTC anchor day, active, keyed by the event id', () => {
    expect(interpretProcessorEvent(created(META), ctx)).toEqual({
      kind: 'apply',
      action: {
        type: 'subscription_created',
        processorEventId: 'evt_1',
        processorEventType: 'customer.subscription.created',
        organizationId: ORG,
        customerId: 'cus_1',
        processorSubscriptionId: 'sub_1',
        plan: 'cloud_v0_pro',
        subscriptionId: 'sub_1',
        anchor: 3,
        active: true,
      },
    });
    // An expanded customer gives its id.
    const r = interpretProcessorEvent(created(META, { customer: { id: 'cus_2', object: 'customer' } }), ctx);
    expect(r.kind === 'apply' && r.action.customerId).toBe('cus_2');
  });

  it('customer.subscription.created without plan, with an empty or unknown plan, without anchor or id: 400', () => {
    const { plan: _plan, ...noPlan } = META;
    expect(interpretProcessorEvent(created(noPlan), ctx)).toEqual(error('Plan not found'));
    expect(interpretProcessorEvent(created({ ...META, plan: '' }), ctx)).toEqual(error('Plan not found'));
    expect(interpretProcessorEvent(created({ ...META, plan: 'cloud_v0_gold' }), ctx)).toEqual(error("Unknown plan 'cloud_v0_gold'"));
    expect(interpretProcessorEvent(created(META, { billing_cycle_anchor: undefined }), ctx)).toEqual(error('Anchor not found'));
    expect(interpretProcessorEvent(created(META, { billing_cycle_anchor: 'soon' }), ctx)).toEqual(error('Anchor not found'));
    expect(interpretProcessorEvent(created(META, { id: undefined }), ctx)).toEqual(error('Subscription ID not found'));
  });

  it('metadata is data.object.metadata: missing -> "Metadata not found", no target (or null metadata) -> "Target not found"', () => {
    expect(interpretProcessorEvent(event('customer.subscription.created', { id: 'sub_1' }), ctx)).toEqual(error('Metadata not found'));
    expect(interpretProcessorEvent(created({ organization_id: ORG }), ctx)).toEqual(error('Target not found'));
    expect(interpretProcessorEvent(created(null), ctx)).toEqual(error('Target not found'));
    expect(interpretProcessorEvent(created({}), ctx)).toEqual(error('Target not found'));
  });

  it('another deployment\'s target is skipped with 200, before the organization is looked at', () => {
    const skip = { kind: 'skip', status: 200, body: { status: 'skip', message: 'Target mismatch' } };
    expect(interpretProcessorEvent(created({ ...META, target: 'eu-prod' }), ctx)).toEqual(skip);
    expect(interpretProcessorEvent(created({ target: 'eu-prod' }), ctx)).toEqual(skip);
    expect(interpretProcessorEvent(created({ ...META, target: '' }), ctx)).toEqual(skip);
  });

  it('no (or an empty) organization_id -> "Organization ID not found"', () => {
    expect(interpretProcessorEvent(created({ target: 'llm-backend', plan: 'cloud_v0_pro' }), ctx)).toEqual(error('Organization ID not found'));
    expect(interpretProcessorEvent(created({ ...META, organization_id: '' }), ctx)).toEqual(error('Organization ID not found'));
  });

  it('invoice.payment_failed pauses and invoice.payment_succeeded resumes, with metadata from subscription_details', () => {
    const legacy = { subscription: 'sub_1', subscription_details: { metadata: META } };
    expect(interpretProcessorEvent(invoice('invoice.payment_failed', legacy), ctx)).toEqual({
      kind: 'apply',
      action: {
        type: 'subscription_paused', processorEventId: 'evt_1', processorEventType: 'invoice.payment_failed',
        organizationId: ORG, customerId: 'cus_1', processorSubscriptionId: 'sub_1', active: false,
      },
    });
    // Current API versions keep it under parent.subscription_details.
    const current = { parent: { type: 'subscription_details', subscription_details: { metadata: META, subscription: 'sub_2' } } };
    expect(interpretProcessorEvent(invoice('invoice.payment_succeeded', current), ctx)).toEqual({
      kind: 'apply',
      action: {
        type: 'subscription_resumed', processorEventId: 'evt_1', processorEventType: 'invoice.payment_succeeded',
        organizationId: ORG, customerId: 'cus_1', processorSubscriptionId: 'sub_2', active: true,
      },
    });
  });

  it('invoice events read only subscription_details metadata: the invoice\'s own metadata does not count', () => {
    expect(interpretProcessorEvent(invoice('invoice.payment_failed', { metadata: META }), ctx)).toEqual(error('Metadata not found'));
    expect(interpretProcessorEvent(invoice('invoice.payment_failed', { subscription_details: null, parent: null }), ctx)).toEqual(error('Metadata not found'));
    expect(interpretProcessorEvent(invoice('invoice.payment_failed', { subscription_details: { metadata: null } }), ctx)).toEqual(error('Target not found'));
  });

  it('customer.subscription.deleted: back to the free plan without subscription, anchored today, auth flags reset', () => {
    const deleted = event('customer.subscription.deleted', { id: 'sub_1', customer: 'cus_1', metadata: META }, 'evt_7');
    expect(interpretProcessorEvent(deleted, ctx)).toEqual({
      kind: 'apply',
      action: {
        type: 'subscription_cancelled', processorEventId: 'evt_7', processorEventType: 'customer.subscription.deleted',
        organizationId: ORG, customerId: 'cus_1', processorSubscriptionId: 'sub_1',
        plan: 'cloud_v0_hobby', subscriptionId: null, anchor: 17, active: true, resetAuthFlags: true,
      },
    });
  });

  it('any other event type with our metadata -> "Unsupported event"', () => {
    expect(interpretProcessorEvent(event('customer.subscription.updated', { id: 'sub_1', metadata: META }), ctx)).toEqual(error('Unsupported event'));
    expect(interpretProcessorEvent(invoice('invoice.paid', { subscription_details: { metadata: META } }), ctx)).toEqual(error('Unsupported event'));
  });
});
