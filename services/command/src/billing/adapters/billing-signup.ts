// The plan a new organization starts on (reference accounts §11 "Signup"): Stripe on with a trial ->
// the trial plan, with a trialing subscription at the processor (customer + subscription, recorded
// on the organization's subscription record); Stripe on without a trial -> the free plan; no Stripe
// -> the deployment's default plan. The account is provisioned first: a processor that fails leaves
// the organization on the trial plan without processor ids (logged), never without an account.
import type { AccessCatalog } from '@llm/access';
import { lineItemsFor, resolveSignupPlan, type BillingConfig, type PaymentsProcessor } from '@llm/billing';
import type { SignupPlans } from '../../accounts/adapters/signup-plans.ts';
import type { BillingSubscriptions } from './billing-subscriptions.ts';

export interface SignupBillingDeps {
  config: BillingConfig;
  processor: PaymentsProcessor | null;
  subscriptions: BillingSubscriptions;
  access: Pick<AccessCatalog, 'plans' | 'defaultPlan'>;
  now?: () => Date;
}

export function billingSignupPlans(deps: SignupBillingDeps): SignupPlans {
  const now = deps.now ?? (() => new Date());
  const { config, processor, subscriptions } = deps;
  return {
    signupPlan: () => resolveSignupPlan(config, deps.access.defaultPlan, now()).plan,
    isPlan: (slug) => Object.hasOwn(deps.access.plans, slug),
    async afterSignup(organization, { requestId, email, log }) {
      const signup = resolveSignupPlan(config, deps.access.defaultPlan, now());
      if (signup.kind !== 'trial' || !processor) return;
      const at = { organization_id: organization.id, plan: signup.plan };
      try {
        const customerId = await processor.createCustomer({ organizationId: organization.id, target: config.target, name: organization.name, email });
        const s = await processor.createSubscription({
          customerId, plan: signup.plan, lineItems: lineItemsFor(config.pricing, signup.plan), trialDays: signup.trialDays,
          metadata: { organization_id: organization.id, target: config.target },
        });
        const current = await subscriptions.read(organization.id);
        const outcome = await subscriptions.set(organization.id, {
          plan: signup.plan, active: true, anchor: signup.anchor, customerId, subscriptionId: s.id, trialing: true, reason: 'signup',
        }, { requestId, expectedVersion: current?.version ?? 0 });
        if (outcome.status === 'rejected') log.error({ ...at, code: outcome.code, message: outcome.message }, 'billing: the signup trial could not be recorded');
      } catch (err) {
        // The account stays on the trial plan without processor ids; the owner can still check out.
        log.error({ ...at, err }, 'billing: the signup trial could not be started at the payments processor');
      }
    },
  };
}
