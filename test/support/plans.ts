// The default plans with throttles no test reaches: for suites that send thousands of requests
// per organization (hostile input) and are about something else than rate limits. Every other
// test runs with the real defaults, throttles included.
import { DEFAULT_PLANS, type PlanCatalog } from '@llm/access';

const generous = { bucket: { capacity: 1_000_000, rate: 1_000_000 }, mode: 'include' as const };

export const UNTHROTTLED_PLANS: PlanCatalog = Object.fromEntries(Object.entries(DEFAULT_PLANS).map(([slug, p]) => [slug, { ...p, throttles: [generous] }]));

export const unthrottledEnv = (): Record<string, string> => ({ ACCESS_PLANS: JSON.stringify(UNTHROTTLED_PLANS) });
