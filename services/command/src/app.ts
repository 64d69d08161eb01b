// The command side: validates, authorizes and appends events. It never writes a read model.
import type { Topics } from '@llm/events';
import type { Producer } from '@llm/kafka';
import type { Pool } from '@llm/postgres';
import { adminAuthenticator, apiKeyAuthenticator, organizationGuard, postgresApiKeyLookup, requirePermission, type ApiKeyAuthenticator } from '@llm/auth';
import type { Handlers } from '@llm/http';
import { SpanAppender } from './ingest/adapters/span-appender.ts';
import { quotaGate } from './quota/adapters/quota-gate.ts';
import type { Logger } from '@llm/logging';
import { AccountAppender } from './accounts/adapters/account-appender.ts';
import { AccountCommands } from './accounts/adapters/account-commands.ts';
import { ProviderSecrets } from './vault/adapters/provider-secrets.ts';
import { tracingRoutes } from './ingest/http/tracing-routes.ts';
import type { TraceLookup } from './ingest/adapters/trace-lookup.ts';
import type { TraceMetrics } from '@llm/span-read';
import { otlpRoutes } from './ingest/http/otlp-routes.ts';
import { OtlpWorkerPool } from './ingest/adapters/otlp-worker-pool.ts';
import { OtlpIngest } from './ingest/adapters/otlp-ingest.ts';
import { adminRoutes } from './admin/http/admin-routes.ts';
import { savedQueryRoutes } from './accounts/http/saved-query-routes.ts';
import { domainRoutes } from './accounts/http/domain-routes.ts';
import { verifyTxt } from '@llm/dns-verify';
import { postgresPlanResolver } from '@llm/account-model';
import type { RetentionHorizons } from '@llm/accounts-read';
import { entitlement, type AccessCatalog, type PlanResolver } from '@llm/access';
import { createOutboundClient } from '@llm/outbound';
import { apiKeyOrSession, sessionReader } from '@llm/auth';
import { createSessionAssertionVerifier, createSessionCodec, createSsoStateCodec } from '@llm/web-session';
import { ssoRoutes } from './accounts/http/sso-routes.ts';
import { sessionRoutes } from './accounts/http/session-routes.ts';
import { organizationRoutes } from './accounts/http/organization-routes.ts';
import { projectRoutes } from './accounts/http/project-routes.ts';
import { redactionRoutes } from './accounts/http/redaction-routes.ts';
import { RedactionPolicies, postgresPolicyReader } from './ingest/adapters/redaction-policies.ts';
import { providerRoutes } from './accounts/http/provider-routes.ts';
import { apiKeyRoutes } from './accounts/http/api-key-routes.ts';
import { membershipRoutes } from './admin/http/membership-routes.ts';
import { adminEntityRoutes } from './admin/http/admin-entity-routes.ts';
import { adminStructureRoutes } from './admin/http/admin-structure-routes.ts';
import { adminTransferRoutes } from './admin/http/admin-transfer-routes.ts';
import { adminGraphRoutes } from './admin/http/admin-graph-routes.ts';
import { IngestPressure, type IngestPressureOptions } from './ingest/adapters/ingest-pressure.ts';
import { secretRoutes } from './vault/http/secret-routes.ts';
import { providerProbeRoutes } from './accounts/http/provider-probe-routes.ts';
import { subscriptionLoginRoutes } from './vault/http/subscription-login-routes.ts';
import { AgentRunner } from './vault/adapters/agent-runner.ts';
import type { SignInOptions } from './sign-in-config.ts';
import { webhookRoutes } from './webhooks/http/webhook-routes.ts';
import { humanEvaluationRoutes } from './accounts/http/human-evaluation-routes.ts';
import { artifactWriteRoutes } from './artifacts/http/artifact-routes.ts';
import { ArtifactWrites } from './artifacts/adapters/artifact-writes.ts';
import { annotationRoutes } from './annotations/http/annotation-routes.ts';
import { AnnotationEvaluators } from './annotations/adapters/annotation-evaluators.ts';
import { TraceWrites } from './ingest/adapters/trace-writes.ts';
import { EvaluationCommands } from './evaluations/adapters/evaluation-commands.ts';
import { runRoutes } from './evaluations/http/run-routes.ts';
import { cellRoutes } from './evaluations/http/cell-routes.ts';
import { metricRefreshRoutes } from './evaluations/http/metric-refresh-routes.ts';
import { simpleEvaluationRoutes } from './evaluations/http/simple-evaluation-routes.ts';
import { MetricsRefresh } from './evaluations/adapters/metrics-refresh.ts';
import { WorkflowInvoker } from './evaluations/adapters/workflow-invoker.ts';
import { RunExecutor } from './evaluations/worker/run-executor.ts';
import { DispatchWorker } from './evaluations/worker/dispatch-worker.ts';
import { mockServiceRoutes } from './evaluations/http/mock-service-routes.ts';
import { queueRoutes } from './evaluations/http/queue-routes.ts';
import { simpleQueueRoutes } from './evaluations/http/simple-queue-routes.ts';
import { liveRunRoutes } from './evaluations/http/live-run-routes.ts';
import type { EvaluationWorkerSettings } from './evaluations/metrics-refresh-config.ts';
import type { SearchDeps } from '@llm/span-read';
import { deliveryRoutes } from './webhooks/http/delivery-routes.ts';
import { createPaymentsProcessor, type BillingConfig, type PaymentsProcessor } from '@llm/billing';
import { BillingSubscriptions } from './billing/adapters/billing-subscriptions.ts';
import { billingSignupPlans } from './billing/adapters/billing-signup.ts';
import { runHeadlessInit } from './init/headless-init.ts';
import type { HeadlessInit } from './headless-init-config.ts';
import { organizationLifecycleRoutes } from './accounts/http/organization-lifecycle-routes.ts';
import { invitationRoutes } from './accounts/http/invitation-routes.ts';
import { billingRoutes } from './billing/http/billing-routes.ts';
import { billingEventRoutes } from './billing/http/billing-events-routes.ts';

export interface CommandDeps {
  producer: Producer;
  topics: Topics;
  pool: Pool;
  adminToken: string;
  otlpMaxBatchBytes: number;
  /** Worker threads preparing OTLP bodies (0 = on the request thread). */
  otlpWorkers: number;
  /** Plan catalog: entitlement flags of organization features. */
  access: AccessCatalog;
  /** Resolvers for domain verification (validated `ip[:port]`); empty = the system's. */
  dns: { servers: string[]; timeoutMs: number };
  /** Browser sessions, sealed provider secrets, the outbound guard, public URLs. */
  signIn: SignInOptions;
  /** One API-key authenticator shared with the query side in one process (revocations drop its cache). */
  apiKeys?: ApiKeyAuthenticator;
  /** Organizations' plans, shared with the query side in one process (plan changes drop its cache). */
  plans?: PlanResolver;
  /** Projects' retention horizons, shared with the query side in one process (a retention change drops its cache). */
  horizons?: Pick<RetentionHorizons, 'invalidate'>;
  /** Billing (loadBillingConfig): the payments processor, catalog, pricing, signup plans. */
  billing: BillingConfig;
  /** Reads stored simple traces for PATCH/DELETE /simple/traces/{id} (the query side's span
   * reader); none = those routes answer 503. */
  traces?: TraceLookup;
  /** Summaries of traces for evaluation metrics (ClickHouse); absent → POST /evaluations/metrics/refresh answers 503. */
  traceMetrics?: TraceMetrics;
  /** How long a metrics refresh waits for its cells' traces (METRICS_TRACE_WAIT_MS). */
  metricsTraceWaitMs?: number;
  /** Trace searches (ClickHouse) for the evaluation worker's runs over saved queries; absent → such runs fail with a reason. */
  traceSearch?: SearchDeps;
  /** The evaluation worker (EVALUATION_WORKER_*); absent or concurrency 0 = no worker in this process. */
  evaluationWorker?: EvaluationWorkerSettings;
  /** Ingest admission under overload (ingest-pressure-config.ts); absent = only the backlog bound, no lag watch. */
  ingestPressure?: IngestPressureOptions;
  /** Overrides the processor of `billing` (tests); null = Stripe not configured. */
  processor?: PaymentsProcessor | null;
  log: Logger;
}

export interface CommandSide {
  handlers: Handlers;
  /** What the OTLP receivers on their own ports share with /otlp/v1/traces (otlp-receivers.ts). */
  otlp: { ingest: OtlpIngest; auth: ApiKeyAuthenticator };
  /** Creates the INIT_* account unless it exists (init/headless-init.ts); run once before serving. */
  initialise(init: HeadlessInit): Promise<'created' | 'unchanged'>;
  close(): Promise<void>;
}

export function createCommandSide(deps: CommandDeps): CommandSide {
  const auth = deps.apiKeys ?? apiKeyAuthenticator({ lookup: postgresApiKeyLookup(deps.pool) });
  const plans = deps.plans ?? postgresPlanResolver(deps.pool, deps.access);
  const spans = new SpanAppender(deps.producer, deps.topics);
  const quota = quotaGate(deps.pool, plans, deps.access, deps.log);
  const workers = new OtlpWorkerPool(deps.otlpWorkers);
  const pressure = new IngestPressure(deps.ingestPressure ?? { lagTargetMs: 0, lagHardMs: 1, staleMs: 5_000, maxPendingBytes: 128 * 1024 * 1024 });
  // Projects' redaction policies, cached like plans (ACCESS_PLAN_CACHE_MS): one lookup per ingest request.
  const redaction = new RedactionPolicies(postgresPolicyReader(deps.pool), deps.access.planCacheMs);
  const otlp = new OtlpIngest(spans, workers, quota, pressure, deps.otlpMaxBatchBytes, redaction);
  const accounts = new AccountAppender(deps.producer, deps.topics);
  const commands = new AccountCommands(accounts, deps.pool);
  const artifacts = new ArtifactWrites({ commands, pool: deps.pool });
  const evaluations = new EvaluationCommands(deps.producer, deps.topics, deps.pool);
  const metricsRefresh = new MetricsRefresh(deps.pool, evaluations, deps.traceMetrics, { traceWaitMs: deps.metricsTraceWaitMs });
  const providerSecrets = new ProviderSecrets(deps.pool, deps.signIn.secrets);
  const sessions = createSessionCodec(deps.signIn.session);
  const readSession = sessionReader({ codec: sessions, pool: deps.pool });
  const outbound = createOutboundClient(deps.signIn.outbound);
  // Server-side execution (reference evaluations §3.7, §4.2): workflows invoked for runs' cells; their traces go through the span pipeline.
  const traceWrites = new TraceWrites({ appender: spans, quota, pressure, redaction });
  const invoker = new WorkflowInvoker({ traces: traceWrites, outbound });
  const worker = deps.evaluationWorker && deps.evaluationWorker.concurrency > 0
    ? new DispatchWorker(deps.pool, new RunExecutor({ pool: deps.pool, evaluations, refresh: metricsRefresh, invoker, concurrency: deps.evaluationWorker.concurrency, log: deps.log, search: deps.traceSearch }),
      evaluations, deps.log, { pollMs: deps.evaluationWorker.pollMs, leaseMs: deps.evaluationWorker.leaseMs, maxAttempts: 3 })
    : undefined;
  worker?.start();
  // Organization routes: an API key, or a browser session admitted by the organization's policy.
  const member = apiKeyOrSession({ pool: deps.pool, apiKey: auth, readSession, deployment: deps.signIn.deployment });
  const processor = deps.processor !== undefined ? deps.processor : createPaymentsProcessor(deps.billing);
  const subscriptions = new BillingSubscriptions(commands, deps.pool, plans);
  const billing = { config: deps.billing, processor, subscriptions };
  // Operator routes: the admin token (one chain for all of them).
  const admin = { admin: [adminAuthenticator(deps.adminToken)] };
  return {
    handlers: {
      ...tracingRoutes({ appender: spans, quota, traces: deps.traces, pressure, redaction }, { auth: [auth], editSpans: [requirePermission(deps.pool, 'edit_spans')] }),
      ...otlpRoutes({ ingest: otlp }, { auth: [auth] }),
      ...adminRoutes({ commands, pool: deps.pool, plans: billingSignupPlans({ ...billing, access: deps.access }), forgetKey: (prefix) => auth.invalidate(prefix) }, admin),
      ...membershipRoutes({ pool: deps.pool, commands, forgetKey: (prefix) => auth.invalidate(prefix) }, admin),
      ...adminEntityRoutes({
        pool: deps.pool, commands, plans: billingSignupPlans({ ...billing, access: deps.access }), forgetKey: (prefix) => auth.invalidate(prefix),
      }, admin),
      ...adminStructureRoutes({ pool: deps.pool, commands, forgetKey: (prefix) => auth.invalidate(prefix) }, admin),
      ...adminTransferRoutes({ pool: deps.pool, commands }, admin),
      ...adminGraphRoutes({
        pool: deps.pool, commands, plans: billingSignupPlans({ ...billing, access: deps.access }), forgetKey: (prefix) => auth.invalidate(prefix),
      }, admin),
      ...savedQueryRoutes({ writes: artifacts, pool: deps.pool }, { edit: [member, requirePermission(deps.pool, 'edit_queries')] }),
      ...sessionRoutes({
        commands, sessions, readSession,
        assertions: deps.signIn.sessionAssertionSecrets ? createSessionAssertionVerifier({ secrets: deps.signIn.sessionAssertionSecrets }) : undefined,
      }, {}),
      ...ssoRoutes({
        pool: deps.pool, commands, sessions, ssoState: createSsoStateCodec({ secrets: deps.signIn.session.secrets, ...(deps.signIn.session.secure !== undefined && { secure: deps.signIn.session.secure }) }),
        openSecret: (organizationId, providerId, sealed) => providerSecrets.open(organizationId, providerId, sealed), fetch: (url, init) => outbound.fetch(url, init),
        allowInsecure: deps.signIn.outbound.allowInsecure === true, publicBaseUrl: deps.signIn.publicBaseUrl, frontendUrl: deps.signIn.frontendUrl,
      }, {}),
      ...organizationLifecycleRoutes({
        pool: deps.pool, commands, plans: billingSignupPlans({ ...billing, access: deps.access }), forgetKey: (prefix) => auth.invalidate(prefix),
      }, { member: [member] }),
      // Workspace invitations (no mail: the inviter gets the link) and member removal.
      ...invitationRoutes({
        pool: deps.pool, commands, frontendUrl: deps.signIn.frontendUrl, publicBaseUrl: deps.signIn.publicBaseUrl, apiKey: auth, readSession,
      }, { member: [member] }),
      ...organizationRoutes({
        pool: deps.pool, commands, deployment: deps.signIn.deployment,
        mayChangeFlags: entitlement(deps.access, plans, 'access'),
      }, { member: [member] }),
      ...providerRoutes({
        pool: deps.pool, commands, secrets: providerSecrets,
        fetch: (url, init) => outbound.fetch(url, init), allowInsecure: deps.signIn.outbound.allowInsecure === true,
      }, { edit: [member, organizationGuard({ pool: deps.pool, entitled: entitlement(deps.access, plans, 'sso') }), requirePermission(deps.pool, 'edit_organization_auth')] }),
      ...apiKeyRoutes({ pool: deps.pool, commands, authenticator: auth }, { view: [member], edit: [requirePermission(deps.pool, 'edit_api_keys')] }),
      // A project's own retention, never longer than its plan's (issue 30).
      ...projectRoutes({
        pool: deps.pool, commands, plans, access: deps.access, ...(deps.horizons && { retentionChanged: (id: string) => deps.horizons?.invalidate(id) }),
      }, { edit: [member, requirePermission(deps.pool, 'edit_project')] }),
      // A project's redaction policy, applied above before every span append (issue 30).
      ...redactionRoutes({ pool: deps.pool, commands, policies: redaction }, { view: [member, requirePermission(deps.pool, 'view_spans')], edit: [requirePermission(deps.pool, 'edit_project')] }),
      // One read of a provider's model list through the same outbound guard; nothing is stored.
      ...providerProbeRoutes({ request: (url, init) => outbound.request(url, init), options: deps.signIn.providerProbe }, { edit: [member, requirePermission(deps.pool, 'edit_secret')] }),
      ...secretRoutes({ pool: deps.pool, commands, keyring: deps.signIn.secrets, allowInsecure: deps.signIn.outbound.allowInsecure === true },
        { view: [member, requirePermission(deps.pool, 'view_secret')], edit: [member, requirePermission(deps.pool, 'edit_secret')] }),
      // Subscription logins: the browser signs in through the agent runner; the runner (both permissions) pushes refreshed logins.
      ...subscriptionLoginRoutes({ pool: deps.pool, commands, keyring: deps.signIn.secrets, runner: new AgentRunner(deps.signIn.agentRunner) },
        { browser: [member, requirePermission(deps.pool, 'edit_secret')], runner: [member, requirePermission(deps.pool, 'run_sessions'), requirePermission(deps.pool, 'use_mounts')] }),
      // Webhook subscriptions (their signing secrets live in the vault) and recorded deliveries.
      ...webhookRoutes({ pool: deps.pool, commands, keyring: deps.signIn.secrets, outbound, producer: deps.producer, topics: deps.topics, timeoutMs: deps.signIn.webhookTimeoutMs },
        { view: [member, requirePermission(deps.pool, 'view_webhooks')], edit: [member, requirePermission(deps.pool, 'edit_webhooks')] }),
      ...deliveryRoutes({ pool: deps.pool, producer: deps.producer, topics: deps.topics }, { edit: [member, requirePermission(deps.pool, 'edit_webhooks')] }),
      // Versioned artifacts (reference evaluations §1.2): testsets and the workflow family's three views.
      ...artifactWriteRoutes({ pool: deps.pool, writes: artifacts }, {
        testset: { edit: [member, requirePermission(deps.pool, 'edit_testsets')] }, application: { edit: [member, requirePermission(deps.pool, 'edit_applications')] },
        evaluator: { edit: [member, requirePermission(deps.pool, 'edit_evaluators')] }, workflow: { edit: [member, requirePermission(deps.pool, 'edit_workflows')] },
        environment: { edit: [member, requirePermission(deps.pool, 'edit_environments')] }, deploy: { deploy: [member, requirePermission(deps.pool, 'deploy_environments')] },
      }),
      // Annotations: one-span traces through the span pipeline, judged by an evaluator artifact (reference evaluations §2.1).
      ...annotationRoutes({
        pool: deps.pool, traces: traceWrites, lookup: deps.traces,
        evaluators: new AnnotationEvaluators({ pool: deps.pool, writes: artifacts }),
      }, { edit: [member, requirePermission(deps.pool, 'edit_annotations')] }),
      // Human evaluations of those applications and testsets (reference accounts §12).
      ...humanEvaluationRoutes({ pool: deps.pool, commands, quota }, { createEvaluations: [member, requirePermission(deps.pool, 'create_evaluation')] }),
      // Evaluation runs, scenarios, results and metrics (reference evaluations §2.3): evaluations.v1, keyed by run.
      ...runRoutes({ pool: deps.pool, evaluations, quota }, { edit: [member, requirePermission(deps.pool, 'edit_evaluation_runs')] }),
      ...cellRoutes({ pool: deps.pool, evaluations }, { edit: [member, requirePermission(deps.pool, 'edit_evaluation_runs')] }),
      ...queueRoutes({ pool: deps.pool, evaluations }, { edit: [member, requirePermission(deps.pool, 'edit_evaluation_runs')] }),
      // The live-run cron: operator routes take the admin token.
      ...liveRunRoutes({ pool: deps.pool, evaluations, log: deps.log }, admin),
      ...simpleQueueRoutes({ pool: deps.pool, evaluations, quota }, { edit: [member, requirePermission(deps.pool, 'edit_evaluation_runs')] }),
      ...metricRefreshRoutes({ refresh: metricsRefresh }, { edit: [member, requirePermission(deps.pool, 'edit_evaluation_runs')] }),
      ...simpleEvaluationRoutes({ pool: deps.pool, evaluations, refresh: metricsRefresh, quota }, { edit: [member, requirePermission(deps.pool, 'edit_evaluation_runs')] }),
      // The mock workflow service (agenta:custom:mock:v0): an invocation writes a trace, so it needs edit_spans.
      ...mockServiceRoutes({ invoker }, { invoke: [member, requirePermission(deps.pool, 'edit_spans')] }),
      // Billing: reads need view_billing, writes edit_billing (the owner); processor events are public (signed).
      ...billingRoutes({ ...billing, access: deps.access }, { view: [member, requirePermission(deps.pool, 'view_billing')], edit: [member, requirePermission(deps.pool, 'edit_billing')] }),
      ...billingEventRoutes({ ...billing, planSlugs: Object.keys(deps.access.plans) }, {}),
      ...domainRoutes({ commands, pool: deps.pool, proof: (domain, token) => verifyTxt(domain, token, deps.dns) }, {
        edit: [member, organizationGuard({ pool: deps.pool, entitled: entitlement(deps.access, plans, 'domains') }), requirePermission(deps.pool, 'edit_organization_auth')],
      }),
    },
    otlp: { ingest: otlp, auth },
    initialise: (init) => runHeadlessInit({ commands, pool: deps.pool, plans: billingSignupPlans({ ...billing, access: deps.access }), log: deps.log }, init),
    close: async () => { await worker?.stop(); await workers.close(); },
  };
}
