// Processor events (reference accounts §11, POST /billing/payments/events/): the rejections of a body
// that cannot be accepted, and the pure interpretation of a verified event (steps 4-5): whose it is,
// and which change of the organization's subscription record it asks for. The caller applies the
// change as an account event keyed by the processor event id, so a redelivered event changes nothing.
import { z } from 'zod';
import { utcDayOfMonth } from './catalog.ts';

/** A processor event as far as we read it; everything else passes through untouched. */
export const ProcessorEventSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().min(1),
  data: z.looseObject({ object: z.record(z.string(), z.unknown()) }),
});
export type ProcessorEvent = z.infer<typeof ProcessorEventSchema>;

/** The two body shapes of §11: `{"status":"error","message":…}` and `{"detail":…}`. */
export type ErrorBody = { status: 'error'; message: string } | { detail: string };

export type RejectionReason = 'not_configured' | 'not_json' | 'invalid_payload' | 'signature';

const REJECTIONS: Record<RejectionReason, { status: number; body: ErrorBody }> = {
  // We refuse events we cannot verify (the reference accepts them unverified when no secret is set).
  not_configured: { status: 503, body: { status: 'error', message: 'Processor events not configured' } },
  not_json: { status: 400, body: { status: 'error', message: 'Payload extraction failed' } },
  invalid_payload: { status: 400, body: { detail: 'Invalid payload' } },
  signature: { status: 401, body: { status: 'error', message: 'Signature verification failed' } },
};

/** A processor event body refused before interpretation; `status`/`body` are the HTTP answer. */
export class ProcessorEventRejected extends Error {
  readonly reason: RejectionReason;
  readonly status: number;
  readonly body: ErrorBody;

  constructor(reason: RejectionReason, detail?: string) {
    super(detail ? `processor event rejected (${reason}): ${detail}` : `processor event rejected (${reason})`);
    this.name = 'ProcessorEventRejected';
    this.reason = reason;
    this.status = REJECTIONS[reason].status;
    this.body = REJECTIONS[reason].body;
  }
}

/** Steps 2 of §11 in order: JSON, then the event shape. Throws ProcessorEventRejected. */
export function parseProcessorEvent(rawBody: Buffer | string): ProcessorEvent {
  let json: unknown;
  try {
    json = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'));
  } catch (err) {
    throw new ProcessorEventRejected('not_json', (err as Error).message);
  }
  const r = ProcessorEventSchema.safeParse(json);
  if (!r.success) throw new ProcessorEventRejected('invalid_payload', r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return r.data;
}

interface ActionBase {
  /** The processor event id (`evt_…`): the idempotency key of the change. */
  processorEventId: string;
  processorEventType: string;
  organizationId: string;
  /** The processor customer the event names, when it does. */
  customerId: string | null;
  /** The processor subscription the event is about, when it names one. */
  processorSubscriptionId: string | null;
}

/** A change of the organization's subscription record, for the caller to apply. */
export type ProcessorAction =
  /** customer.subscription.created: the organization is on `plan` with this processor subscription. */
  | (ActionBase & { type: 'subscription_created'; plan: string; subscriptionId: string; anchor: number; active: true })
  /** invoice.payment_failed: the subscription is inactive (the reference answers 500 when the organization is on the free plan). */
  | (ActionBase & { type: 'subscription_paused'; active: false })
  /** invoice.payment_succeeded: active again (same free-plan rule). */
  | (ActionBase & { type: 'subscription_resumed'; active: true })
  /** customer.subscription.deleted: back to the free plan without a processor subscription; `anchor`
   * is today (keep the current one when the organization is already on the free plan); auth flags reset. */
  | (ActionBase & { type: 'subscription_cancelled'; plan: string; subscriptionId: null; anchor: number; active: true; resetAuthFlags: true });

export type ProcessorEventOutcome =
  | { kind: 'apply'; action: ProcessorAction }
  | { kind: 'skip'; status: 200; body: { status: 'skip'; message: 'Target mismatch' } }
  | { kind: 'error'; status: 400; body: ErrorBody };

export interface ProcessorEventContext {
  /** This deployment's BILLING_TARGET. */
  target: string;
  /** The plans of the deployment (the access catalog); a subscription for another plan is refused. */
  planSlugs: readonly string[];
  freePlan: string;
  /** When the event is handled (the cancel anchor). */
  now: Date;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v !== '';
/** An id field that may be expanded into an object. */
const idOf = (v: unknown): string | null => (nonEmptyString(v) ? v : isObject(v) && nonEmptyString(v.id) ? v.id : null);

const fail = (message: string): ProcessorEventOutcome => ({ kind: 'error', status: 400, body: { status: 'error', message } });

/**
 * Where the event keeps our metadata: `data.object.metadata`, or for `invoice.*`
 * `data.object.subscription_details.metadata` (API versions before 2025-03-31) or
 * `data.object.parent.subscription_details.metadata` (later versions). `undefined` = no such key,
 * which is "Metadata not found"; a null or non-object value is found but holds no `target`.
 */
function metadataOf(event: ProcessorEvent): { found: false } | { found: true; metadata: unknown } {
  const object = event.data.object;
  if (!event.type.startsWith('invoice')) return Object.hasOwn(object, 'metadata') ? { found: true, metadata: object.metadata } : { found: false };
  for (const details of [object.subscription_details, isObject(object.parent) ? object.parent.subscription_details : undefined]) {
    if (isObject(details) && Object.hasOwn(details, 'metadata')) return { found: true, metadata: details.metadata };
  }
  return { found: false };
}

function subscriptionIdOf(event: ProcessorEvent): string | null {
  const object = event.data.object;
  if (event.type.startsWith('customer.subscription.')) return idOf(object.id);
  const parentDetails = isObject(object.parent) && isObject(object.parent.subscription_details) ? object.parent.subscription_details : undefined;
  return idOf(object.subscription) ?? idOf(parentDetails?.subscription);
}

/** Steps 4-5 of §11 on a verified event. */
export function interpretProcessorEvent(event: ProcessorEvent, ctx: ProcessorEventContext): ProcessorEventOutcome {
  const m = metadataOf(event);
  if (!m.found) return fail('Metadata not found');
  const metadata = isObject(m.metadata) ? m.metadata : {};
  if (!Object.hasOwn(metadata, 'target')) return fail('Target not found');
  if (metadata.target !== ctx.target) return { kind: 'skip', status: 200, body: { status: 'skip', message: 'Target mismatch' } };
  const organizationId = metadata.organization_id;
  if (!nonEmptyString(organizationId)) return fail('Organization ID not found');

  const object = event.data.object;
  const base: ActionBase = {
    processorEventId: event.id,
    processorEventType: event.type,
    organizationId,
    customerId: idOf(object.customer),
    processorSubscriptionId: subscriptionIdOf(event),
  };
  switch (event.type) {
    case 'customer.subscription.created': {
      const subscriptionId = idOf(object.id);
      if (subscriptionId === null) return fail('Subscription ID not found');
      const plan = metadata.plan;
      if (!nonEmptyString(plan)) return fail('Plan not found');
      if (!ctx.planSlugs.includes(plan)) return fail(`Unknown plan '${plan}'`);
      const anchorAt = object.billing_cycle_anchor;
      if (typeof anchorAt !== 'number' || !Number.isFinite(anchorAt)) return fail('Anchor not found');
      return { kind: 'apply', action: { ...base, type: 'subscription_created', plan, subscriptionId, anchor: utcDayOfMonth(anchorAt), active: true } };
    }
    case 'invoice.payment_failed':
      return { kind: 'apply', action: { ...base, type: 'subscription_paused', active: false } };
    case 'invoice.payment_succeeded':
      return { kind: 'apply', action: { ...base, type: 'subscription_resumed', active: true } };
    case 'customer.subscription.deleted':
      return {
        kind: 'apply',
        action: { ...base, type: 'subscription_cancelled', plan: ctx.freePlan, subscriptionId: null, anchor: utcDayOfMonth(ctx.now), active: true, resetAuthFlags: true },
      };
    default:
      return fail('Unsupported event');
  }
}
