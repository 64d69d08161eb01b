// The express middleware: per-organization throttles of the organization's plan (reference
// accounts §2.3). Runs after authentication (it reads `req.scope.organizationId`); requests without
// an organization in scope (admin, public routes) pass untouched.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AccessCatalog, PlanCatalog, PlanResolver } from '@llm/access';
import { encodeRpcStatus } from '@llm/otlp';
import { BucketStore } from './bucket-store.ts';
import { gcra, type GcraDecision } from './gcra.ts';
import { bucketMatches, planThrottles, type BucketSpec } from './plan-throttles.ts';
import { servedAs, type ServedAs } from './served-route.ts';

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

/** What a request is counted as: its method and what the route table serves it as (served-route.ts). */
export interface ThrottledRequest extends ServedAs {
  method: string;
}

/** A throttle's answer for one request; `headers` are the X-RateLimit-* (and Retry-After) to send. */
export type ThrottleVerdict =
  | { allowed: true; headers: Record<string, string> }
  | { allowed: false; retryAfterMs: number; headers: Record<string, string>; detail: string };

/** The express middleware, plus the same decision for transports that are not express (OTLP/gRPC). */
export interface Throttle extends RequestHandler {
  /**
   * The verdict for one request of `organizationId`; an admitted request takes its tokens. The
   * middleware runs exactly this, so every transport shares the organization's buckets.
   */
  check(organizationId: string, request: ThrottledRequest, log?: { warn(obj: object, msg: string): void }): Promise<ThrottleVerdict>;
}

/** An OTLP request sent as JSON gets its Status as JSON (OTLP/HTTP: the answer is in the request's encoding). */
function sentJson(req: Request): boolean {
  const ctype = (req as { headers?: Record<string, string | string[] | undefined> }).headers?.['content-type'];
  return typeof ctype === 'string' && /^\s*application\/json\s*(;|$)/i.test(ctype);
}

export function throttleMiddleware(opts: ThrottleOptions): Throttle {
  const throttlesOf = planThrottles(opts.plans, { freePlan: opts.freePlan, replicas: opts.replicas });
  const now = opts.now ?? Date.now;
  const store = opts.store ?? new BucketStore();
  const admitted: ThrottleVerdict = { allowed: true, headers: {} };

  async function check(org: string, request: ThrottledRequest, log?: { warn(obj: object, msg: string): void }): Promise<ThrottleVerdict> {
    let plan: string;
    try {
      plan = await opts.planOf(org);
    } catch (err) {
      // Fail open: a throttle that cannot read the plan must not take the API down with it.
      log?.warn({ err, organization_id: org }, 'throttle: plan lookup failed, request allowed');
      return admitted;
    }
    const applied = throttlesOf(plan);
    if (!applied) return admitted;
    const { category, path, method } = request;
    // Everything below is synchronous: concurrent requests cannot interleave between check and commit.
    const t = now();
    const checked: Checked[] = [];
    for (const spec of applied.buckets) {
      if (!bucketMatches(spec, category, method, path)) continue;
      // A throttle grouping categories keeps one bucket per matched category (reference §2.3:
      // grouped categories still get one bucket each); endpoint and catch-all throttles one in all.
      const matched = spec.mode === 'include' && spec.categories?.includes(category) ? `|${category}` : '';
      const key = `${org}|${applied.plan}|${spec.id}${matched}`;
      checked.push({ key, spec, decision: gcra(store.get(key), t, spec.params) });
    }
    if (checked.length === 0) return admitted;

    // Check every bucket, then commit all or nothing: a denial takes no token from the others.
    let worst: Checked | undefined;
    for (const c of checked) {
      if (!c.decision.allowed && (!worst || c.decision.retryAfterMs > worst.decision.retryAfterMs)) worst = c;
    }
    if (worst) {
      return {
        allowed: false,
        retryAfterMs: worst.decision.retryAfterMs,
        detail: rateLimitedBody(worst.decision.retryAfterMs).detail,
        headers: {
          'X-RateLimit-Limit': String(worst.spec.capacity),
          'X-RateLimit-Remaining': '0',
          'Retry-After': String(Math.ceil(worst.decision.retryAfterMs / 1000) + 1),
        },
      };
    }
    let tightest = checked[0]!;
    for (const c of checked) {
      if (c.decision.state) store.set(c.key, c.decision.state, t);
      if (c.decision.remaining < tightest.decision.remaining) tightest = c;
    }
    return { allowed: true, headers: { 'X-RateLimit-Limit': String(tightest.spec.capacity), 'X-RateLimit-Remaining': String(tightest.decision.remaining) } };
  }

  const middleware = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const org = organizationOf(req);
    if (org === undefined) { next(); return; }
    // The route that serves the request decides, whatever its spelling (case, /api, /preview, slash).
    const served = servedAs(req, res);
    const verdict = await check(org, { ...served, method: req.method }, logOf(req));
    if (!verdict.allowed) {
      res.status(429).set(verdict.headers);
      // OTLP exporters read a google.rpc.Status from any failed export (and retry a 429 after Retry-After).
      if (served.path.toLowerCase().startsWith('/otlp/')) {
        if (sentJson(req)) res.json({ code: RESOURCE_EXHAUSTED, message: verdict.detail });
        else res.type('application/x-protobuf').send(Buffer.from(encodeRpcStatus(RESOURCE_EXHAUSTED, verdict.detail)));
      } else res.json({ detail: verdict.detail });
      return;
    }
    if (Object.keys(verdict.headers).length > 0) res.set(verdict.headers);
    next();
  };
  return Object.assign(middleware, { check });
}

/** The throttle of a deployment: its catalog, each organization's own plan, THROTTLE_REPLICAS; none when ACCESS_ENFORCEMENT=false. */
export function deploymentThrottle(access: Pick<AccessCatalog, 'plans' | 'throttleReplicas' | 'enforce'>, plans: PlanResolver, freePlan?: string): Throttle | undefined {
  if (!access.enforce) return undefined;
  return throttleMiddleware({ plans: access.plans, planOf: async (org) => (await plans.planOf(org)).plan, replicas: access.throttleReplicas, freePlan });
}
