// The query strings the billing writes validate (reference accounts §11): a checkout names the plan
// and where the processor sends the browser back; a switch names the plan.
import { z } from 'zod';
import { text, texts } from './text.ts';

const plan = text({ min: 1, max: 200 });

/** POST /billing/payments/checkouts?plan=…&success_url=… */
export const billingCheckoutQuery = z.object({ plan, success_url: texts.url.pipe(z.url()) });
/** POST /billing/plans/switch?plan=… */
export const billingSwitchQuery = z.object({ plan });

/**
 * POST /billing/payments/events: the processor's signed event (Stripe's shape), read raw because the
 * `Stripe-Signature` header covers its exact bytes; only these fields are relied on.
 */
export const paymentsProcessorEvent = z.looseObject({
  id: z.string(),
  type: z.string(),
  data: z.looseObject({ object: z.looseObject({}) }),
});
