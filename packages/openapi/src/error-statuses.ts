// Which error statuses each operation can answer, derived from what its route does rather than listed
// by hand: the parts every request goes through (packages/http: the HTTP server, the JSON body
// parser, the central error handler), its authentication (security.ts), whether it names resources
// (path parameters, ids in the body), its side (a write appended to the log, a read of a projection)
// and the few families whose handlers add statuses of their own (below, with the reason for each).
import { ROUTES, type RouteDef, type RouteId } from '@llm/contracts';
import { securityOf } from './security.ts';

/**
 * Every request: Node's HTTP parser answers 431 for oversized headers; the JSON body parser runs
 * before every route that does not read its own raw body, whatever the method, so a body sent
 * anyway can be malformed (400: bad compression or an aborted body; 422: not JSON), too large (413)
 * or in an unsupported charset or encoding (415); and 500 is the opaque answer to a bug.
 */
const EVERY_REQUEST = [400, 413, 415, 422, 431, 500];

/** Route families that read data stores: 503 when one is down or a write is not visible yet. */
const storeFree = (id: RouteId): boolean => id.startsWith('docs.') || id === 'health.check';

/** Tracing writes and reads: their own families (no account aggregate, so no 409). */
const TRACING = /^(otlp|traces|spans|simple\.traces|tracing)\./;

/** Handlers that look up a resource named in the body or by the caller's scope, not in the path: 404 when it is gone. */
const LOOKS_UP = new Set<RouteId>([
  'projects.current', 'profile.fetch', 'auth.access', 'auth.session', 'organizations.domains.verify', 'organizations.domains.create', 'organizations.providers.create',
  'keys.create', 'webhooks.subscriptions.test', 'webhooks.deliveries.create', 'applications.variants.create', 'applications.revisions.commit',
  'human_evaluations.create', 'human_evaluations.list', 'workspaces.users.remove', 'billing.payments.portals', 'billing.stripe.portals',
  'billing.payments.checkouts', 'billing.stripe.checkouts', 'billing.plans.switch', 'billing.subscription', 'billing.subscription.cancel',
  'queries.variants.create', 'queries.variants.fork', 'queries.revisions.create', 'queries.revisions.commit', 'queries.revisions.retrieve',
  'queries.revisions.log', 'applications.revisions.retrieve', 'evaluators.revisions.retrieve', 'workflows.revisions.retrieve', 'testsets.revisions.download',
  'simple.testsets.download', 'applications.revisions.resolve', 'evaluators.revisions.resolve', 'workflows.revisions.resolve', 'environments.revisions.resolve',
]);

/** Reads that run a saved query named in the body: 404 when no revision matches, 409 when its stored focus is the other one (spans vs traces). */
const RUNS_SAVED_QUERIES = new Set<RouteId>(['traces.query', 'spans.query', 'traces.export', 'spans.export']);

/** Handlers that call an upstream service and answer 502 when it fails: the payments processor, the agent runner. */
const UPSTREAM = new Set<RouteId>([
  'billing.payments.portals', 'billing.stripe.portals', 'billing.payments.checkouts', 'billing.stripe.checkouts', 'billing.plans.switch',
  'billing.subscription.cancel', 'secrets.login_attempts.start', 'secrets.login_attempts.fetch', 'secrets.login_attempts.cancel',
]);

/** 410: an invitation past its expiry (reference accounts §3.1). */
const GONE = new Set<RouteId>(['organizations.workspaces.invite.accept']);

/** Public routes that check a proof of their own: sign-in steps (a state cookie, an organization's
 * policy: 401/403) and the payments processor's events (their signature: 401). */
const SIGN_IN = new Set<RouteId>(['auth.sso.start', 'auth.sso.callback', 'auth.callback']);
const SIGNED = new Set<RouteId>(['billing.payments.events', 'billing.stripe.events']);

/** The error statuses one operation can answer, ascending. */
export function errorStatusesOf(id: RouteId): number[] {
  const route: RouteDef = ROUTES[id];
  const security = securityOf(id);
  const out = new Set<number>(EVERY_REQUEST);
  const hasPathIds = route.path.includes(':');

  if (security.length > 0 || SIGN_IN.has(id)) { out.add(401); out.add(403); }
  if (SIGNED.has(id)) out.add(401);
  // Throttles apply to every request authenticated into an organization (API key or member session);
  // ingest adds the plan's trace quota (also a 429, or 403 when the plan forbids ingest).
  const orgScoped = security.some((s) => 'apiKey' in s || 'sessionCookie' in s);
  if (orgScoped) out.add(429);
  // A write of an account aggregate (organizations, keys, secrets, saved queries, webhooks, admin, …)
  // is decided in log order: a slug taken, a stale version or a state that forbids it is a 409, and
  // an entity it names (by id, slug or a reference in the body) that the log does not hold is a 404.
  const accountWrite = route.side === 'command' && !TRACING.test(id) && route.method !== 'GET';
  if (hasPathIds || LOOKS_UP.has(id) || accountWrite || RUNS_SAVED_QUERIES.has(id)) out.add(404);
  if (accountWrite || RUNS_SAVED_QUERIES.has(id)) out.add(409);
  if (id === 'admin.replay') out.add(409); // one replay at a time
  if (GONE.has(id)) out.add(410);
  if (UPSTREAM.has(id)) out.add(502);
  if (!storeFree(id)) out.add(503);
  if (id === 'docs.asset') out.add(404);
  // The spec: GET /traces/query and GET /traces/ingest are 405 (Allow: POST), not a trace id.
  if (id === 'traces.fetch') out.add(405);
  // A raw-body route reads its own bytes: no JSON parser, but its own size bound and media type.
  if (route.rawBody === true) { out.add(413); out.add(415); }
  return [...out].sort((a, b) => a - b);
}
