// @llm/throttle: per-organization rate limits from the organization's plan (reference accounts
// §2.1-§2.3). Each request with an organization in scope is matched against the throttles of its
// plan (the free plan's when the plan is unknown or defines none); every matching throttle is one
// GCRA bucket keyed by organization + plan + the matched category (or the throttle's endpoints). A request is
// admitted only if every bucket admits it, and only then are tokens taken from all of them.
//
// Deployment-wide limits with N replicas: an explicit per-replica share. Each replica enforces
// ceil(capacity / N) and ceil(rate / N) (THROTTLE_REPLICAS = N, @llm/access accessEnv) in its own memory, and reports those
// numbers in X-RateLimit-Limit / -Remaining. No state is shared, so a request costs no I/O and the
// throttle keeps working when a store would be down; the price is that the limit holds only as
// well as the load balancer spreads an organization's requests: a client pinned to one replica
// gets 1/N of its plan's limit, and rounding up lets a deployment admit slightly more than the limit.
// Bucket states are bounded: recovered buckets are swept, and above 100,000 per replica (default)
// the least recently updated are evicted.
export { throttleMiddleware, deploymentThrottle, rateLimitedBody, type ThrottleOptions, type Throttle, type ThrottleVerdict, type ThrottledRequest } from './throttle-middleware.ts';
export { planThrottles, bucketSpecOf, bucketMatches, perReplica, DEFAULT_FREE_PLAN, type BucketSpec, type PlanThrottles, type PlanThrottleOptions } from './plan-throttles.ts';
export { servedAs, routeCategory, declaredPath, type ServedAs } from './served-route.ts';
export { categoryOf, endpointMatches, globMatches, globToRegExp, normalizePath, normalizeGlob, type Endpoint, type ThrottleCategory } from './categories.ts';
export { gcra, gcraParams, backlogAt, recoveredAt, type GcraDecision, type GcraParams, type GcraState } from './gcra.ts';
export { BucketStore, DEFAULT_MAX_KEYS, type BucketStoreOptions } from './bucket-store.ts';
