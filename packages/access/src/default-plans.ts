// The reference's plans (§2.2) as the default catalog; ACCESS_PLANS replaces it wholesale.
import type { Plan, PlanCatalog, Quota, Throttle } from './plan-schema.ts';

const DAY_MIN = 1440;
const monthly = (q: Quota = {}): Quota => ({ period: 'monthly', ...q });

function counters(retentionDays?: number, traces?: Quota): NonNullable<Plan['counters']> {
  const retention = retentionDays === undefined ? {} : { retention: retentionDays * DAY_MIN };
  return {
    evaluations_run: monthly({ strict: true }),
    traces_ingested: monthly({ ...traces, ...retention }),
    traces_retrieved: { strict: true, period: 'daily', scope: 'user' },
    credits_consumed: monthly({ free: 100, limit: 100, strict: true }),
    events_ingested: monthly(retention),
    records_ingested: monthly(retention),
  };
}

const throttle = (categories: Throttle['categories'], capacity: number, rate: number): Throttle =>
  ({ bucket: { capacity, rate }, mode: 'include', categories });

function throttles(standard: number, fast: number, slow: number, ai: [number, number]): Throttle[] {
  return [
    throttle(['standard'], standard, standard),
    throttle(['core_fast', 'tracing_fast', 'services_fast'], fast, fast),
    throttle(['core_slow', 'tracing_slow', 'services_slow'], slow, 1),
    throttle(['ai_services'], ai[0], ai[1]),
  ];
}

const NONE = { rbac: false, audit: false, access: false, domains: false, sso: false };
const ALL = { rbac: true, audit: true, access: true, domains: true, sso: true };

export const DEFAULT_PLANS: PlanCatalog = {
  cloud_v0_hobby: {
    description: 'Hobby',
    flags: NONE,
    counters: { ...counters(7, { free: 5000, limit: 5000, strict: false }), evaluations_run: monthly({ free: 20, limit: 20, strict: true }) },
    gauges: { users: { free: 2, limit: 2, strict: true } },
    throttles: throttles(480, 1200, 120, [10, 30]),
  },
  cloud_v0_pro: {
    description: 'Pro',
    flags: NONE,
    counters: counters(31, { free: 10000 }),
    gauges: { users: { strict: true } },
    throttles: throttles(1440, 3600, 180, [30, 90]),
  },
  cloud_v0_business: {
    description: 'Business',
    flags: ALL,
    counters: counters(92, { free: 10000 }),
    gauges: { users: { strict: true } },
    throttles: throttles(3600, 36000, 1800, [300, 900]),
  },
  cloud_v0_agenta_ai: { description: 'Custom', flags: ALL, counters: counters(), gauges: { users: { strict: true } } },
  self_hosted_enterprise: {
    description: 'Self-hosted',
    flags: ALL,
    counters: { ...counters(), credits_consumed: monthly({ strict: true }) },
    gauges: { users: { strict: true } },
  },
};

export const DEFAULT_PLAN = 'self_hosted_enterprise';
