// The query side: answers every read from the read models only.
import type { Clickhouse } from '@llm/clickhouse';
import type { Pool } from '@llm/postgres';
import { apiKeyAuthenticator, organizationGuard, postgresApiKeyLookup, requirePermission, type ApiKeyAuthenticator } from '@llm/auth';
import type { Handlers } from '@llm/http';
import { ReadModel, SpanReader, timedPool } from '@llm/span-read';
import { SpanSearcher } from '@llm/span-read';
import { ActivitySearcher } from './adapters/activity-search.ts';
import { readRoutes } from './http/read-routes.ts';
import { queryRoutes } from './http/query-routes.ts';
import { EXPORT_PAGE_BYTES, EXPORT_PAGE_SPANS, exportRoutes } from './http/export-routes.ts';
import { ExportEstimator } from './adapters/export-estimate.ts';
import { ExportReader } from './adapters/export-reader.ts';
import { activityRoutes } from './http/activity-routes.ts';
import { accessRoutes } from './http/access-routes.ts';
import { domainRoutes } from './http/domain-routes.ts';
import { entitlement, type AccessCatalog, type PlanResolver } from '@llm/access';
import type { CatalogConfig } from '@llm/billing';
import { postgresPlanResolver } from '@llm/account-model';
import { retentionHorizons, type RetentionHorizons } from '@llm/accounts-read';
import { billingRoutes } from './http/billing-routes.ts';
import { savedQueryRoutes } from './http/saved-query-routes.ts';
import { AnalyticsReader } from './adapters/analytics-reader.ts';
import { analyticsRoutes } from './http/analytics-routes.ts';
import { authRoutes } from './http/auth-routes.ts';
import { organizationRoutes } from './http/organization-routes.ts';
import { apiKeyRoutes } from './http/api-key-routes.ts';
import { apiKeyOrSession, sessionReader } from '@llm/auth';
import type { DeploymentMethods } from '@llm/auth-policy';
import { createSessionCodec, type SessionCodecOptions } from '@llm/web-session';
import { deliveryRoutes } from './http/delivery-routes.ts';
import { eventRoutes } from './http/event-routes.ts';
import { projectRoutes } from './http/project-routes.ts';
import { profileRoutes } from './http/profile-routes.ts';
import { simpleTraceRoutes } from './http/simple-trace-routes.ts';
import { humanEvaluationRoutes } from './http/human-evaluation-routes.ts';
import { artifactsReadRoutes } from './http/artifact-routes.ts';
import { testcaseRoutes } from './http/testcase-routes.ts';
import { catalogRoutes } from './http/catalog-routes.ts';
import { testsetDownloadRoutes } from './http/testset-download-routes.ts';
import { annotationRoutes } from './http/annotation-routes.ts';
import { evaluationRunRoutes } from './http/evaluation-run-routes.ts';
import { evaluationQueueRoutes } from './http/evaluation-queue-routes.ts';
import { simpleQueueRoutes } from './http/simple-queue-routes.ts';
import { redactionRoutes } from './http/redaction-routes.ts';
import { EventReader } from './adapters/event-reader.ts';
import type { EventRecorder } from './adapters/event-recorder.ts';
import { docsRoutes } from '@llm/openapi';

export interface QueryDeps {
  ch: Clickhouse;
  pool: Pool;
  /** Longest a read-model query may run before the request answers 503 (default 15 s). */
  queryTimeoutMs?: number;
  /** Approximate stored bytes one read may return (default 64 MiB): reads by id above it are 413,
   * pages end early with a cursor. */
  maxResultBytes?: number;
  /** Plan catalog (GET /access/plans, entitlement flags). */
  access: AccessCatalog;
  /** The billing catalog and pricing (GET /billing/plans, /catalog, /pricing; loadBillingConfig). */
  catalog: CatalogConfig;
  /** Session cookies (the secrets that verify them). */
  session: SessionCodecOptions;
  /** Sign-in methods the deployment offers outside organization policies. */
  deployment: DeploymentMethods;
  /** One API-key authenticator shared with the command side in one process. */
  apiKeys?: ApiKeyAuthenticator;
  /** Organizations' plans, shared with the command side in one process (its plan changes show at once). */
  plans?: PlanResolver;
  /** Projects' retention horizons, shared with the command side in one process (a PATCH shows at once). */
  horizons?: RetentionHorizons;
  /** Where read events (traces.fetched / traces.queried) go; none = reads are not recorded
   * (EVENTS_READ_RECORDING=false). The caller closes it after the HTTP side drained. */
  recorder?: EventRecorder;
}

export function queryHandlers(deps: QueryDeps): Handlers {
  deps = { ...deps, pool: timedPool(deps.pool) };
  const auth = deps.apiKeys ?? apiKeyAuthenticator({ lookup: postgresApiKeyLookup(deps.pool) });
  const plans = deps.plans ?? postgresPlanResolver(deps.pool, deps.access);
  // Every read of spans, events and deliveries is bounded by the project's retention (issue 30).
  const horizons = deps.horizons ?? retentionHorizons({ pool: deps.pool, plans, access: deps.access });
  const rm = new ReadModel(deps.ch, deps.queryTimeoutMs, (projectId) => horizons.horizonOf(projectId));
  const reader = new SpanReader(rm, deps.maxResultBytes);
  const searcher = new SpanSearcher(rm, deps.maxResultBytes);
  const readSession = sessionReader({ codec: createSessionCodec(deps.session), pool: deps.pool });
  // Organization routes: an API key, or a browser session admitted by the organization's policy.
  const member = apiKeyOrSession({ pool: deps.pool, apiKey: auth, readSession, deployment: deps.deployment });
  const recorder = deps.recorder ? { recorder: deps.recorder } : {};
  const key = { auth: [auth] };
  return {
    ...readRoutes({ reader, ...recorder }, key),
    ...queryRoutes({ reader, searcher, accounts: deps.pool, ...recorder }, key),
    ...savedQueryRoutes({ pool: deps.pool, traces: { reader, searcher, ...recorder } }, { view: [member, requirePermission(deps.pool, 'view_queries')] }),
    ...exportRoutes({
      reader, searcher, accounts: deps.pool, exporter: new ExportReader(rm, EXPORT_PAGE_SPANS, Math.min(reader.maxResultBytes, EXPORT_PAGE_BYTES)), estimator: new ExportEstimator(rm),
      ...recorder,
    }, key),
    ...activityRoutes({ reader: new ActivitySearcher(rm, reader) }, key), ...analyticsRoutes({ reader: new AnalyticsReader(rm) }, key), ...accessRoutes({ catalog: deps.access }, key),
    ...authRoutes({ pool: deps.pool, readSession, deployment: deps.deployment }, {}),
    ...organizationRoutes({ pool: deps.pool }, { member: [member], providers: [member, organizationGuard({ pool: deps.pool, entitled: entitlement(deps.access, plans, 'sso') })] }),
    ...apiKeyRoutes({ pool: deps.pool }, { view: [member, requirePermission(deps.pool, 'view_api_keys')] }),
    ...deliveryRoutes({
      pool: deps.pool, maxResultBytes: deps.maxResultBytes, retainedFrom: async (projectId) => {
        const from = (await horizons.horizonOf(projectId)).eventsFromUs;
        return from === undefined ? null : new Date(Math.floor(from / 1000));
      },
    }, { view: [member, requirePermission(deps.pool, 'view_webhooks')] }),
    ...eventRoutes({ events: new EventReader(rm), maxResultBytes: deps.maxResultBytes },
      { view: [member, requirePermission(deps.pool, 'view_events'), organizationGuard({ pool: deps.pool, entitled: entitlement(deps.access, plans, 'audit') })] }),
    ...billingRoutes({ pool: deps.pool, access: deps.access, plans, catalog: deps.catalog }, { view: [member, requirePermission(deps.pool, 'view_billing')] }),
    ...domainRoutes({ pool: deps.pool }, { view: [member, organizationGuard({ pool: deps.pool, entitled: entitlement(deps.access, plans, 'domains') })] }),
    ...projectRoutes({ pool: deps.pool }, { member: [member] }),
    ...profileRoutes({ pool: deps.pool }, { member: [member] }),
    ...simpleTraceRoutes({ reader, searcher }, { view: [auth, requirePermission(deps.pool, 'view_spans')] }),
    ...annotationRoutes({ reader, searcher }, { view: [member, requirePermission(deps.pool, 'view_annotations')] }),
    ...redactionRoutes({ pool: deps.pool }, { view: [member, requirePermission(deps.pool, 'view_spans')] }),
    ...evaluationRunRoutes({ pool: deps.pool }, { view: [member, requirePermission(deps.pool, 'view_evaluation_runs')] }),
    ...evaluationQueueRoutes({ pool: deps.pool }, { view: [member, requirePermission(deps.pool, 'view_evaluation_runs')] }),
    ...simpleQueueRoutes({ pool: deps.pool }, { view: [member, requirePermission(deps.pool, 'view_evaluation_runs')] }),
    // Versioned artifacts (reference evaluations §1.2): testsets and the workflow family's three views.
    ...artifactsReadRoutes({ pool: deps.pool }, {
      testset: { view: [member, requirePermission(deps.pool, 'view_testsets')] }, application: { view: [member, requirePermission(deps.pool, 'view_applications')] },
      evaluator: { view: [member, requirePermission(deps.pool, 'view_evaluators')] }, workflow: { view: [member, requirePermission(deps.pool, 'view_workflows')] },
      environment: { view: [member, requirePermission(deps.pool, 'view_environments')] },
    }),
    // The workflow catalogs: static, authentication only (reference evaluations §1.7).
    ...catalogRoutes({}, { auth: [member] }),
    ...testcaseRoutes({ pool: deps.pool }, { view: [member, requirePermission(deps.pool, 'view_testsets')] }),
    ...testsetDownloadRoutes({ pool: deps.pool }, { view: [member, requirePermission(deps.pool, 'view_testsets')] }),
    ...humanEvaluationRoutes({ pool: deps.pool }, { viewEvaluations: [member, requirePermission(deps.pool, 'view_evaluation')] }),
    // The API description (/openapi.json) and its rendered page (/docs): public, code-only.
    ...docsRoutes(),
  };
}
