// Every request schema of @llm/contracts (and the session identities body of @llm/web-session)
// refuses NUL and lone surrogates in every string it carries: each schema gets a valid sample that
// fills every string position (optional ones included), and each position is spoiled in turn.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from '@llm/contracts';
import { jsonProblem } from '@llm/contracts';
import { sessionIdentitiesUpdateSchema } from '@llm/web-session';
import * as accountAnswers from '../src/responses/accounts.ts';
import * as analyticsAnswers from '../src/responses/analytics.ts';
import * as savedQueryAnswers from '../src/responses/saved-query-answers.ts';
import * as simpleTraceAnswers from '../src/responses/simple-traces.ts';
import * as spanViews from '../src/responses/span-view.ts';
import * as tracingReadAnswers from '../src/responses/tracing-reads.ts';
import * as tracingWriteAnswers from '../src/responses/tracing-writes.ts';
import * as vaultAndWebhookAnswers from '../src/responses/vault-and-webhooks.ts';
import * as organizationAuthAnswers from '../src/responses/organization-auth.ts';
import * as humanEvaluationAnswers from '../src/responses/human-evaluations.ts';
import * as invitationAnswers from '../src/responses/invitations.ts';
import * as billingAnswers from '../src/responses/billing.ts';
import * as sessionAndAdminAnswers from '../src/responses/sessions-and-admin.ts';
import * as evaluationRunAnswers from '../src/responses/evaluation-runs.ts';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';
const UUID = '3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const attrs = { 'gen_ai.prompt': 'hi 😀', nested: { list: ['a', { b: 'c' }], n: 1 } };

const span = {
  trace_id: TRACE, span_id: SPAN, parent_id: 'b7ad6b7169203330', span_name: 'chat 😀', span_type: 'llm',
  span_kind: 'SPAN_KIND_CLIENT', status_code: 'STATUS_CODE_OK', status_message: 'fine',
  start_time: '2025-01-01T00:00:00Z', end_time: '2025-01-01T00:00:01Z', attributes: attrs,
  events: [{ name: 'exception', timestamp: '2025-01-01T00:00:00.5Z', attributes: { 'exception.message': 'boom' } }],
  links: [{ trace_id: TRACE, span_id: SPAN, attributes: { k: 'v' } }],
  references: [{ id: 'ref', slug: 'app', version: 'v1', attributes: { k: 'v' } }],
  session_id: 'session-1', user_id: 'user-1',
};
const node = { ...span, spans: { child: { ...span, span_id: 'b7ad6b7169203332' }, twins: [{ ...span, span_id: 'b7ad6b7169203333' }] } };
const traceRecord = { trace_id: TRACE, spans: { root: node } };
const revision = {
  data: {
    filtering: { operator: 'and', conditions: [{ field: 'attributes', key: 'a.b', value: 'x', operator: 'is' }] },
    windowing: { oldest: '2025-01-01T00:00:00Z', next: 'abc' },
  },
  formatting: { focus: 'trace', format: 'agenta' },
  message: 'first 😀',
};
const ref = { id: UUID, slug: 'my-query', version: '2' };
const settings = { issuer_url: 'https://idp.example.com', client_id: 'client', client_secret: 'secret', scopes: ['openid'], extra: { prompt: 'login' } };
const account = {
  options: { dry_run: false, idempotency_key: 'idem', reason: 'why', note: 'extra option' },
  user: { email: 'me@example.com', username: 'me', name: 'Me 😀', metadata: { team: 'a', tags: ['x'] } },
  organization: { name: 'Org', slug: 'org', extra: 'kept' },
  workspace: { name: 'Ws', slug: 'ws' },
  project: { name: 'Prj', slug: 'prj' },
  note: 'extra field',
};

const webhookData = {
  url: 'https://hooks.example.com/in?x=😀', headers: { 'X-Team': 'a 😀' }, payload_fields: { id: '$.event.event_id', literal: ['x', { y: 'z' }] },
  auth_mode: 'signature', event_types: ['traces.queried'],
};
const webhookHeader = { name: 'hook 😀', description: 'd', flags: { is_active: true }, tags: { kind: 'A' }, meta: { m: 'x' } };
const deliveryStatus = { timestamp: '2025-01-01T00:00:00Z', type: 't', code: '200', message: 'success', stacktrace: 'st' };
const deliveryData = {
  event_type: 'traces.queried', url: 'https://hooks.example.com/in', headers: { 'X-Team': 'a' }, payload: { a: ['b'] },
  response: { status_code: 200, body: 'ok' }, error: 'e',
};

const queryHeader = { name: 'n 😀', description: 'd', tags: { t: 'x' }, flags: { f: { g: 'h' } }, meta: { m: 'x' } };
const queryData = { formatting: { focus: 'span', format: 'agenta' }, filtering: { operator: 'and' }, windowing: { newest: '2025-01-02', oldest: '2025-01-01', order: 'descending' } };

/** A valid value of each request schema, filling every string position. */
const SAMPLES: Record<string, { schema: z.ZodType; samples: unknown[] }> = {
  spanInput: { schema: contracts.spanInput, samples: [span] },
  spanNodeInput: { schema: contracts.spanNodeInput, samples: [node] },
  spanTree: { schema: contracts.spanTree, samples: [{ root: node }] },
  otelTracingRequest: { schema: contracts.otelTracingRequest, samples: [{ spans: [span], traces: { [TRACE]: { spans: { root: node } } } }] },
  traceRecordInput: { schema: contracts.traceRecordInput, samples: [traceRecord] },
  traceRequest: { schema: contracts.traceRequest, samples: [{ trace: traceRecord }] },
  tracesRequest: { schema: contracts.tracesRequest, samples: [{ traces: [traceRecord] }] },
  spanQueryBody: { schema: contracts.spanQueryBody, samples: [{ ...revision.data, query_ref: ref }] },
  spanExportBody: { schema: contracts.spanExportBody, samples: [{ ...revision.data, query_ref: ref, format: 'csv' }] },
  redactionCustomPattern: { schema: contracts.redactionCustomPattern, samples: [{ name: 'employee_id', pattern: 'E-[0-9]{6}', placeholder: '[EMPLOYEE_ID]' }] },
  redactionPolicyBody: {
    schema: contracts.redactionPolicyBody,
    samples: [{ detectors: ['email', 'card'], custom: [{ name: 'employee_id', pattern: 'E-[0-9]{6}', placeholder: '[EMPLOYEE_ID]' }], apply_to: 'all' }],
  },
  simpleTraceEdit: {
    schema: contracts.simpleTraceEdit,
    samples: [{
      trace: {
        data: { outputs: 'ok 😀' }, tags: { t: 'x' }, meta: { m: 'y' },
        references: { application: { id: 'a', slug: 's', version: '1', attributes: { k: 'v' } } },
        links: [{ trace_id: TRACE, span_id: SPAN, attributes: { k: 'v' } }],
      },
    }],
  },
  simpleTraceRequest: {
    schema: contracts.simpleTraceRequest,
    samples: [
      {
        trace: {
          origin: 'custom', kind: 'adhoc', channel: 'api', data: { inputs: { q: 'hi' } }, tags: { t: 'x' }, meta: { m: 'y' },
          references: { application: { id: 'a', slug: 's', version: '1', attributes: { k: 'v' } } },
          links: { parent: { trace_id: TRACE, span_id: SPAN, attributes: { k: 'v' } } },
        },
      },
      { trace: { data: { a: 'b' }, links: [{ trace_id: TRACE, span_id: SPAN }] } },
    ],
  },
  linkInput: { schema: contracts.linkInput, samples: [span.links[0]] },
  eventInput: { schema: contracts.eventInput, samples: [span.events[0]] },
  referenceInput: { schema: contracts.referenceInput, samples: [span.references[0]] },
  adminAccountInput: { schema: contracts.adminAccountInput, samples: [account] },
  entityRef: { schema: contracts.entityRef, samples: [{ email: 'a@b.example.com' }, { slug: 'acme' }] },
  adminEntityOptions: { schema: contracts.adminEntityOptions, samples: [{ create_api_keys: true, reason: 'support ticket 😀' }] },
  adminUserCreate: { schema: contracts.adminUserCreate, samples: [{ user: { email: 'a@b.example.com', name: 'Ann 😀' } }] },
  adminOrganizationCreate: { schema: contracts.adminOrganizationCreate, samples: [{ organization: { name: 'Acme 😀', slug: 'acme' }, owner: { email: 'a@b.example.com' } }] },
  adminWorkspaceCreate: { schema: contracts.adminWorkspaceCreate, samples: [{ workspace: { name: 'W 😀', organization_ref: { slug: 'acme' } } }] },
  adminProjectCreate: { schema: contracts.adminProjectCreate, samples: [{ project: { name: 'P 😀', organization_ref: { ref: 'org' }, workspace_ref: { id: UUID }, is_default: true } }] },
  adminTransferOwnership: {
    schema: contracts.adminTransferOwnership,
    samples: [{ users: { source: { email: 'a@b.example.com' }, target: { id: UUID } }, organizations: { k: { slug: 'acme' } }, include_workspaces: [UUID], include_projects: 'all', reason: 'why 😀' }],
  },
  adminGraphCreate: {
    schema: contracts.adminGraphCreate,
    samples: [{
      options: { reason: 'r 😀' }, users: { u: { email: 'a@b.example.com', name: 'A 😀', username: 'a' } },
      user_identities: { i: { user_ref: { ref: 'u' }, method: 'email:password', subject: 's', email: 'a@b.example.com', password: 'p 😀' } },
      organizations: { o: { name: 'O 😀', slug: 'o', owner_user_ref: { ref: 'u' } } }, workspaces: { w: { name: 'W', organization_ref: { ref: 'o' } } },
      projects: { p: { name: 'P', organization_ref: { ref: 'o' }, workspace_ref: { ref: 'w' } } },
      organization_memberships: { m: { organization_ref: { ref: 'o' }, user_ref: { email: 'a@b.example.com' }, role: 'viewer' } },
      api_keys: { k: { project_ref: { ref: 'p' }, user_ref: { ref: 'u' }, name: 'n', expires_at: 'never' } }, subscriptions: { o: { plan: 'hobby' } },
    }],
  },
  adminGraphDelete: { schema: contracts.adminGraphDelete, samples: [{ target: { user_ids: [UUID], user_emails: ['a@b.example.com'], organization_ids: [UUID] }, reason: 'why', confirm: 'yes' }] },
  invitationCreate: { schema: contracts.invitationCreate, samples: [[{ email: 'a@b.example.com', roles: ['editor 😀'] }]] },
  invitationResend: { schema: contracts.invitationResend, samples: [{ email: 'a@b.example.com' }] },
  invitationAccept: { schema: contracts.invitationAccept, samples: [{ token: 'tok 😀', email: 'a@b.example.com' }] },
  workspaceUserRemove: { schema: contracts.workspaceUserRemove, samples: [{ email: 'a@b.example.com', organization_id: UUID, project_id: UUID }] },
  adminApiKeyCreate: { schema: contracts.adminApiKeyCreate, samples: [{ api_key: { project_ref: { id: '00000000-0000-4000-8000-000000000001' }, user_ref: { email: 'a@b.example.com' }, name: 'ci' } }] },
  workflowRevisionData: { schema: contracts.workflowRevisionData, samples: [{ uri: 'agenta:custom:mock:v0', parameters: { key: 'k', prompt: 'Bonjour 😀' } }] },
  testsetRevisionData: { schema: contracts.testsetRevisionData, samples: [{ testcases: [{ data: { country: 'Côte d’Ivoire 😀' } }] }] },
  testcaseInput: { schema: contracts.testcaseInput, samples: [{ data: { q: 'Qui 😀' }, tags: { t: 'x' } }] },
  artifactRef: { schema: contracts.artifactRef, samples: [{ slug: 'my-slug', version: '1' }] },
  artifactWindow: { schema: contracts.artifactWindow, samples: [{ newest: '2026-01-01T00:00:00Z', limit: 5 }] },
  // The artifact factories, one entity each (the others differ only in key names).
  simpleArtifactCreate: { schema: contracts.simpleArtifactCreate('testset'), samples: [{ testset: { slug: 'ts', name: 'Set 😀', data: { testcases: [{ data: { country: 'Côte d’Ivoire' } }] } } }] },
  simpleArtifactEdit: { schema: contracts.simpleArtifactEdit('evaluator'), samples: [{ evaluator: { id: UUID, name: 'E 😀', data: { uri: 'agenta:builtin:auto_exact_match:v0' } } }] },
  simpleArtifactsQuery: { schema: contracts.simpleArtifactsQuery('application'), samples: [{ application: { name: 'A 😀', tags: { t: 'x' } }, application_refs: [{ slug: 's' }] }] },
  artifactVariantCreate: { schema: contracts.artifactVariantCreate('workflow'), samples: [{ workflow_variant: { slug: 'v', workflow_id: UUID, name: 'V 😀' } }] },
  artifactRevisionCommit: { schema: contracts.artifactRevisionCommit('application'), samples: [{ application_revision: { application_variant_id: UUID, message: 'first 😀', data: { parameters: { x: 'y' } } } }] },
  revisionRetrieve: { schema: contracts.revisionRetrieve('testset'), samples: [{ testset_ref: { slug: 'ts' }, testset_revision_ref: { version: '1' } }] },
  artifactCreate: { schema: contracts.artifactCreate('testset'), samples: [{ testset: { slug: 'ts', name: 'Set 😀', tags: { t: 'x' } } }] },
  artifactVariantFork: { schema: contracts.artifactVariantFork('application'), samples: [{ application_variant: { slug: 'f', name: 'Fork 😀' }, application_variant_ref: { slug: 'v' }, application_revision_ref: { version: '1' } }] },
  artifactRevisionsQuery: { schema: contracts.artifactRevisionsQuery('evaluator'), samples: [{ evaluator_revision: { message: 'fix 😀', authors: ['u'] }, evaluator_refs: [{ slug: 'e' }] }] },
  artifactRevisionEdit: { schema: contracts.artifactRevisionEdit('workflow'), samples: [{ workflow_revision: { id: UUID, name: 'R 😀', description: 'd' } }] },
  annotationCreate: { schema: contracts.annotationCreate, samples: [{ annotation: { data: { outputs: { score: 1, note: 'bien 😀' } }, references: { evaluator: { slug: 'judge' } }, links: { invocation: { trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331' } } } }] },
  annotationEdit: { schema: contracts.annotationEdit, samples: [{ annotation: { data: { outputs: { note: 'ok 😀' } }, tags: { t: 'x' } } }] },
  annotationsQuery: { schema: contracts.annotationsQuery, samples: [{ annotation: { origin: 'human', tags: { t: 'x 😀' } } }] },
  simpleEvaluationEdit: { schema: contracts.simpleEvaluationEdit, samples: [{ evaluation: { id: UUID, name: 'Eval 😀', data: { evaluator_steps: { [UUID]: 'auto' } } } }] },
  environmentRevisionData: { schema: contracts.environmentRevisionData, samples: [{ references: { 'app.revision': { application_revision: { slug: 'prod 😀', version: '2' } } } }] },
  environmentDelta: { schema: contracts.environmentDelta, samples: [{ set: { k: { application: { slug: 'a 😀' } } }, remove: ['old'] }] },
  workflowDelta: { schema: contracts.workflowDelta, samples: [
    { set: { parameters: { prompt: 'Bonjour 😀' } }, remove: ['parameters.old'] },
    { operations: [{ operation: 'edit_text', target: ['parameters', 'prompt', 'messages', 0, 'content'], edits: [{ old: 'Hello', new: 'Bonjour 😀' }], match_mode: 'first' }] },
  ] },
  workflowOperation: { schema: contracts.workflowOperation, samples: [{ operation: 'set', target: ['parameters', 'temperature'], value: 0.5 }, { operation: 'remove_item', target: ['tools', 2] }] },
  testsetDelta: { schema: contracts.testsetDelta, samples: [{ rows: { add: [{ data: { q: 'é 😀' } }] }, columns: { replace: [['q', 'question 😀']] } }] },
  artifactDeploy: { schema: contracts.artifactDeploy('application'), samples: [{ application_ref: { slug: 'app' }, environment_ref: { slug: 'prod' }, key: 'app 😀', message: 'ship it 😀' }] },
  artifactResolve: { schema: contracts.artifactResolve('workflow'), samples: [{ workflow_revision: { data: { parameters: { p: 'Bonjour 😀' } } }, error_policy: 'keep' }] },
  testcasesQuery: { schema: contracts.testcasesQuery, samples: [{ testset_ref: { slug: 'caps' }, windowing: { limit: 2 } }] },
  testcasesList: { schema: contracts.testcasesList, samples: [{ testcase_id: [UUID], testcase_ids: `${UUID},${UUID}` }] },
  simpleEvaluationCreate: { schema: contracts.simpleEvaluationCreate, samples: [{ evaluation: { name: 'Eval 😀', data: { status: 'running', testset_steps: [UUID] } } }] },
  humanEvaluationCreate: { schema: contracts.humanEvaluationCreate, samples: [{ app_id: '00000000-0000-4000-8000-000000000001', variant_ids: ['00000000-0000-4000-8000-000000000002'], evaluation_type: 'single_model_test', inputs: ['country'], testset_id: '00000000-0000-4000-8000-000000000003', status: 'EVALUATION_INITIALIZED' }] },
  humanEvaluationList: { schema: contracts.humanEvaluationList, samples: [{ app_id: '00000000-0000-4000-8000-000000000001' }] },
  organizationCreate: { schema: contracts.organizationCreate, samples: [{ name: 'Acme 😀', description: 'the lab' }] },
  adminAccountsCreate: { schema: contracts.adminAccountsCreate, samples: [{ options: account.options, accounts: { me: account } }] },
  adminAccountsDelete: {
    schema: contracts.adminAccountsDelete,
    samples: [{ accounts: { me: { user: { id: UUID, email: 'me@example.com' } } }, reason: 'gone', confirm: 'yes' }],
  },
  adminMembershipSet: { schema: contracts.adminMembershipSet, samples: [{ organization_id: UUID, user: { id: UUID, email: 'me@example.com' }, role: 'viewer' }] },
  adminMembershipRemove: { schema: contracts.adminMembershipRemove, samples: [{ organization_id: UUID, user: { email: 'me@example.com' } }] },
  apiKeyCreate: { schema: contracts.apiKeyCreate, samples: [{ name: 'ci 😀', expires_at: new Date(Date.now() + 86_400_000).toISOString() }] },
  apiKeyPath: { schema: contracts.apiKeyPath, samples: [{ key_id: 'llm_abcdef' }] },
  authSlug: { schema: contracts.authSlug, samples: ['acme'] },
  accessQuery: { schema: contracts.accessQuery, samples: [{ organization_id: UUID }] },
  discoverRequest: { schema: contracts.discoverRequest, samples: [{ email: 'me@example.com' }] },
  domainCreate: { schema: contracts.domainCreate, samples: [{ domain: 'example.com', name: 'Main 😀', description: 'ours' }] },
  domainVerify: { schema: contracts.domainVerify, samples: [{ domain_id: UUID }] },
  organizationUpdate: { schema: contracts.organizationUpdate, samples: [{ name: 'Acme 😀', slug: 'acme', description: 'd', flags: { allow_email: true } }] },
  providerSettings: { schema: contracts.providerSettings, samples: [settings] },
  providerCreate: { schema: contracts.providerCreate, samples: [{ slug: 'okta', name: 'Okta', description: 'd', flags: { is_active: true }, settings }] },
  providerUpdate: { schema: contracts.providerUpdate, samples: [{ slug: 'okta', name: 'Okta', description: 'd', flags: { is_active: true }, settings }] },
  savedQuerySlug: { schema: contracts.savedQuerySlug, samples: ['my-query'] },
  savedQueryRevisionInput: { schema: contracts.savedQueryRevisionInput, samples: [revision] },
  savedQueryCreate: { schema: contracts.savedQueryCreate, samples: [{ query: { slug: 'q', name: 'Q 😀', description: 'd' }, query_revision: revision }] },
  savedQueryCommit: { schema: contracts.savedQueryCommit, samples: [{ query_revision: revision, expected_version: 1 }] },
  savedQueryRef: { schema: contracts.savedQueryRef, samples: [ref] },
  savedQueryRefs: { schema: contracts.savedQueryRefs, samples: [{ query_ref: ref, query_variant_ref: ref, query_revision_ref: ref }] },
  ssoPath: { schema: contracts.ssoPath, samples: [{ organization_slug: 'acme', provider_slug: 'okta' }] },
  ssoThirdPartyId: { schema: contracts.ssoThirdPartyId, samples: ['sso:acme:okta'] },
  ssoCallbackPath: { schema: contracts.ssoCallbackPath, samples: [{ third_party_id: 'sso:acme:okta' }] },
  ssoStartQuery: { schema: contracts.ssoStartQuery, samples: [{ return_to: '/app?x=1' }] },
  probeProviderRequest: { schema: contracts.probeProviderRequest, samples: [{ kind: 'openai', provider: { key: 'sk-1', url: 'https://api.example.com/v1', version: '2024-10-21', extras: { region: 'eu', tags: ['a'] } } }] },
  secretCreate: {
    schema: contracts.secretCreate,
    samples: [
      { header: { name: 'OpenAI', description: 'd' }, secret: { kind: 'provider_key', data: { kind: 'openai', provider: { key: 'sk-1' }, models: [{ slug: 'gpt', extras: { a: 'b' } }], harnesses: ['h'] } }, slug: 'openai-1' },
      { header: { name: 'c' }, secret: { kind: 'custom_provider', data: { kind: 'custom', provider: { url: 'https://llm.example.com/v1', version: 'v', key: 'k', extras: { region: 'eu' } }, models: [{ slug: 'm' }] } } },
      { header: { name: 's' }, secret: { kind: 'sso_provider', data: { provider: { client_id: 'c', client_secret: 's', issuer_url: 'https://idp.example.com', scopes: ['openid'], extra: { a: 'b' } } } } },
      { header: { name: 'j' }, secret: { kind: 'custom_secret', data: { secret: { format: 'json', content: { token: 'abc' } } } } },
    ],
  },
  secretUpdate: { schema: contracts.secretUpdate, samples: [{ header: { name: 'n', description: 'd' }, secret: { kind: 'webhook_provider', data: { provider: { key: 'k' } } } }] },
  subscriptionLoginPush: { schema: contracts.subscriptionLoginPush, samples: [{ login: { access: 'a.b.c', refresh: 'rt', expires: 1, accountId: 'acct', extra: { k: ['v'] } }, version: 1, generation: 1 }] },
  subscriptionLoginFailure: { schema: contracts.subscriptionLoginFailure, samples: [{ version: 1, generation: 1, reason: 'refresh_token_reused' }] },
  uuidRef: { schema: contracts.uuidRef, samples: [UUID] },
  windowing: { schema: contracts.windowing, samples: [{ newest: '2025-01-02T00:00:00Z', oldest: '2025-01-01T00:00:00+00:00', next: UUID, limit: 10, order: 'ascending' }] },
  webhookData: { schema: contracts.webhookData, samples: [webhookData] },
  webhookCreate: { schema: contracts.webhookCreate, samples: [{ subscription: { ...webhookHeader, data: webhookData, secret: 's3cret 😀' } }] },
  webhookEdit: { schema: contracts.webhookEdit, samples: [{ subscription: { id: UUID, ...webhookHeader, data: webhookData, secret: 's' } }] },
  webhookQuery: { schema: contracts.webhookQuery, samples: [{ subscription: { name: 'n', description: 'd', tags: { kind: 'A' }, meta: { m: 'x' } }, windowing: { next: UUID, limit: 1 } }] },
  webhookTest: { schema: contracts.webhookTest, samples: [{ subscription: { id: UUID, ...webhookHeader, data: webhookData, secret: 's' } }, { subscription_id: UUID }] },
  deliveryStatus: { schema: contracts.deliveryStatus, samples: [deliveryStatus] },
  deliveryData: { schema: contracts.deliveryData, samples: [deliveryData] },
  deliveryCreate: { schema: contracts.deliveryCreate, samples: [{ delivery: { id: UUID, status: deliveryStatus, data: deliveryData, subscription_id: UUID, event_id: UUID } }] },
  deliveryQuery: { schema: contracts.deliveryQuery, samples: [{ delivery: { status: { code: '200', message: 'success' }, subscription_id: UUID, event_id: UUID }, windowing: { newest: '2025-01-02T00:00:00Z' } }] },
  eventQuery: { schema: contracts.eventQuery, samples: [{ event: { request_type: 'unknown', request_id: UUID, event_type: 'traces.queried', event_id: UUID }, windowing: { order: 'descending', limit: 5 } }] },
  savedQueryLeafMap: { schema: contracts.savedQueryLeafMap, samples: [{ team: 'a 😀', nested: { on: true, off: null } }] },
  savedQueryListWindow: { schema: contracts.savedQueryListWindow, samples: [{ newest: '2025-01-02T00:00:00Z', oldest: '2025-01-01', next: UUID, limit: 10, order: 'ascending' }] },
  storedDateTime: { schema: contracts.storedDateTime, samples: ['2025-01-01T00:00:00.123456+02:00'] },
  simpleSavedQueriesQuery: {
    schema: contracts.simpleSavedQueriesQuery,
    samples: [{ query: { tags: { t: 'x' }, flags: { f: 'y' }, meta: { m: ['z'] } }, query_refs: [ref], windowing: { oldest: '2025-01-01T00:00:00Z', order: 'descending' } }],
  },
  savedQueryVariantsQuery: {
    schema: contracts.savedQueryVariantsQuery,
    samples: [{ query_variant: { slug: 's', slugs: ['a', 'b'], name: 'n 😀', description: 'd', tags: { t: 'x' }, flags: { f: { g: 'h' } }, meta: 'm' }, query_refs: [ref], query_variant_refs: [ref] }],
  },
  savedQueryRevisionsQuery: {
    schema: contracts.savedQueryRevisionsQuery,
    samples: [{
      query_revision: { slug: 's', slugs: ['a'], author: 'u', authors: ['v'], message: 'm 😀', name: 'n', description: 'd', tags: { t: 'x' }, flags: { f: 'y' }, meta: { k: 'v' } },
      query_refs: [ref], query_variant_refs: [ref], query_revision_refs: [ref], windowing: { newest: '2025-01-01T00:00:00Z' },
    }],
  },
  savedQueryRetrieve: { schema: contracts.savedQueryRetrieve, samples: [{ query_ref: ref, query_variant_ref: ref, query_revision_ref: ref, windowing: { next: 'abc', oldest: '2025-01-01T00:00:00Z' } }] },
  savedQueryLog: { schema: contracts.savedQueryLog, samples: [{ query_revisions: { query_id: UUID, depth: 3 } }] },
  // Saved-query writes (moved from the command service so the API document describes them).
  querySlug: { schema: contracts.querySlug, samples: ['my-query'] },
  revisionData: { schema: contracts.revisionData, samples: [queryData] },
  queryCreateBody: { schema: contracts.queryCreateBody, samples: [{ query: { slug: 'q', ...queryHeader, folder_id: UUID } }] },
  queryEditBody: { schema: contracts.queryEditBody, samples: [{ query: { id: UUID, ...queryHeader, folder_id: UUID } }] },
  queryVariantCreateBody: { schema: contracts.queryVariantCreateBody, samples: [{ query_variant: { slug: 'v', query_id: UUID, ...queryHeader } }] },
  queryVariantEditBody: { schema: contracts.queryVariantEditBody, samples: [{ query_variant: { id: UUID, ...queryHeader } }] },
  queryVariantForkBody: { schema: contracts.queryVariantForkBody, samples: [{ query_variant: { slug: 'f', ...queryHeader }, query_variant_ref: ref, query_revision_ref: ref }] },
  queryRevisionCreateBody: { schema: contracts.queryRevisionCreateBody, samples: [{ query_revision: { query_variant_id: UUID, slug: 'r', ...queryHeader, data: { d: 'x' } } }] },
  queryRevisionEditBody: { schema: contracts.queryRevisionEditBody, samples: [{ query_revision: { id: UUID, ...queryHeader } }] },
  queryRevisionCommitBody: { schema: contracts.queryRevisionCommitBody, samples: [{ query_revision: { variant_id: UUID, slug: 'r', ...queryHeader, data: queryData, message: 'm 😀' } }] },
  simpleQueryCreateBody: { schema: contracts.simpleQueryCreateBody, samples: [{ query: { slug: 's', ...queryHeader, data: queryData } }] },
  simpleQueryEditBody: { schema: contracts.simpleQueryEditBody, samples: [{ query: { id: UUID, ...queryHeader, data: queryData } }] },
  // Read inputs and billing query strings (moved from the services for the same reason).
  flatSpanQuery: { schema: contracts.flatSpanQuery, samples: [{ focus: 'span', format: 'agenta', oldest: '2025-01-01T00:00:00Z', newest: '1735689600', limit: '10', filter: { f: 'x' } }] },
  analyticsInput: { schema: contracts.analyticsInput, samples: [{ focus: 'trace', format: 'opentelemetry', oldest: '2025-01-01T00:00:00Z', specs: [{ path: 'x' }] }] },
  legacyAnalyticsInput: { schema: contracts.legacyAnalyticsInput, samples: [{ focus: 'trace', newest: '2025-01-02T00:00:00Z', filter: '{}' }] },
  simpleTraceQuery: { schema: contracts.simpleTraceQuery, samples: [{ trace: { origin: 'human', kind: 'adhoc', channel: 'sdk', tags: { t: 'x' }, references: { app: { id: 'a', slug: 's' } }, links: [{ trace_id: TRACE, span_id: 'b7ad6b7169203331' }] }, links: [{ trace_id: TRACE }], windowing: { w: 'x' } }] },
  billingCheckoutQuery: { schema: contracts.billingCheckoutQuery, samples: [{ plan: 'cloud_v0_pro', success_url: 'https://app.example.com/done' }] },
  billingSwitchQuery: { schema: contracts.billingSwitchQuery, samples: [{ plan: 'cloud_v0_pro' }] },
  // Not in contracts (it lives with the session code), but a request body all the same.
  runsCreate: { schema: contracts.runsCreate, samples: [{ runs: [{ name: 'n', description: 'd', status: 'running', flags: { f: 't' }, tags: { t: 'v' }, meta: { m: 'v' }, data: { steps: [{ key: 'testset-x', type: 'input', origin: 'custom', references: { testset_revision: { id: 'i', slug: 's', version: '1' } }, inputs: [{ key: 'k' }], schemas: { outputs: { o: 'x' } } }], concurrency: { c: 'x' }, mappings: [{ m: 'x' }] } }] }] },
  runEditOne: { schema: contracts.runEditOne, samples: [{ run: { id: UUID, ...{ name: 'n', description: 'd', status: 'running', flags: { f: 't' }, tags: { t: 'v' }, meta: { m: 'v' }, data: { steps: [{ key: 'testset-x', type: 'input', origin: 'custom', references: { testset_revision: { id: 'i', slug: 's', version: '1' } }, inputs: [{ key: 'k' }], schemas: { outputs: { o: 'x' } } }], concurrency: { c: 'x' }, mappings: [{ m: 'x' }] } } } }] },
  runsEdit: { schema: contracts.runsEdit, samples: [{ runs: [{ id: UUID, ...{ name: 'n', description: 'd', status: 'running', flags: { f: 't' }, tags: { t: 'v' }, meta: { m: 'v' }, data: { steps: [{ key: 'testset-x', type: 'input', origin: 'custom', references: { testset_revision: { id: 'i', slug: 's', version: '1' } }, inputs: [{ key: 'k' }], schemas: { outputs: { o: 'x' } } }], concurrency: { c: 'x' }, mappings: [{ m: 'x' }] } } }] }] },
  runIds: { schema: contracts.runIds, samples: [{ run_ids: [UUID] }] },
  scenariosCreate: { schema: contracts.scenariosCreate, samples: [{ scenarios: [{ run_id: UUID, status: 'running', timestamp: '2026-01-01T00:00:00Z', flags: { f: 'x' }, tags: { t: 'x' }, meta: { m: 'x' } }] }] },
  scenarioEditOne: { schema: contracts.scenarioEditOne, samples: [{ scenario: { id: UUID, status: 'success', tags: { t: 'x' }, meta: { m: 'x' } } }] },
  scenariosEdit: { schema: contracts.scenariosEdit, samples: [{ scenarios: [{ id: UUID, status: 'success', tags: { t: 'x' }, meta: { m: 'x' } }] }] },
  scenarioIds: { schema: contracts.scenarioIds, samples: [{ scenario_ids: [UUID] }] },
  resultsWrite: { schema: contracts.resultsWrite, samples: [{ results: [{ run_id: UUID, scenario_id: UUID, step_key: 'application-x', status: 'success', trace_id: UUID, error: { message: 'x' }, tags: { t: 'x' }, meta: { m: 'x' }, flags: { f: 'x' } }] }] },
  resultIds: { schema: contracts.resultIds, samples: [{ result_ids: [UUID] }] },
  metricsWrite: { schema: contracts.metricsWrite, samples: [{ metrics: [{ run_id: UUID, scenario_id: UUID, status: 'success', data: { d: 'x' }, tags: { t: 'x' }, meta: { m: 'x' }, flags: { f: 'x' } }] }] },
  metricIds: { schema: contracts.metricIds, samples: [{ metrics_ids: [UUID] }] },
  runSlice: { schema: contracts.runSlice, samples: [{ scenario_ids: [UUID], step_keys: ['k'], repeat_idxs: [0] }] },
  queuesCreate: { schema: contracts.queuesCreate, samples: [{ queues: [{ run_id: UUID, name: 'Reviewers 😀', flags: { is_sequential: true }, data: { user_ids: [[UUID]], batch_size: 10, step_keys: ['k'] } }] }] },
  queueCreate: { schema: contracts.queueCreate, samples: [{ run_id: UUID, name: 'q', tags: { team: 'é' } }] },
  queuesEdit: { schema: contracts.queuesEdit, samples: [{ queues: [{ id: UUID, description: 'd', meta: { k: 'v' } }] }] },
  queueEdit: { schema: contracts.queueEdit, samples: [{ id: UUID, name: 'n' }] },
  queueEditOne: { schema: contracts.queueEditOne, samples: [{ queue: { id: UUID, name: 'n' } }] },
  queueIds: { schema: contracts.queueIds, samples: [{ queue_ids: [UUID] }] },
  queueData: { schema: contracts.queueData, samples: [{ scenario_ids: [UUID], step_keys: ['k'], batch_offset: 0 }] },
  queuesQuery: { schema: contracts.queuesQuery, samples: [{ queue: { name: 'ä', description: 'b', tags: { t: 'x' }, user_id: UUID, include_archived: true }, windowing: { limit: 5 } }] },
  queueScenariosQuery: { schema: contracts.queueScenariosQuery, samples: [{ queue: { id: UUID, user_id: UUID }, scenario: { statuses: ['pending'] }, windowing: { limit: 2 } }] },
  simpleQueueCreate: { schema: contracts.simpleQueueCreate, samples: [{ queue: { name: 'Revue 😀', tags: { t: 'é' }, data: { kind: 'traces', evaluators: [UUID], assignments: [[UUID]], settings: { batch_size: 2 } } } }] },
  simpleQueuesQuery: { schema: contracts.simpleQueuesQuery, samples: [{ queue: { kind: 'traces', name: 'ä', tags: { a: 'b' } } }] },
  simpleQueueTraces: { schema: contracts.simpleQueueTraces, samples: [{ trace_ids: ['0af7651916cd43dd8448eb211c80319c'] }] },
  simpleQueueTestcases: { schema: contracts.simpleQueueTestcases, samples: [{ testcase_ids: [UUID] }] },
  liveRunsRefreshQuery: { schema: contracts.liveRunsRefreshQuery, samples: [{ trigger_interval: 5, trigger_datetime: '2026-12-07T10:00:00Z' }] },
  runProcess: { schema: contracts.runProcess, samples: [{ scenario_ids: [UUID], step_keys: ['k'], repeat_idxs: [0], overwrite: true }] },
  workflowInvoke: { schema: contracts.workflowInvoke, samples: [{
    version: '2025.07.14', flags: { is_evaluator: true }, references: { evaluator: { slug: 'judge' } },
    data: { parameters: { key: 'score', kwargs: { score: 0.5 } }, inputs: { q: 'où 😀' }, outputs: { answer: 'ici' } },
    links: { invocation: { trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331' } },
  }] },
  stepsAdd: { schema: contracts.stepsAdd, samples: [{ steps: [{ key: 'evaluator-x', type: 'annotation', origin: 'human', references: { evaluator_revision: { id: 'i', slug: 's' } }, schemas: { outputs: { o: 'x' } } }] }] },
  stepsRemove: { schema: contracts.stepsRemove, samples: [{ step_keys: ['k'] }] },
  simpleEvaluationsQuery: { schema: contracts.simpleEvaluationsQuery, samples: [{ evaluation: { ids: [UUID], name: 'n', flags: { f: 'x' }, tags: { t: 'x' } } }] },
  metricsRefresh: { schema: contracts.metricsRefresh, samples: [{ metrics: { run_id: UUID, scenario_id: UUID } }] },
  closeQuery: { schema: contracts.closeQuery, samples: [{ status: 'success' }] },
  runsQuery: { schema: contracts.runsQuery, samples: [{ run: { ids: [UUID], name: 'n', description: 'd', flags: { f: 'x' }, tags: { t: 'x' }, status: 'running', references: [{ testset_revision: { id: 'i', slug: 's' } }] }, windowing: { next: UUID, limit: 5, order: 'descending' } }] },
  scenariosQuery: { schema: contracts.scenariosQuery, samples: [{ scenario: { run_id: UUID, flags: { f: 'x' }, tags: { t: 'x' } } }] },
  resultsQuery: { schema: contracts.resultsQuery, samples: [{ result: { run_id: UUID, step_key: 's', step_keys: ['k'], flags: { f: 'x' }, tags: { t: 'x' } } }] },
  metricsQuery: { schema: contracts.metricsQuery, samples: [{ metrics: { run_id: UUID, scenario_ids: true, flags: { f: 'x' }, tags: { t: 'x' } } }] },
  sessionIdentitiesUpdateSchema: { schema: sessionIdentitiesUpdateSchema, samples: [{ session_identities: ['email:otp', 'sso:acme:okta'] }] },
};

/** Exported schemas that are not request schemas: responses, and the building blocks themselves (text.test.ts). */
const NOT_REQUESTS = new Set([
  'savedQueryResponse', 'savedQueryRevisionView', 'savedQueryRevisionsResponse', 'savedQueryVariantView', 'savedQueryView',
  'jsonObject', 'jsonValue', 'textKey',
  // The mock service's answer, and the link sampled inside workflowInvoke.
  'workflowInvokeResponse', 'invocationLink', 'SIMPLE_QUEUE_KINDS', 'liveRunsRefreshResponse',
  // Building blocks sampled inside the schemas that use them.
  'membershipRole', 'invitationEntry',
  'probeProviderResponse',
  // The agent runner's answers (validated as they arrive; a login from it is stored only sealed).
  'runnerAttemptStarted', 'runnerAttemptStatus',
  // PATCH /projects/{id}: its body holds one number and no text (bounds in bounded-inputs.test.ts), and its answer.
  'projectUpdate', 'projectRetentionResponse',
  // GET/PUT /projects/{id}/redaction's answer.
  'redactionPolicyResponse',
  // The payments processor's event: read raw and checked by its signature, stored never.
  'paymentsProcessorEvent',
  // Evaluation runs: building blocks sampled inside runsCreate, scenariosEdit, resultsWrite, metricsWrite and the queries.
  // POST /simple/evaluations/{id}/repeats/set: one number, no text.
  'repeatsSet',
  // The testcase answers (responses/artifacts.ts; the others there are factories).
  'testcaseResponse', 'testcasesResponse', 'catalogTypesResponse', 'catalogTypeResponse', 'catalogTemplatesResponse', 'catalogTemplateResponse',
  'catalogPresetsResponse', 'catalogPresetResponse', 'catalogHarnessesResponse', 'catalogHarnessResponse', 'legacyEvaluatorTemplatesResponse',
  'evaluationStatus', 'uuidText', 'runStep', 'runData', 'runCreate', 'runEdit', 'scenarioEdit', 'resultWrite', 'metricWrite', 'evaluationWindow',
]);
// Answers (src/responses/*): output schemas of what the handlers send, never parsed from a request.
for (const m of [accountAnswers, analyticsAnswers, savedQueryAnswers, simpleTraceAnswers, spanViews, tracingReadAnswers, tracingWriteAnswers, vaultAndWebhookAnswers, organizationAuthAnswers,
  humanEvaluationAnswers, invitationAnswers, billingAnswers, sessionAndAdminAnswers, evaluationRunAnswers]) for (const k of Object.keys(m)) NOT_REQUESTS.add(k);

type Segment = string | number;
interface Position { path: Segment[]; kind: 'value' | 'key' }

function positions(v: unknown, path: Segment[] = []): Position[] {
  if (typeof v === 'string') return [{ path, kind: 'value' }];
  if (Array.isArray(v)) return v.flatMap((x, i) => positions(x, [...path, i]));
  if (v !== null && typeof v === 'object') {
    return Object.entries(v).flatMap(([k, x]) => [{ path: [...path, k], kind: 'key' as const }, ...positions(x, [...path, k])]);
  }
  return [];
}

const spoil = (s: string, bad: string): string => `${s.slice(0, 1)}${bad}${s.slice(1)}`;

/** A copy of `root` with the string or key at `pos` spoiled (keys keep their order). */
function spoiled(root: unknown, pos: Position, bad: string): unknown {
  if (pos.path.length === 0) return spoil(root as string, bad);
  const copy = structuredClone(root) as Record<Segment, unknown>;
  const parentPath = pos.path.slice(0, -1);
  const last = pos.path[pos.path.length - 1]!;
  let parent = copy;
  for (const seg of parentPath) parent = parent[seg] as Record<Segment, unknown>;
  if (pos.kind === 'value') {
    parent[last] = spoil(parent[last] as string, bad);
    return copy;
  }
  const renamed = Object.fromEntries(Object.entries(parent).map(([k, x]) => [k === last ? spoil(k, bad) : k, x]));
  for (const k of Object.keys(parent)) delete parent[k];
  Object.assign(parent, renamed);
  return copy;
}

const isPrefix = (p: PropertyKey[], of: Segment[]): boolean => p.length <= of.length && p.every((s, i) => s === of[i]);

const BAD = [['NUL', '\u0000'], ['a lone high surrogate', '\ud83d'], ['a lone low surrogate', '\ude00']] as const;

describe('request schemas: unstorable text', () => {
  it('when contracts export a schema, then it is sampled here or known not to be a request schema', () => {
    const exported = Object.entries(contracts).filter(([, v]) => v instanceof z.ZodType).map(([k]) => k);
    const unknown = exported.filter((k) => !(k in SAMPLES) && !NOT_REQUESTS.has(k));
    expect(unknown).toEqual([]);
  });

  it.each(Object.entries(SAMPLES))('when %s is given its valid samples, then they parse', (_, { schema, samples }) => {
    for (const s of samples) {
      const r = schema.safeParse(s);
      expect(r.error?.issues ?? []).toEqual([]);
    }
  });

  const cases = Object.entries(SAMPLES).flatMap(([name, { schema, samples }]) => BAD.map(([what, bad]) => [name, what, schema, samples, bad] as const));
  it.each(cases)('when a string or key of %s holds %s, then it is refused (or the key is dropped)', (_, __, schema, samples, bad) => {
    for (const sample of samples) {
      const all = positions(sample);
      expect(all.some((p) => p.kind === 'value')).toBe(true);
      for (const pos of all) {
        const r = schema.safeParse(spoiled(sample, pos, bad));
        const where = `${pos.kind} at ${JSON.stringify(pos.path)}`;
        if (pos.kind === 'value') {
          expect(r.success, where).toBe(false);
          expect(r.error?.issues.some((i) => isPrefix(i.path, pos.path)), where).toBe(true);
        } else if (r.success) {
          // A key a schema strips (unknown keys of a plain object) never reaches a store.
          expect(jsonProblem(r.data), where).toBeUndefined();
        }
      }
    }
  });
});
