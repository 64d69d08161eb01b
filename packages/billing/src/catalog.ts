// The billing catalog and pricing (reference accounts §2.2, §11): the default catalog, the answers of
// GET /billing/catalog, /billing/plans and /billing/pricing, and which plan is free, which is the
// trial and which one a new organization starts on. Pure functions over the loaded configuration.

/** One entry of the catalog shown to users (BILLING_CATALOG, or DEFAULT_CATALOG). Extra keys pass through. */
export interface CatalogEntry {
  title: string;
  description: string;
  type: 'standard' | 'custom';
  features: string[];
  /** The plan slug; absent for entries that cannot be bought (Enterprise: "contact us"). */
  plan?: string;
  /** Display prices (`{base:{type:"flat",…}, traces:{type:"tiered",…}}`). */
  price?: Record<string, unknown>;
  /** Trace retention of the plan, in minutes. */
  retention?: number;
  [extra: string]: unknown;
}

/** One processor line item of a plan: a processor price id and, for licensed prices, a quantity. */
export interface PricingSlot {
  price: string;
  quantity?: number;
}

/** One plan's BILLING_PRICING entry: the free/trial markers and its named line-item slots, in order. */
export interface PlanPricing {
  free: boolean;
  /** Trial length in days, when this is the trial plan. */
  trial?: number;
  slots: Array<{ name: string } & PricingSlot>;
}

export type Pricing = Record<string, PlanPricing>;

export interface TrialPlan {
  plan: string;
  days: number;
}

/** What catalog.ts needs of the billing configuration (see loadBillingConfig). */
export interface CatalogConfig {
  catalog: readonly CatalogEntry[];
  pricing: Pricing;
  freePlan: string;
  trial: TrialPlan | null;
  stripeEnabled: boolean;
}

/** GET /billing/pricing entry: `{free?: true, trial?: days, <slot>: {price, quantity?}}`. */
export type PricingAnswerEntry = Record<string, PricingSlot | true | number>;

export const FALLBACK_FREE_PLAN = 'cloud_v0_hobby';
export const FALLBACK_TRIAL: TrialPlan = { plan: 'cloud_v0_pro', days: 14 };

const usd = (amount: number) => ({ type: 'flat', currency: 'USD', amount });
// First 10,000 traces of the month free, then $5 for every 10,000.
const TRACES_TIERED = { type: 'tiered', currency: 'USD', tiers: [{ limit: 10_000, amount: 0 }, { amount: 5, rate: 10_000 }] };
const DAY_MIN = 1440;

/** The reference's display catalog (§2.2); BILLING_CATALOG replaces it wholesale. Retention = the
 * plan's trace retention in the default access plans. */
export const DEFAULT_CATALOG: readonly CatalogEntry[] = [
  {
    title: 'Hobby',
    description: 'For side projects and trying things out.',
    type: 'standard',
    plan: 'cloud_v0_hobby',
    retention: 7 * DAY_MIN,
    price: { base: usd(0) },
    features: ['2 members', '5,000 traces per month', '20 evaluation runs per month', '7 days of trace retention'],
  },
  {
    title: 'Pro',
    description: 'For teams running applications in production.',
    type: 'standard',
    plan: 'cloud_v0_pro',
    retention: 31 * DAY_MIN,
    price: { base: usd(29), traces: TRACES_TIERED },
    features: ['Unlimited members', '10,000 traces per month included, then $5 per 10,000', 'Unlimited evaluation runs', '31 days of trace retention'],
  },
  {
    title: 'Business',
    description: 'For organizations that need access control, audit and single sign-on.',
    type: 'standard',
    plan: 'cloud_v0_business',
    retention: 92 * DAY_MIN,
    price: { base: usd(299), traces: TRACES_TIERED },
    features: ['Everything in Pro', 'Roles and access control', 'Audit events', 'Verified domains and SSO', '92 days of trace retention'],
  },
  {
    title: 'Enterprise',
    description: 'For custom terms, deployment and support.',
    type: 'standard',
    features: ['Everything in Business', 'Self-hosting', 'Custom retention and limits', 'Dedicated support'],
  },
  {
    title: 'Agenta',
    description: 'Custom plan.',
    type: 'custom',
    plan: 'cloud_v0_agenta_ai',
    features: ['Everything in Enterprise'],
  },
];

/** The free plan: the pricing entry marked `free: true`, else cloud_v0_hobby. */
export function resolveFreePlan(pricing: Pricing): string {
  return Object.entries(pricing).find(([, p]) => p.free)?.[0] ?? FALLBACK_FREE_PLAN;
}

/** The trial plan: the pricing entry with `trial: N`, else (Stripe on) cloud_v0_pro for 14 days, else none. */
export function resolveTrial(pricing: Pricing, stripeEnabled: boolean): TrialPlan | null {
  for (const [plan, p] of Object.entries(pricing)) if (p.trial !== undefined) return { plan, days: p.trial };
  return stripeEnabled ? { ...FALLBACK_TRIAL } : null;
}

/** The processor line items of a plan, in the order of its slots; none when it has no pricing entry. */
export function lineItemsFor(pricing: Pricing, plan: string): PricingSlot[] {
  const p = Object.hasOwn(pricing, plan) ? pricing[plan] : undefined;
  return (p?.slots ?? []).map(({ price, quantity }) => (quantity === undefined ? { price } : { price, quantity }));
}

/** A plan's pricing entry in its configured (flat) shape. */
function flatPricing(p: PlanPricing): PricingAnswerEntry {
  const out: PricingAnswerEntry = {};
  if (p.free) out.free = true;
  if (p.trial !== undefined) out.trial = p.trial;
  for (const { name, ...slot } of p.slots) out[name] = slot;
  return out;
}

/** GET /billing/catalog: each entry's `price` is replaced by its plan's pricing entry when one exists. */
export function catalogAnswer(config: Pick<CatalogConfig, 'catalog' | 'pricing'>): CatalogEntry[] {
  return config.catalog.map((entry) => {
    const plan = entry.plan;
    if (plan === undefined || !Object.hasOwn(config.pricing, plan)) return { ...entry };
    return { ...entry, price: flatPricing(config.pricing[plan]!) };
  });
}

/** GET /billing/plans: every standard entry, plus the custom entries of the organization's plan
 * (`orgPlan` null when the organization has no subscription record). */
export function plansAnswer(config: Pick<CatalogConfig, 'catalog'>, orgPlan: string | null): CatalogEntry[] {
  return config.catalog
    .filter((e) => e.type === 'standard' || (orgPlan !== null && e.plan === orgPlan))
    .map((e) => ({ ...e }));
}

/** GET /billing/pricing: the configured entries, `free: true` on the resolved free plan and
 * `trial: <days>` on the trial plan (when there is one), even when they have no entry of their own. */
export function pricingAnswer(config: Pick<CatalogConfig, 'pricing' | 'freePlan' | 'trial'>): Record<string, PricingAnswerEntry> {
  const out: Record<string, PricingAnswerEntry> = {};
  for (const [plan, p] of Object.entries(config.pricing)) out[plan] = flatPricing(p);
  out[config.freePlan] = { free: true, ...out[config.freePlan] };
  if (config.trial) out[config.trial.plan] = { ...out[config.trial.plan], trial: config.trial.days };
  return out;
}

/** The UTC day of the month (1–31) of a time (Date, or unix seconds). */
export function utcDayOfMonth(t: Date | number): number {
  return (typeof t === 'number' ? new Date(t * 1000) : t).getUTCDate();
}

export type SignupPlan =
  /** Stripe on with a trial: start a trialing processor subscription on `plan` (the caller creates it). */
  | { kind: 'trial'; plan: string; trialDays: number; anchor: number }
  /** Stripe on without a trial (the free plan), or no Stripe (the deployment's default plan). */
  | { kind: 'plan'; plan: string; anchor: number };

/**
 * The plan a new organization starts on (§11 "Signup"): Stripe on + trial -> the trial plan, anchored
 * on the day the trial ends; Stripe on without trial -> the free plan; no Stripe -> `defaultPlan`
 * (the access catalog's default plan). Anchors otherwise are the day of `now` (UTC).
 */
export function resolveSignupPlan(config: Pick<CatalogConfig, 'stripeEnabled' | 'trial' | 'freePlan'>, defaultPlan: string, now: Date): SignupPlan {
  if (!config.stripeEnabled) return { kind: 'plan', plan: defaultPlan, anchor: utcDayOfMonth(now) };
  if (config.trial) {
    const end = new Date(now.getTime() + config.trial.days * 86_400_000);
    return { kind: 'trial', plan: config.trial.plan, trialDays: config.trial.days, anchor: utcDayOfMonth(end) };
  }
  return { kind: 'plan', plan: config.freePlan, anchor: utcDayOfMonth(now) };
}
