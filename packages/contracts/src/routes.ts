// The route table: which side serves each operation. The command and query services register exactly
// the routes of their side; the gateway (multi-process mode) proxies by this table, so the all-in-one
// app and the split deployment expose the same base URL. Paths are express patterns; every route also
// answers under any number of leading `/api` segments, and with or without a trailing slash.
import { catalogRoutes, gitRoutes, simpleRoutes, workflowCatalogRoutes } from './artifact-routes.ts';

export type Side = 'command' | 'query' | 'projector';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDef {
  method: Method;
  path: string;
  side: Side;
  deprecated?: boolean;
  /** The handler reads its own (bounded) raw body: the JSON parser leaves the request stream alone
   * (protobuf bodies; signed bodies whose signature covers the exact bytes). */
  rawBody?: boolean;
}

export const ROUTES = {
  // OTLP
  'otlp.traces.status': { method: 'GET', path: '/otlp/v1/traces', side: 'command' },
  'otlp.traces.export': { method: 'POST', path: '/otlp/v1/traces', side: 'command', rawBody: true },
  // canonical traces
  'traces.create': { method: 'POST', path: '/traces', side: 'command' },
  'traces.ingest': { method: 'POST', path: '/traces/ingest', side: 'command', deprecated: true },
  'traces.edit': { method: 'PUT', path: '/traces/:trace_id', side: 'command' },
  'traces.delete': { method: 'DELETE', path: '/traces/:trace_id', side: 'command' },
  'traces.list': { method: 'GET', path: '/traces', side: 'query' },
  'traces.fetch': { method: 'GET', path: '/traces/:trace_id', side: 'query' },
  'traces.query': { method: 'POST', path: '/traces/query', side: 'query' },
  'traces.export': { method: 'POST', path: '/traces/export', side: 'query' },
  // canonical spans
  'spans.list': { method: 'GET', path: '/spans', side: 'query' },
  'spans.fetch': { method: 'GET', path: '/spans/:trace_id/:span_id', side: 'query' },
  'spans.query': { method: 'POST', path: '/spans/query', side: 'query' },
  'spans.export': { method: 'POST', path: '/spans/export', side: 'query' },
  'spans.sessions.query': { method: 'POST', path: '/spans/sessions/query', side: 'query' },
  'spans.users.query': { method: 'POST', path: '/spans/users/query', side: 'query' },
  'spans.analytics.query': { method: 'POST', path: '/spans/analytics/query', side: 'query' },
  // simple traces
  'simple.traces.create': { method: 'POST', path: '/simple/traces', side: 'command' },
  'simple.traces.query': { method: 'POST', path: '/simple/traces/query', side: 'query' },
  'simple.traces.fetch': { method: 'GET', path: '/simple/traces/:trace_id', side: 'query' },
  'simple.traces.edit': { method: 'PATCH', path: '/simple/traces/:trace_id', side: 'command' },
  'simple.traces.delete': { method: 'DELETE', path: '/simple/traces/:trace_id', side: 'command' },
  // deprecated tracing
  'tracing.spans.ingest': { method: 'POST', path: '/tracing/spans/ingest', side: 'command', deprecated: true },
  'tracing.traces.create': { method: 'POST', path: '/tracing/traces', side: 'command', deprecated: true },
  'tracing.traces.edit': { method: 'PUT', path: '/tracing/traces/:trace_id', side: 'command', deprecated: true },
  'tracing.traces.delete': { method: 'DELETE', path: '/tracing/traces/:trace_id', side: 'command', deprecated: true },
  'tracing.traces.fetch': { method: 'GET', path: '/tracing/traces/:trace_id', side: 'query', deprecated: true },
  'tracing.spans.query': { method: 'POST', path: '/tracing/spans/query', side: 'query', deprecated: true },
  'tracing.sessions.query': { method: 'POST', path: '/tracing/sessions/query', side: 'query', deprecated: true },
  'tracing.users.query': { method: 'POST', path: '/tracing/users/query', side: 'query', deprecated: true },
  'tracing.analytics.query': { method: 'POST', path: '/tracing/analytics/query', side: 'query', deprecated: true },
  'tracing.spans.analytics': { method: 'POST', path: '/tracing/spans/analytics', side: 'query', deprecated: true },
  // saved queries: writes are events on the accounts topic, reads come from their Postgres projection
  // (reference compat §1; the artifact model's routes, like every artifact entity's)
  ...gitRoutes('queries', 'query'), ...simpleRoutes('queries', 'query'),
  // organization domains: writes are events on the accounts topic (keyed by domain name)
  'organizations.domains.list': { method: 'GET', path: '/organizations/domains', side: 'query' },
  'organizations.domains.create': { method: 'POST', path: '/organizations/domains', side: 'command' },
  'organizations.domains.verify': { method: 'POST', path: '/organizations/domains/verify', side: 'command' },
  'organizations.domains.refresh': { method: 'POST', path: '/organizations/domains/:domain_id/refresh', side: 'command' },
  'organizations.domains.reset': { method: 'POST', path: '/organizations/domains/:domain_id/reset', side: 'command' },
  'organizations.domains.delete': { method: 'DELETE', path: '/organizations/domains/:domain_id', side: 'command' },
  // organization settings and SSO providers: writes are events keyed by organization
  'organizations.providers.list': { method: 'GET', path: '/organizations/providers', side: 'query' },
  'organizations.providers.create': { method: 'POST', path: '/organizations/providers', side: 'command' },
  'organizations.providers.update': { method: 'PATCH', path: '/organizations/providers/:provider_id', side: 'command' },
  'organizations.providers.delete': { method: 'DELETE', path: '/organizations/providers/:provider_id', side: 'command' },
  'organizations.providers.test': { method: 'POST', path: '/organizations/providers/:provider_id/test', side: 'command' },
  'organizations.fetch': { method: 'GET', path: '/organizations/:organization_id', side: 'query' },
  'organizations.update': { method: 'PATCH', path: '/organizations/:organization_id', side: 'command' },
  'organizations.replace': { method: 'PUT', path: '/organizations/:organization_id', side: 'command' },
  'organizations.list': { method: 'GET', path: '/organizations', side: 'query' },
  'organizations.create': { method: 'POST', path: '/organizations', side: 'command' },
  'organizations.delete': { method: 'DELETE', path: '/organizations/:organization_id', side: 'command' },
  'organizations.transfer': { method: 'POST', path: '/organizations/:organization_id/transfer/:new_owner_id', side: 'command' },
  // workspace invitations and member removal (compat §3.1): accounts.invitation.* keyed by the organization
  'organizations.workspaces.invite': { method: 'POST', path: '/organizations/:organization_id/workspaces/:workspace_id/invite', side: 'command' },
  'organizations.workspaces.invite.resend': { method: 'POST', path: '/organizations/:organization_id/workspaces/:workspace_id/invite/resend', side: 'command' },
  'organizations.workspaces.invite.accept': { method: 'POST', path: '/organizations/:organization_id/workspaces/:workspace_id/invite/accept', side: 'command' },
  'workspaces.users.remove': { method: 'DELETE', path: '/workspaces/:workspace_id/users', side: 'command' },
  // API keys of the caller's project: events keyed by project
  'keys.list': { method: 'GET', path: '/keys', side: 'query' },
  'keys.create': { method: 'POST', path: '/keys', side: 'command' },
  'keys.revoke': { method: 'DELETE', path: '/keys/:key_id', side: 'command' },
  // vault secrets (served by the command side, which alone holds the key ring; writes are events keyed by project)
  'secrets.list': { method: 'GET', path: '/secrets', side: 'command' },
  'secrets.create': { method: 'POST', path: '/secrets', side: 'command' },
  'secrets.fetch': { method: 'GET', path: '/secrets/:secret_id', side: 'command' },
  'secrets.update': { method: 'PUT', path: '/secrets/:secret_id', side: 'command' },
  'secrets.delete': { method: 'DELETE', path: '/secrets/:secret_id', side: 'command' },
  'vault.secrets.list': { method: 'GET', path: '/vault/v1/secrets', side: 'command' },
  'vault.secrets.create': { method: 'POST', path: '/vault/v1/secrets', side: 'command' },
  'vault.secrets.fetch': { method: 'GET', path: '/vault/v1/secrets/:secret_id', side: 'command' },
  'vault.secrets.update': { method: 'PUT', path: '/vault/v1/secrets/:secret_id', side: 'command' },
  'vault.secrets.delete': { method: 'DELETE', path: '/vault/v1/secrets/:secret_id', side: 'command' },
  // subscription logins (reference accounts §7): the browser's device sign-in, the runner's push and failure report
  'secrets.login_attempts.start': { method: 'POST', path: '/secrets/:secret_id/login-attempts', side: 'command' },
  'secrets.login_attempts.fetch': { method: 'GET', path: '/secrets/:secret_id/login-attempts/:attempt_id', side: 'command' },
  'secrets.login_attempts.cancel': { method: 'POST', path: '/secrets/:secret_id/login-attempts/:attempt_id/cancel', side: 'command' },
  'secrets.subscription_login.push': { method: 'POST', path: '/secrets/:secret_id/subscription-login', side: 'command' },
  'secrets.subscription_login.failure': { method: 'POST', path: '/secrets/:secret_id/subscription-login/failure', side: 'command' },
  // access
  'access.plans': { method: 'GET', path: '/access/plans', side: 'query' },
  // billing (reference accounts §11): usage from the exact meters (projector-usage, accounts projection)
  'billing.usage': { method: 'GET', path: '/billing/usage', side: 'query' },
  // billing (reference accounts §11): the payments processor and the subscription record (accounts
  // events keyed by organization). The spec serves /billing/payments/…; the reference's
  // /billing/stripe/… aliases stay for processors and clients configured against it.
  'billing.payments.events': { method: 'POST', path: '/billing/payments/events', side: 'command', rawBody: true },
  'billing.stripe.events': { method: 'POST', path: '/billing/stripe/events', side: 'command', rawBody: true },
  'billing.payments.portals': { method: 'POST', path: '/billing/payments/portals', side: 'command' },
  'billing.stripe.portals': { method: 'POST', path: '/billing/stripe/portals', side: 'command' },
  'billing.payments.checkouts': { method: 'POST', path: '/billing/payments/checkouts', side: 'command' },
  'billing.stripe.checkouts': { method: 'POST', path: '/billing/stripe/checkouts', side: 'command' },
  'billing.plans': { method: 'GET', path: '/billing/plans', side: 'query' },
  'billing.plans.switch': { method: 'POST', path: '/billing/plans/switch', side: 'command' },
  'billing.subscription': { method: 'GET', path: '/billing/subscription', side: 'command' },
  'billing.subscription.cancel': { method: 'POST', path: '/billing/subscription/cancel', side: 'command' },
  'billing.catalog': { method: 'GET', path: '/billing/catalog', side: 'query' },
  'billing.pricing': { method: 'GET', path: '/billing/pricing', side: 'query' },
  // sessions and SSO sign-in (session cookie; sign-in and sign-out append accounts events)
  'auth.discover': { method: 'POST', path: '/auth/discover', side: 'query' },
  'auth.access': { method: 'GET', path: '/auth/access', side: 'query' },
  'auth.session': { method: 'GET', path: '/auth/session', side: 'query' },
  'auth.session.identities': { method: 'PATCH', path: '/auth/session/identities', side: 'command' },
  'auth.signout': { method: 'POST', path: '/auth/signout', side: 'command' },
  'auth.sso.start': { method: 'GET', path: '/auth/sso/start/:organization_slug/:provider_slug', side: 'command' },
  'auth.sso.callback': { method: 'GET', path: '/auth/sso/callback/:organization_slug/:provider_slug', side: 'command' },
  'auth.callback': { method: 'GET', path: '/auth/callback/:third_party_id', side: 'command' },
  // admin
  'admin.accounts.create': { method: 'POST', path: '/admin/simple/accounts', side: 'command' },
  // the live-run cron (reference evaluations §4.2): one dispatch per open, active, running live run for the tick's window
  'admin.evaluations.runs.refresh': { method: 'POST', path: '/admin/evaluations/runs/refresh', side: 'command' },
  'admin.accounts.delete': { method: 'DELETE', path: '/admin/simple/accounts', side: 'command' },
  'admin.memberships.set': { method: 'POST', path: '/admin/simple/accounts/organizations/memberships', side: 'command' },
  'admin.memberships.remove': { method: 'DELETE', path: '/admin/simple/accounts/organizations/memberships', side: 'command' },
  // admin entities (compat §2.3), after the memberships routes so `memberships` is never taken for an id
  'admin.users.create': { method: 'POST', path: '/admin/simple/accounts/users', side: 'command' },
  'admin.users.delete': { method: 'DELETE', path: '/admin/simple/accounts/users/:user_id', side: 'command' },
  'admin.identities.create': { method: 'POST', path: '/admin/simple/accounts/users/identities', side: 'command' },
  'admin.identities.delete': { method: 'DELETE', path: '/admin/simple/accounts/users/:user_id/identities/:identity_id', side: 'command' },
  'admin.reset_password': { method: 'POST', path: '/admin/simple/accounts/reset-password', side: 'command' },
  'admin.organizations.create': { method: 'POST', path: '/admin/simple/accounts/organizations', side: 'command' },
  'admin.organizations.delete': { method: 'DELETE', path: '/admin/simple/accounts/organizations/:organization_id', side: 'command' },
  'admin.api_keys.create': { method: 'POST', path: '/admin/simple/accounts/api-keys', side: 'command' },
  'admin.api_keys.delete': { method: 'DELETE', path: '/admin/simple/accounts/api-keys/:api_key_id', side: 'command' },
  'admin.organizations.memberships.delete': { method: 'DELETE', path: '/admin/simple/accounts/organizations/:organization_id/memberships/:membership_id', side: 'command' },
  'admin.workspaces.create': { method: 'POST', path: '/admin/simple/accounts/workspaces', side: 'command' },
  'admin.workspaces.delete': { method: 'DELETE', path: '/admin/simple/accounts/workspaces/:workspace_id', side: 'command' },
  'admin.workspaces.memberships.create': { method: 'POST', path: '/admin/simple/accounts/workspaces/memberships', side: 'command' },
  'admin.workspaces.memberships.delete': { method: 'DELETE', path: '/admin/simple/accounts/workspaces/:workspace_id/memberships/:membership_id', side: 'command' },
  'admin.projects.create': { method: 'POST', path: '/admin/simple/accounts/projects', side: 'command' },
  'admin.projects.delete': { method: 'DELETE', path: '/admin/simple/accounts/projects/:project_id', side: 'command' },
  'admin.projects.memberships.create': { method: 'POST', path: '/admin/simple/accounts/projects/memberships', side: 'command' },
  'admin.projects.memberships.delete': { method: 'DELETE', path: '/admin/simple/accounts/projects/:project_id/memberships/:membership_id', side: 'command' },
  'admin.transfer_ownership': { method: 'POST', path: '/admin/simple/accounts/transfer-ownership', side: 'command' },
  'admin.graph.create': { method: 'POST', path: '/admin/accounts', side: 'command' },
  'admin.graph.delete': { method: 'DELETE', path: '/admin/accounts', side: 'command' },
  'providers.probe': { method: 'POST', path: '/providers/probe', side: 'command' },
  'vault.providers.probe': { method: 'POST', path: '/vault/v1/providers/probe', side: 'command' },
  // webhooks (reference accounts §9): subscriptions are accounts events keyed `project:<id>:webhooks`, served by the
  // command side (it alone opens the signing secret in the vault); deliveries are the projection of webhooks.deliveries.v1
  'webhooks.subscriptions.create': { method: 'POST', path: '/webhooks/subscriptions', side: 'command' },
  'webhooks.subscriptions.test': { method: 'POST', path: '/webhooks/subscriptions/test', side: 'command' },
  'webhooks.subscriptions.query': { method: 'POST', path: '/webhooks/subscriptions/query', side: 'command' },
  'webhooks.subscriptions.fetch': { method: 'GET', path: '/webhooks/subscriptions/:subscription_id', side: 'command' },
  'webhooks.subscriptions.edit': { method: 'PUT', path: '/webhooks/subscriptions/:subscription_id', side: 'command' },
  'webhooks.subscriptions.delete': { method: 'DELETE', path: '/webhooks/subscriptions/:subscription_id', side: 'command' },
  'webhooks.subscriptions.start': { method: 'POST', path: '/webhooks/subscriptions/:subscription_id/start', side: 'command' },
  'webhooks.subscriptions.stop': { method: 'POST', path: '/webhooks/subscriptions/:subscription_id/stop', side: 'command' },
  'webhooks.deliveries.create': { method: 'POST', path: '/webhooks/deliveries', side: 'command' },
  'webhooks.deliveries.query': { method: 'POST', path: '/webhooks/deliveries/query', side: 'query' },
  'webhooks.deliveries.fetch': { method: 'GET', path: '/webhooks/deliveries/:delivery_id', side: 'query' },
  // versioned artifacts (reference evaluations §1.2): testsets and the workflow family's three views,
  // accounts.artifact.* events keyed `project:<id>:<family>s` (packages/account-model aggregates/artifact)
  // (catalogs and the legacy evaluator template list first: their literal paths go before `/:id` ones)
  ...catalogRoutes('applications'), ...catalogRoutes('evaluators'), ...workflowCatalogRoutes(),
  'simple.evaluators.templates': { method: 'GET', path: '/simple/evaluators/templates', side: 'query' },
  ...gitRoutes('testsets', 'testset'), ...simpleRoutes('testsets', 'testset'),
  ...gitRoutes('applications', 'application'), ...simpleRoutes('applications', 'application'),
  ...gitRoutes('evaluators', 'evaluator'), ...simpleRoutes('evaluators', 'evaluator'),
  ...gitRoutes('workflows', 'workflow'), ...simpleRoutes('workflows', 'workflow'),
  ...gitRoutes('environments', 'environment'), ...simpleRoutes('environments', 'environment'),
  'applications.revisions.resolve': { method: 'POST', path: '/applications/revisions/resolve', side: 'query' },
  'evaluators.revisions.resolve': { method: 'POST', path: '/evaluators/revisions/resolve', side: 'query' },
  'workflows.revisions.resolve': { method: 'POST', path: '/workflows/revisions/resolve', side: 'query' },
  'environments.revisions.resolve': { method: 'POST', path: '/environments/revisions/resolve', side: 'query' },
  'applications.revisions.deploy': { method: 'POST', path: '/applications/revisions/deploy', side: 'command' },
  'evaluators.revisions.deploy': { method: 'POST', path: '/evaluators/revisions/deploy', side: 'command' },
  'workflows.revisions.deploy': { method: 'POST', path: '/workflows/revisions/deploy', side: 'command' },
  'simple.environments.guard': { method: 'POST', path: '/simple/environments/:environment_id/guard', side: 'command' },
  'simple.environments.unguard': { method: 'POST', path: '/simple/environments/:environment_id/unguard', side: 'command' },
  // testset files (reference evaluations §2.2): multipart uploads, CSV or JSON downloads
  'simple.testsets.upload': { method: 'POST', path: '/simple/testsets/upload', side: 'command', rawBody: true },
  'simple.testsets.upload_edit': { method: 'POST', path: '/simple/testsets/:testset_id/upload', side: 'command', rawBody: true },
  'simple.testsets.download': { method: 'POST', path: '/simple/testsets/:testset_id/download', side: 'query' },
  'testsets.revisions.upload': { method: 'POST', path: '/testsets/revisions/:testset_revision_id/upload', side: 'command', rawBody: true },
  'testsets.revisions.download': { method: 'POST', path: '/testsets/revisions/:testset_revision_id/download', side: 'query' },
  // annotations (reference evaluations §2.1, §3.6): one-span traces through the span pipeline
  'annotations.create': { method: 'POST', path: '/annotations', side: 'command' },
  // the agenta:custom:mock:v0 workflow service (§3.7): one invocation, its trace through the span pipeline
  'services.mock.invoke': { method: 'POST', path: '/services/mock/v0/invoke', side: 'command' },
  'annotations.fetch': { method: 'GET', path: '/annotations/:trace_id', side: 'query' },
  'annotations.edit': { method: 'PATCH', path: '/annotations/:trace_id', side: 'command' },
  'annotations.delete': { method: 'DELETE', path: '/annotations/:trace_id', side: 'command' },
  'annotations.query': { method: 'POST', path: '/annotations/query', side: 'query' },
  // a testset's content-addressed rows (reference evaluations §2.2)
  'testcases.list': { method: 'GET', path: '/testcases', side: 'query' },
  'testcases.fetch': { method: 'GET', path: '/testcases/:testcase_id', side: 'query' },
  'testcases.query': { method: 'POST', path: '/testcases/query', side: 'query' },
  // human evaluations (reference accounts §12), on applications and testsets of the artifact model
  'human_evaluations.list': { method: 'GET', path: '/human-evaluations', side: 'query' },
  'human_evaluations.create': { method: 'POST', path: '/human-evaluations', side: 'command' },
  // the events log (reference accounts §10): ClickHouse projection of platform.events.v1
  'events.query': { method: 'POST', path: '/events/query', side: 'query' },
  // the caller's project (the Agenta SDK resolves its scope with it)
  'projects.current': { method: 'GET', path: '/projects/current', side: 'query' },
  // the reference's health check (no credentials) and the caller's user (reference accounts §13, healthchecks suite)
  'health.check': { method: 'GET', path: '/health', side: 'query' },
  'profile.fetch': { method: 'GET', path: '/profile', side: 'query' },
  // a project's own retention (issue 30): accounts.project.retention_set keyed by the organization
  'projects.update': { method: 'PATCH', path: '/projects/:project_id', side: 'command' },
  // evaluation runs (reference evaluations §2.3): evaluations.v1 events keyed `<project_id>:<run_id>`,
  // applied by projector-evaluations (packages/evaluation-model)
  'evaluations.runs.create': { method: 'POST', path: '/evaluations/runs', side: 'command' },
  'evaluations.runs.edit': { method: 'PATCH', path: '/evaluations/runs', side: 'command' },
  'evaluations.runs.delete': { method: 'DELETE', path: '/evaluations/runs', side: 'command' },
  'evaluations.runs.query': { method: 'POST', path: '/evaluations/runs/query', side: 'query' },
  'evaluations.runs.close': { method: 'POST', path: '/evaluations/runs/close', side: 'command' },
  'evaluations.runs.open': { method: 'POST', path: '/evaluations/runs/open', side: 'command' },
  'evaluations.runs.fetch': { method: 'GET', path: '/evaluations/runs/:run_id', side: 'query' },
  'evaluations.runs.edit_one': { method: 'PATCH', path: '/evaluations/runs/:run_id', side: 'command' },
  'evaluations.runs.delete_one': { method: 'DELETE', path: '/evaluations/runs/:run_id', side: 'command' },
  'evaluations.runs.close_one': { method: 'POST', path: '/evaluations/runs/:run_id/close', side: 'command' },
  'evaluations.runs.open_one': { method: 'POST', path: '/evaluations/runs/:run_id/open', side: 'command' },
  // queues of a run (§2.8, §3.5): evaluations.queues.* on the run's stream; the default queue reconciled after run writes
  'evaluations.runs.default_queue': { method: 'GET', path: '/evaluations/runs/:run_id/queues/default', side: 'query' },
  'evaluations.queues.create': { method: 'POST', path: '/evaluations/queues', side: 'command' },
  'evaluations.queues.edit': { method: 'PATCH', path: '/evaluations/queues', side: 'command' },
  'evaluations.queues.delete': { method: 'DELETE', path: '/evaluations/queues', side: 'command' },
  'evaluations.queues.query': { method: 'POST', path: '/evaluations/queues/query', side: 'query' },
  'evaluations.queues.fetch': { method: 'GET', path: '/evaluations/queues/:queue_id', side: 'query' },
  'evaluations.queues.edit_one': { method: 'PATCH', path: '/evaluations/queues/:queue_id', side: 'command' },
  'evaluations.queues.delete_one': { method: 'DELETE', path: '/evaluations/queues/:queue_id', side: 'command' },
  'evaluations.queues.scenarios': { method: 'POST', path: '/evaluations/queues/:queue_id/scenarios/query', side: 'query' },
  'evaluations.scenarios.create': { method: 'POST', path: '/evaluations/scenarios', side: 'command' },
  'evaluations.scenarios.edit': { method: 'PATCH', path: '/evaluations/scenarios', side: 'command' },
  'evaluations.scenarios.delete': { method: 'DELETE', path: '/evaluations/scenarios', side: 'command' },
  'evaluations.scenarios.query': { method: 'POST', path: '/evaluations/scenarios/query', side: 'query' },
  'evaluations.scenarios.fetch': { method: 'GET', path: '/evaluations/scenarios/:scenario_id', side: 'query' },
  'evaluations.scenarios.edit_one': { method: 'PATCH', path: '/evaluations/scenarios/:scenario_id', side: 'command' },
  'evaluations.scenarios.delete_one': { method: 'DELETE', path: '/evaluations/scenarios/:scenario_id', side: 'command' },
  'evaluations.results.create': { method: 'POST', path: '/evaluations/results', side: 'command' },
  'evaluations.results.set': { method: 'PUT', path: '/evaluations/results', side: 'command' },
  'evaluations.results.edit': { method: 'PATCH', path: '/evaluations/results', side: 'command' },
  'evaluations.results.delete': { method: 'DELETE', path: '/evaluations/results', side: 'command' },
  'evaluations.results.query': { method: 'POST', path: '/evaluations/results/query', side: 'query' },
  'evaluations.results.fetch': { method: 'GET', path: '/evaluations/results/:result_id', side: 'query' },
  'evaluations.results.delete_one': { method: 'DELETE', path: '/evaluations/results/:result_id', side: 'command' },
  'evaluations.metrics.create': { method: 'POST', path: '/evaluations/metrics', side: 'command' },
  'evaluations.metrics.set': { method: 'PUT', path: '/evaluations/metrics', side: 'command' },
  'evaluations.metrics.edit': { method: 'PATCH', path: '/evaluations/metrics', side: 'command' },
  'evaluations.metrics.delete': { method: 'DELETE', path: '/evaluations/metrics', side: 'command' },
  'evaluations.metrics.query': { method: 'POST', path: '/evaluations/metrics/query', side: 'query' },
  'evaluations.metrics.refresh': { method: 'POST', path: '/evaluations/metrics/refresh', side: 'command' },
  'evaluations.metrics.fetch': { method: 'GET', path: '/evaluations/metrics/:metric_id', side: 'query' },
  'evaluations.metrics.delete_one': { method: 'DELETE', path: '/evaluations/metrics/:metric_id', side: 'command' },
  // the SDK's slice routes of a simple evaluation (§2.4): the same run events
  'simple.evaluations.scenarios.add': { method: 'POST', path: '/simple/evaluations/:evaluation_id/scenarios/add', side: 'command' },
  'simple.evaluations.populate': { method: 'POST', path: '/simple/evaluations/:evaluation_id/populate', side: 'command' },
  // simple queues (§2.8): a queue with the run built for it (direct: traces/testcases; source-backed: queries/testsets)
  'simple.queues.create': { method: 'POST', path: '/simple/queues', side: 'command' },
  'simple.queues.query': { method: 'POST', path: '/simple/queues/query', side: 'query' },
  'simple.queues.delete': { method: 'DELETE', path: '/simple/queues', side: 'command' },
  'simple.queues.fetch': { method: 'GET', path: '/simple/queues/:queue_id', side: 'query' },
  'simple.queues.delete_one': { method: 'DELETE', path: '/simple/queues/:queue_id', side: 'command' },
  'simple.queues.scenarios': { method: 'POST', path: '/simple/queues/:queue_id/scenarios/query', side: 'query' },
  'simple.queues.traces.add': { method: 'POST', path: '/simple/queues/:queue_id/traces', side: 'command' },
  'simple.queues.testcases.add': { method: 'POST', path: '/simple/queues/:queue_id/testcases', side: 'command' },
  'simple.evaluations.query': { method: 'POST', path: '/simple/evaluations/query', side: 'query' },
  'simple.evaluations.create': { method: 'POST', path: '/simple/evaluations', side: 'command' },
  'simple.evaluations.fetch': { method: 'GET', path: '/simple/evaluations/:evaluation_id', side: 'query' },
  'simple.evaluations.delete': { method: 'DELETE', path: '/simple/evaluations/:evaluation_id', side: 'command' },
  'simple.evaluations.edit': { method: 'PATCH', path: '/simple/evaluations/:evaluation_id', side: 'command' },
  'simple.evaluations.start': { method: 'POST', path: '/simple/evaluations/:evaluation_id/start', side: 'command' },
  'simple.evaluations.stop': { method: 'POST', path: '/simple/evaluations/:evaluation_id/stop', side: 'command' },
  'simple.evaluations.close': { method: 'POST', path: '/simple/evaluations/:evaluation_id/close', side: 'command' },
  'simple.evaluations.open': { method: 'POST', path: '/simple/evaluations/:evaluation_id/open', side: 'command' },
  'simple.evaluations.scenarios.remove': { method: 'POST', path: '/simple/evaluations/:evaluation_id/scenarios/remove', side: 'command' },
  'simple.evaluations.probe': { method: 'POST', path: '/simple/evaluations/:evaluation_id/probe', side: 'query' },
  'simple.evaluations.prune': { method: 'POST', path: '/simple/evaluations/:evaluation_id/prune', side: 'command' },
  'simple.evaluations.refresh': { method: 'POST', path: '/simple/evaluations/:evaluation_id/refresh', side: 'command' },
  // server-side execution (§3.7, §4.2): evaluations.run.dispatched, recorded in evaluation_dispatches by
  // projector-evaluations, executed by the command side's evaluation worker
  'simple.evaluations.process': { method: 'POST', path: '/simple/evaluations/:evaluation_id/process', side: 'command' },
  'simple.evaluations.steps.add': { method: 'POST', path: '/simple/evaluations/:evaluation_id/steps/add', side: 'command' },
  'simple.evaluations.steps.remove': { method: 'POST', path: '/simple/evaluations/:evaluation_id/steps/remove', side: 'command' },
  'simple.evaluations.repeats.set': { method: 'POST', path: '/simple/evaluations/:evaluation_id/repeats/set', side: 'command' },
  // a project's redaction policy (issue 30): accounts.redaction.policy_set keyed project:<id>:redaction; the
  // command side applies it before every span append, so it serves the reads too
  'projects.redaction.fetch': { method: 'GET', path: '/projects/:project_id/redaction', side: 'query' },
  'projects.redaction.set': { method: 'PUT', path: '/projects/:project_id/redaction', side: 'command' },
  'projects.redaction.delete': { method: 'DELETE', path: '/projects/:project_id/redaction', side: 'command' },
  // operations, served by the process that runs projector-spans (it owns the span store)
  'admin.replay': { method: 'POST', path: '/admin/replay/:model', side: 'projector' },
  // the API description generated from these contracts (packages/openapi) and its rendered page
  'docs.openapi': { method: 'GET', path: '/openapi.json', side: 'query' },
  'docs.page': { method: 'GET', path: '/docs', side: 'query' },
  'docs.asset': { method: 'GET', path: '/docs/assets/:file', side: 'query' },
} as const satisfies Record<string, RouteDef>;

export type RouteId = keyof typeof ROUTES;
export type RouteIdOf<S extends Side> = { [K in RouteId]: (typeof ROUTES)[K]['side'] extends S ? K : never }[RouteId];

export const routesOf = (side: Side): RouteId[] => (Object.keys(ROUTES) as RouteId[]).filter((k) => ROUTES[k].side === side);

/** Strips any number of leading `/api` segments (clients of the reference system use the prefix). */
export function stripApiPrefix(url: string): string {
  let u = url;
  while (u === '/api' || u.startsWith('/api/') || u.startsWith('/api?')) u = u.slice(4) || '/';
  if (u.startsWith('?')) u = '/' + u;
  return u;
}
