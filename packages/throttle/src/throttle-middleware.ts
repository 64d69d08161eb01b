// The express middleware: per-organization throttles of the organization's plan (reference
// accounts §2.3). Runs after authentication (it reads `req.scope.organizationId`); requests without
// an organization in scope (admin, public routes) pass untouched.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AccessCatalog, PlanCatalog, PlanResolver } from '@llm/access';
import { encodeRpcStatus } from '@llm/otlp';
import { BucketStore } from './bucket-store.ts';
import { gcra, type GcraDecision } from './gcra.ts';
import { bucketMatches, planThrottles, type BucketSpec } from './plan-throttles.ts';
import { servedAs } from './served-route.ts';

export interface ThrottleOptions {
  /** The plan catalog (`loadAccessCatalog(...).config.plans`). */
  plans: PlanCatalog;
  /** The organization's own plan slug. A rejection lets the request through (logged at warn). */
  planOf: (organizationId: string) => Promise<string>;
  /** Whose throttles apply when a plan is unknown or defines none. Default `cloud_v0_hobby`. */
  freePlan?: string | undefined;
  /** Replicas sharing the deployment-wide limit (THROTTLE_REPLICAS). Default 1. */
  replicas?: number | undefined;
  /** Clock, epoch ms. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** Where bucket states live; default a new store of 100,000 buckets at most. */
  store?: BucketStore | undefined;
}

interface Checked {
  key: string;
  spec: BucketSpec;
  decision: GcraDecision;
}

/** `req.scope.organizationId` when authentication put one there. */
function organizationOf(req: Request): string | undefined {
  const scope = (req as { scope?: unknown }).scope;
  if (!scope || typeof scope !== 'object') return undefined;
  const org = (scope as { organizationId?: unknown }).organizationId;
  return typeof org === 'string' && org !== '' ? org : undefined;
}

/** The request's logger (`req.log`, set by the request context of @llm/http). */
const logOf = (req: Request): { warn(obj: object, msg: string): void } | undefined =>
  (req as { log?: { warn(obj: object, msg: string): void } }).log;

/** The 429 of a denied request: the body names whole seconds, Retry-After one more. */
export function rateLimitedBody(retryAfterMs: number): { detail: string } {
  return { detail: `Rate limit exceeded. Please retry after ${Math.ceil(retryAfterMs / 1000)} seconds.` };
}

const RESOURCE_EXHAUSTED = 8;

export function throttleMiddleware(opts: ThrottleOptions): RequestHandler {
  const throttlesOf = planThrottles(opts.plans, { freePlan: opts.freePlan, replicas: opts.replicas });
  const now = opts.now ?? Date.now;
  const store = opts.store ?? new BucketStore();

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const org = organizationOf(req);
    if (org === undefined) { next(); return; }
    let plan: string;
    try {
      plan = await opts.planOf(org);
    } catch (err) {
      // Fail open: a throttle that cannot read the plan must not take the API down with it.
      logOf(req)?.warn({ err, organization_id: org }, 'throttle: plan lookup failed, request allowed');
      next();
      return;
    }
    const applied = throttlesOf(plan);
    if (!applied) { next(); return; }
    // The route that serves the request decides, whatever its spelling (case, /api, /preview, slash).
    const { category, path } = servedAs(req, res);
    // Everything below is synchronous: concurrent requests cannot interleave between check and commit.
    const t = now();
    const checked: Checked[] = [];
    for (const spec of applied.buckets) {
      if (!bucketMatches(spec, category, req.method, path)) continue;
      // A throttle grouping categories keeps one bucket per matched category (reference §2.3:
      // grouped categories still get one bucket each); endpoint and catch-all throttles one in all.
      const matched = spec.mode === 'include' && spec.categories?.includes(category) ? `|${category}` : '';
      const key = `${org}|${applied.plan}|${spec.id}${matched}`;
      checked.push({ key, spec, decision: gcra(store.get(key), t, spec.params) });
    }
    if (checked.length === 0) { next(); return; }

    // Check every bucket, then commit all or nothing: a denial takes no token from the others.
    let worst: Checked | undefined;
    for (const c of checked) {
      if (!c.decision.allowed && (!worst || c.decision.retryAfterMs > worst.decision.retryAfterMs)) worst = c;
    }
    if (worst) {
      const body = rateLimitedBody(worst.decision.retryAfterMs);
      res.status(429).set({
        'X-RateLimit-Limit': String(worst.spec.capacity),
        'X-RateLimit-Remaining': '0',
        'Retry-After': String(Math.ceil(worst.decision.retryAfterMs / 1000) + 1),
      });
      // OTLP exporters read a google.rpc.Status from any failed export (and retry a 429 after Retry-After).
      if (path.toLowerCase().startsWith('/otlp/')) res.type('application/x-protobuf').send(Buffer.from(encodeRpcStatus(RESOURCE_EXHAUSTED, body.detail)));
      else res.json(body);
      return;
    }
    let tightest = checked[0]!;
    for (const c of checked) {
      if (c.decision.state) store.set(c.key, c.decision.state, t);
      if (c.decision.remaining < tightest.decision.remaining) tightest = c;
    }
    res.set({ 'X-RateLimit-Limit': String(tightest.spec.capacity), 'X-RateLimit-Remaining': String(tightest.decision.remaining) });
    next();
  };
}

/** The throttle of a deployment: its catalog, each organization's own plan, THROTTLE_REPLICAS; none when ACCESS_ENFORCEMENT=false. */
export function deploymentThrottle(access: Pick<AccessCatalog, 'plans' | 'throttleReplicas' | 'enforce'>, plans: PlanResolver, freePlan?: string): RequestHandler | undefined {
  if (!access.enforce) return undefined;
  return throttleMiddleware({ plans: access.plans, planOf: async (org) => (await plans.planOf(org)).plan, replicas: access.throttleReplicas, freePlan });
}
