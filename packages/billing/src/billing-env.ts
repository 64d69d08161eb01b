// Billing configuration (reference accounts §11): the payments processor (Stripe, or stripe-mock via
// STRIPE_API_URL), the signing secret of its events, the catalog and pricing (JSON, validated strictly
// at startup against the plan catalog) and the usage-report interval.
import { z } from 'zod';
import {
  DEFAULT_CATALOG, FALLBACK_FREE_PLAN, lineItemsFor, resolveFreePlan, resolveTrial,
  type CatalogConfig, type CatalogEntry, type PlanPricing, type Pricing,
} from './catalog.ts';

export const DEFAULT_BILLING_TARGET = 'llm-backend';

export const billingEnv = z.object({
  /** Secret (or restricted) API key; unset = "Stripe not configured". */
  STRIPE_API_KEY: z.string().optional(),
  /** Signing secret of processor events (`whsec_…`); unset = processor events are refused. */
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Base URL of the API (e.g. stripe-mock on http://127.0.0.1:12111); unset = api.stripe.com. */
  STRIPE_API_URL: z.string().url().optional(),
  /** JSON array of catalog entries; replaces the default catalog. */
  BILLING_CATALOG: z.string().optional(),
  /** JSON object: plan -> {free?: true, trial?: days, <slot>: {price, quantity?}}. */
  BILLING_PRICING: z.string().optional(),
  /** This deployment's name in processor metadata (`target`); events for other targets are skipped. */
  BILLING_TARGET: z.string().min(1).max(500).default(DEFAULT_BILLING_TARGET),
  BILLING_USAGE_REPORT_INTERVAL_MS: z.coerce.number().int().min(60_000).max(86_400_000).default(3_600_000),
});

export type BillingEnv = z.input<typeof billingEnv>;

/** How to reach the processor's API. host/port/protocol are unset for the real API. */
export interface StripeSettings {
  apiKey: string;
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

export interface BillingConfig extends CatalogConfig {
  /** null = Stripe not configured. */
  stripe: StripeSettings | null;
  /** null = processor events are refused (the reference accepts unverified events; we do not). */
  webhookSecret: string | null;
  target: string;
  usageReportIntervalMs: number;
}

const CatalogEntrySchema = z.looseObject({
  title: z.string(),
  description: z.string(),
  type: z.enum(['standard', 'custom']),
  features: z.array(z.string()),
  plan: z.string().min(1).optional(),
  price: z.record(z.string(), z.unknown()).optional(),
  retention: z.number().int().nonnegative().optional(),
});

const PricingSlotSchema = z.strictObject({
  price: z.string().min(1, 'a processor price id (price_…)'),
  quantity: z.number().int().nonnegative().optional(),
});
const PricingSchema = z.record(z.string().min(1), z.record(z.string().min(1), z.unknown()));

type Problems = string[];

function parseJson(name: string, text: string, problems: Problems): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    problems.push(`${name}: not JSON (${(err as Error).message})`);
    return undefined;
  }
}

const issues = (prefix: string, e: z.ZodError): string[] =>
  e.issues.map((i) => `${[prefix, ...i.path.map(String)].join('.')}: ${i.message}`);

function parseCatalog(text: string, problems: Problems): CatalogEntry[] {
  const json = parseJson('BILLING_CATALOG', text, problems);
  if (json === undefined) return [];
  const r = z.array(CatalogEntrySchema).safeParse(json);
  if (!r.success) {
    problems.push(...issues('BILLING_CATALOG', r.error));
    return [];
  }
  r.data.forEach((e, i) => {
    if (e.type === 'custom' && e.plan === undefined) problems.push(`BILLING_CATALOG.${i}.plan: a custom entry needs the plan it is shown to`);
  });
  return r.data;
}

function parsePricing(text: string, problems: Problems): Pricing {
  const json = parseJson('BILLING_PRICING', text, problems);
  if (json === undefined) return {};
  const r = PricingSchema.safeParse(json);
  if (!r.success) {
    problems.push(...issues('BILLING_PRICING', r.error));
    return {};
  }
  const pricing: Pricing = {};
  for (const [plan, entry] of Object.entries(r.data)) {
    const at = `BILLING_PRICING.${plan}`;
    const p: PlanPricing = { free: false, slots: [] };
    if (Object.keys(entry).length === 0) problems.push(`${at}: empty; give free, trial or at least one slot {price, quantity?}`);
    for (const [key, value] of Object.entries(entry)) {
      if (key === 'free') {
        const f = z.boolean().safeParse(value);
        if (f.success) p.free = f.data; else problems.push(...issues(`${at}.free`, f.error));
      } else if (key === 'trial') {
        const t = z.number().int().positive('trial is a number of days (a positive integer)').safeParse(value);
        if (t.success) p.trial = t.data; else problems.push(...issues(`${at}.trial`, t.error));
      } else {
        const s = PricingSlotSchema.safeParse(value);
        if (s.success) p.slots.push({ name: key, ...s.data }); else problems.push(...issues(`${at}.${key}`, s.error));
      }
    }
    pricing[plan] = p;
  }
  const free = Object.keys(pricing).filter((k) => pricing[k]!.free);
  if (free.length > 1) problems.push(`BILLING_PRICING: at most one plan is free (${free.join(', ')})`);
  const trial = Object.keys(pricing).filter((k) => pricing[k]!.trial !== undefined);
  if (trial.length > 1) problems.push(`BILLING_PRICING: at most one plan has a trial (${trial.join(', ')})`);
  return pricing;
}

function parseApiUrl(text: string, problems: Problems): Pick<StripeSettings, 'host' | 'port' | 'protocol'> {
  const url = new URL(text);
  const protocol = url.protocol.replace(/:$/, '');
  if (protocol !== 'http' && protocol !== 'https') {
    problems.push(`STRIPE_API_URL: protocol must be http or https, not ${protocol}`);
    return {};
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
    problems.push('STRIPE_API_URL: only scheme, host and port (the client adds /v1/…)');
  }
  const port = url.port ? Number(url.port) : protocol === 'https' ? 443 : 80;
  // URL keeps IPv6 hosts in brackets; the HTTP client wants them bare.
  return { protocol, host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port };
}

/**
 * Validates the billing configuration against the deployment's plan slugs (the access catalog):
 * every plan named by BILLING_CATALOG or BILLING_PRICING must exist (default catalog entries of
 * plans the deployment lacks are left out), as must the trial plan, and with Stripe on the free
 * plan; with Stripe on, the trial plan needs line items (a trialing subscription is created at signup).
 */
export function loadBillingConfig(
  rawEnv: BillingEnv,
  planSlugs: readonly string[],
): { ok: true; config: BillingConfig } | { ok: false; problems: string[] } {
  const e = billingEnv.safeParse(rawEnv);
  if (!e.success) return { ok: false, problems: e.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`) };
  const env = e.data;
  const problems: Problems = [];
  const plans = new Set(planSlugs);
  const known = `(${planSlugs.join(', ')})`;

  const stripe: StripeSettings | null = env.STRIPE_API_KEY === undefined
    ? null
    : { apiKey: env.STRIPE_API_KEY, ...(env.STRIPE_API_URL === undefined ? {} : parseApiUrl(env.STRIPE_API_URL, problems)) };
  // The default catalog shows the default plans the deployment has (ACCESS_PLANS may replace them).
  const catalog = env.BILLING_CATALOG === undefined
    ? DEFAULT_CATALOG.filter((c) => c.plan === undefined || plans.has(c.plan)).map((c) => ({ ...c }))
    : parseCatalog(env.BILLING_CATALOG, problems);
  const pricing = env.BILLING_PRICING === undefined ? {} : parsePricing(env.BILLING_PRICING, problems);

  catalog.forEach((c, i) => {
    if (c.plan !== undefined && !plans.has(c.plan)) problems.push(`BILLING_CATALOG.${i}.plan: '${c.plan}' is not a plan of the catalog ${known}`);
  });
  for (const plan of Object.keys(pricing)) {
    if (!plans.has(plan)) problems.push(`BILLING_PRICING.${plan}: '${plan}' is not a plan of the catalog ${known}`);
  }
  const freePlan = resolveFreePlan(pricing);
  // Billing moves organizations to the free plan (cancel, a deleted subscription): with Stripe on it
  // must exist. Without Stripe nothing does, and a custom ACCESS_PLANS may well have none (its
  // organizations then fall back to no throttles: see @llm/throttle).
  if (stripe !== null && !plans.has(freePlan)) {
    problems.push(`BILLING_PRICING: no free plan: mark one plan "free": true (the fallback '${FALLBACK_FREE_PLAN}' is not a plan of the catalog ${known})`);
  }
  const trial = resolveTrial(pricing, stripe !== null);
  if (trial && !plans.has(trial.plan)) {
    problems.push(`BILLING_PRICING: the trial plan '${trial.plan}' is not a plan of the catalog ${known}; give one plan "trial": <days>`);
  } else if (trial && stripe && lineItemsFor(pricing, trial.plan).length === 0) {
    problems.push(`BILLING_PRICING.${trial.plan}: the trial plan needs line items ({"<slot>": {"price": "price_…"}}): signups start a trialing subscription on it`);
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    config: {
      stripe,
      stripeEnabled: stripe !== null,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? null,
      target: env.BILLING_TARGET,
      catalog,
      pricing,
      freePlan,
      trial,
      usageReportIntervalMs: env.BILLING_USAGE_REPORT_INTERVAL_MS,
    },
  };
}
