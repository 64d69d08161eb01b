// How each route authenticates, as OpenAPI security schemes. The route table does not carry this,
// so it is decided here from the route families the services wire (services/*/src/app.ts): a new
// family defaults to "API key or session", the common case.
import type { RouteId } from '@llm/contracts';

export const SECURITY_SCHEMES = {
  apiKey: {
    type: 'apiKey', in: 'header', name: 'Authorization',
    description: 'A project API key: `Authorization: ApiKey <prefix>.<secret>` (a bare key is accepted too). '
      + '`Bearer` and other schemes are refused.',
  },
  adminToken: {
    type: 'apiKey', in: 'header', name: 'Authorization',
    description: 'The operator token of the deployment: `Authorization: Access <ADMIN_TOKEN>`. Guards every `/admin/` path.',
  },
  sessionCookie: {
    type: 'apiKey', in: 'cookie', name: 'llm_session',
    description: 'The signed browser session an SSO sign-in sets (`__Host-llm_session` when SESSION_COOKIE_SECURE=true).',
  },
} as const;

export type SchemeName = keyof typeof SECURITY_SCHEMES;

/** OpenAPI security requirements: any one entry suffices; `[]` = public. */
export type SecurityRequirement = Array<Partial<Record<SchemeName, string[]>>>;

const apiKeyOnly: SecurityRequirement = [{ apiKey: [] }];
const member: SecurityRequirement = [{ apiKey: [] }, { sessionCookie: [] }];
const admin: SecurityRequirement = [{ adminToken: [] }];
const session: SecurityRequirement = [{ sessionCookie: [] }];
const open: SecurityRequirement = [];

// Routes no credential guards: sign-in steps, signed processor events (their signature header is the
// proof), the OTLP readiness probe and the API description itself.
const PUBLIC = new Set<RouteId>([
  'otlp.traces.status', 'auth.discover', 'auth.sso.start', 'auth.sso.callback', 'auth.callback',
  'billing.payments.events', 'billing.stripe.events', 'health.check',
]);
const SESSION = new Set<RouteId>(['auth.access', 'auth.session', 'auth.session.identities', 'auth.signout']);
// The tracing families take an API key only (the SDKs' and exporters' credential).
const API_KEY_PREFIXES = ['otlp.', 'traces.', 'spans.', 'simple.traces.', 'tracing.', 'access.'];

export function securityOf(id: RouteId): SecurityRequirement {
  if (id.startsWith('docs.') || PUBLIC.has(id)) return open;
  if (id.startsWith('admin.')) return admin;
  if (SESSION.has(id)) return session;
  if (API_KEY_PREFIXES.some((p) => id.startsWith(p))) return apiKeyOnly;
  return member;
}
