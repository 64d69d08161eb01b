// The accounts topic is the system of record: replaying it from the start into an empty Postgres
// must rebuild exactly the read model the live projector built, rejections included. Writes of every
// kind go through the public API first, then events the API would refuse early (a lost race, a stale
// version) and those of a browser sign-in and sign-out are appended straight to the topic, so every
// aggregate of @llm/account-model has facts and rejections in the log; then a second projector, under
// another consumer name, rebuilds into a fresh database and every table and verdict is compared.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGGREGATES, aggregateOf } from '@llm/account-model';
import { encodeEvent, topicsFor, type EventPayloads, type EventType } from '@llm/events';
import { createKafkaClient, type KafkaClient } from '@llm/kafka';
import { createLogger } from '@llm/logging';
import { openPostgres, type Pool } from '@llm/postgres';
import { createAccountsProjector } from '@llm/service-projector-accounts';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { startTxtDnsServer, type TxtDnsServer } from '@llm/testing/dns-server';

const hex = (n: number): string => randomBytes(n).toString('hex');
const letters = (n: number): string => Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join('');
let t: TestApp;
let dns: TxtDnsServer;
let kafka: KafkaClient;
let rebuilt: Pool | undefined;
let live: Pool;

beforeAll(async () => {
  dns = await startTxtDnsServer();
  t = await startTestApp({ DNS_SERVERS: `127.0.0.1:${dns.port}` });
  kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'replay-test' });
  live = openPostgres(t.databaseUrl);
});
afterAll(async () => { await rebuilt?.end(); await live?.end(); await t?.stop(); await dns?.close().catch(() => undefined); });

async function call(method: string, path: string, acc: TestAccount | { auth: Record<string, string> }, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

const TABLES: Array<[string, string]> = [
  ['users', 'id'], ['organizations', 'id'], ['workspaces', 'id'], ['projects', 'id'], ['memberships', 'scope, scope_id, user_id'],
  ['api_keys', 'id'], ['organization_domains', 'id'], ['organization_providers', 'id'], ['user_identities', 'method, subject'],
  ['revoked_sessions', 'sid'], ['secrets', 'id'],
  ['webhook_subscriptions', 'id'], ['invitations', 'id'], ['organization_subscriptions', 'organization_id'], ['billing_processor_events', 'event_id'],
  ['artifacts', 'id'], ['artifact_variants', 'id'], ['artifact_revisions', 'id'], ['artifact_testcases', 'id'],
  ['human_evaluations', 'id'], ['human_evaluation_variants', 'evaluation_id, position'], ['human_evaluation_scenarios', 'id'],
  ['project_tombstones', 'project_id'], ['redaction_policies', 'project_id'],
];
const dump = async (pool: Pool, table: string, order: string): Promise<unknown[]> => (await pool.query(`SELECT * FROM ${table} ORDER BY ${order}`)).rows;
const outcomes = async (pool: Pool): Promise<unknown[]> =>
  (await pool.query('SELECT event_id, type, status, rejection, rejection_code, rejection_details FROM events ORDER BY topic, partition, "offset"')).rows;

describe('accounts replay', () => {
  it('when the accounts topic is replayed into an empty database, then every table and every verdict is the same', async () => {
    const admin = { auth: { Authorization: `Access ${t.adminToken}` } };
    const [a, b] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
    // Rejections belong to the log too: a taken e-mail.
    expect((await call('POST', '/admin/simple/accounts/', admin, { accounts: { u: { user: { email: a.email } } } })).status).toBe(409);
    // Organization settings, a verified domain, providers, keys, roles, saved queries.
    expect((await call('PATCH', `/organizations/${a.organizationId}`, a, { name: 'Replayed', flags: { allow_email: true } })).status).toBe(200);
    const d = await call('POST', '/organizations/domains/', a, { domain: `${letters(8)}.example.org` });
    dns.publish(d.body.dns.name, [d.body.dns.value]);
    expect((await call('POST', '/organizations/domains/verify', a, { domain_id: d.body.id })).status).toBe(200);
    expect((await call('PATCH', `/organizations/${a.organizationId}`, a, { flags: { auto_join: true } })).status).toBe(200);
    const p = await call('POST', '/organizations/providers/', a, { slug: `okta-${letters(4)}`, settings: { issuer_url: 'https://idp.example.com', client_id: 'c', client_secret: 's3cret' } });
    expect(p.status).toBe(200);
    expect((await call('PATCH', `/organizations/providers/${p.body.id}`, a, { name: 'Renamed' })).status).toBe(200);
    // Vault secrets: the log holds them sealed; the key store is not rebuilt (and need not be) by a replay.
    const kept = await call('POST', '/secrets/', a, { header: { name: 'kept' }, secret: { kind: 'webhook_provider', data: { provider: { key: `k-${hex(8)}` } } } });
    expect(kept.status).toBe(200);
    expect((await call('PUT', `/secrets/${kept.body.id}`, a, { header: { name: 'kept 2' } })).status).toBe(200);
    const gone = await call('POST', '/secrets/', a, { header: {}, secret: { kind: 'provider_key', data: { kind: 'openai', provider: { key: `sk-${hex(8)}` } } } });
    expect((await call('DELETE', `/secrets/${gone.body.id}`, a)).status).toBe(204);
    // Webhook subscriptions: created (with their vault secret), edited, stopped, one deleted (its secret with it).
    const hook = await call('POST', '/webhooks/subscriptions/', a, { subscription: { name: 'hook', tags: { kind: 'A' }, data: { url: 'https://hooks.example.com/a', event_types: ['traces.queried'] } } });
    expect(hook.status).toBe(200);
    expect((await call('PUT', `/webhooks/subscriptions/${hook.body.subscription.id}`, a, { subscription: { id: hook.body.subscription.id, name: 'hook 2', data: { url: 'https://hooks.example.com/b' } } })).status).toBe(200);
    expect((await call('POST', `/webhooks/subscriptions/${hook.body.subscription.id}/stop`, a)).status).toBe(200);
    const dropped = await call('POST', '/webhooks/subscriptions/', a, { subscription: { data: { url: 'https://hooks.example.com/c' } } });
    expect((await call('DELETE', `/webhooks/subscriptions/${dropped.body.subscription.id}`, a)).status).toBe(204);
    // A redaction policy set, changed, removed and set again: each change is its next version.
    for (const [method, policy] of [['PUT', { detectors: ['email'] }], ['PUT', { custom: [{ name: 'emp', pattern: 'EMP-[0-9]{6}' }], apply_to: 'inputs' }], ['DELETE', undefined], ['PUT', {}]] as const) {
      expect((await call(method, `/projects/${a.projectId}/redaction`, a, policy)).status).toBe(200);
    }
    const k = await call('POST', '/keys', a, { name: 'k1' });
    expect((await call('DELETE', `/keys/${k.body.id}`, a)).status).toBe(204);
    expect((await call('POST', '/admin/simple/accounts/organizations/memberships/', admin, { organization_id: a.organizationId, user: { id: b.userId }, role: 'developer' })).status).toBe(200);
    // The organization lifecycle: one created and handed over to a member, one created and deleted.
    const handed = await call('POST', '/organizations/', a, { name: 'Handed over' });
    expect(handed.status).toBe(201);
    expect((await call('POST', '/admin/simple/accounts/organizations/memberships/', admin, { organization_id: handed.body.id, user: { id: b.userId }, role: 'viewer' })).status).toBe(200);
    expect((await call('POST', `/organizations/${handed.body.id}/transfer/${b.userId}`, a)).status).toBe(200);
    const shortLived = await call('POST', '/organizations/', a, { name: 'Short-lived' });
    expect((await call('DELETE', `/organizations/${shortLived.body.id}`, a)).status).toBe(200);
    // Invitations: one accepted (its membership is part of the fact), one resent then withdrawn.
    const invitesTo = `/organizations/${b.organizationId}/workspaces/${(await call('GET', `/organizations/${b.organizationId}`, b)).body.default_workspace.id}`;
    const invited = await call('POST', `${invitesTo}/invite`, b, [{ email: a.email, roles: ['editor'] }]);
    expect(invited.status).toBe(200);
    expect((await call('POST', `${invitesTo}/invite/accept`, a, { token: new URL(invited.body.url).searchParams.get('token'), email: a.email })).status).toBe(200);
    const withdrawn = `${hex(6)}@invitee.example.org`;
    expect((await call('POST', `${invitesTo}/invite`, b, [{ email: withdrawn }])).status).toBe(200);
    expect((await call('POST', `${invitesTo}/invite/resend`, b, { email: withdrawn })).status).toBe(200);
    expect((await call('DELETE', `/workspaces/${invitesTo.split('/').pop()}/users?email=${withdrawn}`, b)).status).toBe(200);
    // Operator entities: a user alone (accounts.user.created), an organization made for them and deleted by the operator.
    const alone = await call('POST', '/admin/simple/accounts/users/', admin, { options: { seed_defaults: false }, user: { email: `${hex(6)}@alone.example.org` } });
    expect(alone.status).toBe(200);
    const made = await call('POST', '/admin/simple/accounts/organizations/', admin, { organization: { name: 'Operator-made' }, owner: { id: alone.body.accounts[0].users.user.id } });
    expect(made.status).toBe(200);
    expect((await call('DELETE', `/admin/simple/accounts/organizations/${made.body.accounts[0].organizations.org.id}`, admin)).status).toBe(200);
    expect((await call('POST', '/admin/simple/accounts/organizations/', admin, { organization: { name: 'Kept' }, owner: { id: alone.body.accounts[0].users.user.id } })).status).toBe(200);
    // Operator structure: a project created, given a role and deleted; a workspace role; ownership moved by the operator.
    const wsA = (await call('POST', '/admin/simple/accounts/workspaces/', admin, { workspace: { name: 'W', organization_ref: { id: a.organizationId } } })).body.accounts[0].workspaces.wrk.id;
    const extra = await call('POST', '/admin/simple/accounts/projects/', admin, { project: { name: 'Extra', organization_ref: { id: a.organizationId }, workspace_ref: { id: wsA } } });
    expect(extra.status).toBe(200);
    const extraId = extra.body.accounts[0].projects.prj.id;
    expect((await call('POST', '/admin/simple/accounts/projects/memberships/', admin, { membership: { project_ref: { id: extraId }, user_ref: { id: b.userId }, role: 'editor' } })).status).toBe(200);
    expect((await call('POST', '/admin/simple/accounts/workspaces/memberships/', admin, { membership: { workspace_ref: { id: wsA }, user_ref: { id: b.userId }, role: 'annotator' } })).status).toBe(200);
    expect((await call('POST', '/admin/simple/accounts/projects/', admin, { project: { name: 'Kept too', organization_ref: { id: a.organizationId }, workspace_ref: { id: wsA } } })).status).toBe(200);
    expect((await call('DELETE', `/admin/simple/accounts/projects/${extraId}`, admin)).status).toBe(200);
    const movedOrg = await call('POST', '/organizations/', a, { name: 'Moved by operator' });
    expect((await call('POST', '/admin/simple/accounts/organizations/memberships/', admin, { membership: { organization_ref: { id: movedOrg.body.id }, user_ref: { id: b.userId }, role: 'viewer' } })).status).toBe(200);
    expect((await call('POST', '/admin/simple/accounts/transfer-ownership', admin, { users: { source: { id: a.userId }, target: { id: b.userId } }, organizations: { m: { id: movedOrg.body.id } } })).status).toBe(204);
    const q = await call('POST', '/simple/queries/', a, { query: { slug: `errors-${hex(3)}`, tags: { team: 'a' }, data: { filtering: { conditions: [{ field: 'status_code', value: 'STATUS_CODE_ERROR' }] } } } });
    expect(q.status).toBe(200);
    expect((await call('POST', `/simple/queries/${q.body.query.id}/archive`, a)).status).toBe(200);
    expect((await call('POST', '/queries/variants/fork', a, { query_variant: { slug: `fork-${hex(3)}` }, query_variant_ref: { id: q.body.query.variant_id } })).status).toBe(200);
    // An application with a second variant committed once, a testset, and a human evaluation of both variants.
    const app = await call('POST', '/simple/applications/', a, { application: { slug: `app-${hex(3)}`, name: 'App', data: { uri: 'agenta:custom:mock:v0' } } });
    expect(app.status).toBe(200);
    const appVariant = await call('POST', '/applications/variants/', a, { application_variant: { slug: 'b', application_id: app.body.application.id } });
    expect((await call('POST', '/applications/revisions/commit', a, { application_revision: { application_id: app.body.application.id, application_variant_id: appVariant.body.application_variant.id } })).status).toBe(200);
    const testset = await call('POST', '/simple/testsets/', a, { testset: { slug: `ts-${hex(3)}`, name: 'T', data: { testcases: [{ data: { q: '1', correct_answer: 'a' } }, { data: { q: '2' } }] } } });
    expect((await call('POST', '/human-evaluations', a, {
      app_id: app.body.application.id, variant_ids: [app.body.application.variant_id, appVariant.body.application_variant.id], evaluation_type: 'human_a_b_testing',
      inputs: ['q'], testset_id: testset.body.testset.id, status: 'EVALUATION_INITIALIZED',
    })).status).toBe(200);
    // A taken slug: refused by the early answer, never in the log.
    expect((await call('POST', '/simple/queries/', a, { query: { slug: q.body.query.slug } })).status).toBe(409);
    expect((await call('DELETE', '/admin/simple/accounts/', admin, { accounts: { x: { user: { email: b.email } } } })).status).toBe(204);

    // Straight onto the topic: what a browser sign-in and sign-out append, and events that lose a
    // race the command's early answer cannot see (each aggregate's rule decides them in the log).
    const settings = { prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 };
    const topics = topicsFor(settings);
    const producer = await kafka.producer();
    const injected: string[] = [];
    const append = async <T extends EventType>(type: T, key: string, payload: EventPayloads[T], meta: { expectedVersion?: number; projectId?: string } = {}): Promise<void> => {
      const eventId = randomUUID();
      injected.push(eventId);
      await producer.send(topics.accounts, [{ key, value: encodeEvent(type, payload, { eventId, ...meta }) }]);
    };
    const newcomer = `${hex(6)}@sso.example.org`;
    const newcomerId = randomUUID();
    const signIn = { user_id: newcomerId, email: newcomer, name: 'N', create_user: true, method: 'sso:acme:okta', subject: hex(8), issuer: 'https://idp.example.com', auto_join_organization_id: '' };
    await append('accounts.identity.signed_in', `user:${newcomer}`, signIn);
    await append('accounts.identity.signed_in', `user:${newcomer}`, { ...signIn, user_id: randomUUID() });
    await append('accounts.session.revoked', `session:${hex(8)}`, { sid: hex(16), user_id: newcomerId, expires_at_us: Date.now() * 1000 + 3_600_000_000 });
    const orgKey = `organization:${a.organizationId}`;
    await append('accounts.organization.updated', orgKey, { organization_id: a.organizationId, name: 'Stale', description: '', flags_json: '{}' }, { expectedVersion: 1 });
    await append('accounts.provider.created', orgKey, { provider: { ...providerInfo(p.body), organization_id: a.organizationId, provider_id: randomUUID() } });
    await append('accounts.domain.verified', `domain:${d.body.domain}`, { domain_id: randomUUID(), organization_id: a.organizationId, domain: d.body.domain, token: 'x' });
    await append('accounts.api_key.revoked', `project:${a.projectId}:keys`, { key_id: randomUUID(), project_id: a.projectId });
    await append('accounts.webhook.deleted', `project:${a.projectId}:webhooks`, { subscription_id: randomUUID(), project_id: a.projectId });
    const noProject = randomUUID();
    await append('accounts.redaction.policy_set', `project:${noProject}:redaction`, { project_id: noProject, policy_json: '{}' });
    await append('accounts.membership.set', orgKey, { organization_id: a.organizationId, user_id: randomUUID(), role: 'viewer' });
    await append('accounts.organization.transferred', orgKey, { organization_id: a.organizationId, from_user_id: a.userId, to_user_id: randomUUID() });
    // Saved-query events of the first model (still in old logs) replay as an artifact + variant; a
    // commit claiming a version another commit took is refused (query_version_conflict).
    const legacy = { query_id: randomUUID(), variant_id: randomUUID() };
    const legacyRevision = (version: number) => ({ id: randomUUID(), slug: hex(6), version, filtering_json: '{"conditions":[]}', windowing_json: '', focus: 'span', format: '', message: '' });
    await append('accounts.query.created', `project:${a.projectId}:queries`, {
      ...legacy, slug: `legacy-${hex(3)}`, name: 'legacy', description: '', variant_slug: 'default', revision: legacyRevision(1),
    }, { projectId: a.projectId });
    await append('accounts.query.revision.committed', `project:${a.projectId}:queries`, { ...legacy, revision: legacyRevision(2) }, { projectId: a.projectId });
    await append('accounts.query.revision.added', `project:${a.projectId}:queries`, {
      query_id: q.body.query.id, variant_id: q.body.query.variant_id, revision_id: randomUUID(), slug: hex(6), version: 1,
      header: { name: '', description: '', tags_json: '', meta_json: '', flags_json: '' }, data_json: '', message: '',
    }, { projectId: a.projectId });
    // A query of a project deleted meanwhile (b's): artifacts go with their project, so it is refused.
    await append('accounts.query.artifact.created', `project:${b.projectId}:queries`, {
      query_id: randomUUID(), slug: `late-${hex(3)}`, header: { name: '', description: '', tags_json: '', meta_json: '', flags_json: '' }, folder_id: '',
    }, { projectId: b.projectId });
    // Applications and testsets of the first model (still in old logs) replay into the artifact
    // tables, a second one with a taken slug refused as the first model refused it, and a human
    // evaluation still names them; an artifact commit claiming a version another commit took is
    // refused (artifact_version_conflict).
    const legacyApp = { application_id: randomUUID(), variant_id: randomUUID(), revision_id: randomUUID() };
    await append('accounts.application.created', `project:${a.projectId}:applications`, {
      application: { application_id: legacyApp.application_id, project_id: a.projectId, slug: `old-${legacyApp.application_id.slice(0, 6)}`, name: 'Old app', description: '', tags_json: '', meta_json: '', flags_json: '', data_json: '{"uri":"agenta:custom:mock:v0"}' },
      variant_id: legacyApp.variant_id, variant_slug: hex(6), revision0_id: randomUUID(), revision_id: legacyApp.revision_id,
    }, { projectId: a.projectId });
    await append('accounts.application.created', `project:${a.projectId}:applications`, {
      application: { application_id: randomUUID(), project_id: a.projectId, slug: `old-${legacyApp.application_id.slice(0, 6)}`, name: 'Old app', description: '', tags_json: '', meta_json: '', flags_json: '', data_json: '' },
      variant_id: randomUUID(), variant_slug: hex(6), revision0_id: randomUUID(), revision_id: randomUUID(),
    }, { projectId: a.projectId });
    const legacyVariant = randomUUID();
    await append('accounts.application.variant_created', `project:${a.projectId}:applications`, {
      variant_id: legacyVariant, application_id: legacyApp.application_id, project_id: a.projectId, slug: 'b', name: 'B', flags_json: '', tags_json: '',
    }, { projectId: a.projectId });
    await append('accounts.application.revision_committed', `project:${a.projectId}:applications`, {
      revision_id: randomUUID(), variant_id: legacyVariant, application_id: legacyApp.application_id, project_id: a.projectId, slug: '', message: 'm', data_json: '{"uri":"agenta:custom:mock:v0"}', version: 0,
    }, { projectId: a.projectId });
    const legacyTestset = randomUUID();
    await append('accounts.testset.created', `project:${a.projectId}:testsets`, {
      testset_id: legacyTestset, project_id: a.projectId, slug: `old-${hex(3)}`, name: 'Old set', description: '', tags_json: '', meta_json: '',
      variant_id: randomUUID(), revision_id: randomUUID(), testcases: [{ testcase_id: randomUUID(), data_json: '{"q":"x"}' }],
    }, { projectId: a.projectId });
    await append('accounts.human_evaluation.created', `project:${a.projectId}:evaluations`, {
      evaluation_id: randomUUID(), project_id: a.projectId, app_id: legacyApp.application_id, evaluation_type: 'single_model_test', status: 'EVALUATION_INITIALIZED',
      testset_id: legacyTestset, variants: [{ variant_id: legacyApp.variant_id, revision_id: legacyApp.revision_id }],
      scenarios: [{ scenario_id: randomUUID(), inputs_json: '[{"input_name":"q","input_value":"x"}]', correct_answer: '' }],
    }, { projectId: a.projectId });
    await append('accounts.artifact.revision.added', `project:${a.projectId}:workflows`, {
      family: 'workflow', artifact_id: app.body.application.id, variant_id: app.body.application.variant_id,
      revision: { revision_id: randomUUID(), slug: hex(6), version: 1, header: { name: '', description: '', tags_json: '', meta_json: '', flags_json: '' }, data_json: '', message: '' },
    }, { projectId: a.projectId });
    // A plan change from a processor event, and the same processor event once more (applied at most once).
    const planChange = { organization_id: a.organizationId, plan: 'cloud_v0_business', active: true, anchor: 9, customer_id: 'cus_replay', subscription_id: 'sub_replay', reason: 'processor', processor_event_id: `evt_${hex(8)}`, reset_auth_flags: false, trialing: false };
    await append('accounts.billing.subscription_set', orgKey, planChange);
    await append('accounts.billing.subscription_set', orgKey, { ...planChange, plan: 'cloud_v0_hobby', reset_auth_flags: true });
    await eventually(async () => (await live.query('SELECT count(*)::int AS n FROM events WHERE event_id = ANY($1::uuid[])', [injected])).rows[0].n, (n) => n === injected.length, 30_000);
    // The first model's application and testset read as the artifacts they now are.
    const oldApp = await call('GET', `/simple/applications/${legacyApp.application_id}`, a);
    expect(oldApp).toMatchObject({ status: 200, body: { count: 1, application: { id: legacyApp.application_id, name: 'Old app', flags: { is_application: true } } } });
    expect(await call('GET', `/applications/revisions/${legacyApp.revision_id}`, a)).toMatchObject({ status: 200, body: { count: 1, application_revision: { version: '1', data: { uri: 'agenta:custom:mock:v0' } } } });
    expect(await call('GET', `/simple/testsets/${legacyTestset}`, a)).toMatchObject({ status: 200, body: { count: 1, testset: { name: 'Old set', data: { testcases: [{ data: { q: 'x' } }] } } } });
    const verdicts = (await live.query('SELECT type, status, rejection_code FROM events ORDER BY topic, partition, "offset"')).rows as Array<{ type: string; status: string; rejection_code: string | null }>;
    // Every aggregate has facts in the log, and the injected losers were refused with typed codes.
    expect(new Set(verdicts.filter((v) => v.status === 'applied').map((v) => aggregateOf(v.type)))).toEqual(new Set(Object.keys(AGGREGATES)));
    // (What the API refused never reached the log: the command's early answer uses the same rules.)
    expect(verdicts.filter((v) => v.status === 'rejected').map((v) => v.rejection_code).sort()).toEqual([
      'api_key_not_found', 'application_slug_taken', 'artifact_version_conflict', 'billing_event_applied', 'domain_not_found', 'organization_changed', 'organization_transfer_invalid', 'provider_slug_exists', 'query_project_not_found', 'query_version_conflict', 'redaction_project_not_found', 'user_exists', 'user_not_found', 'webhook_not_found',
    ]);

    // Rebuild into a fresh database from offset 0.
    const id = hex(4);
    const server = new pg.Client({ connectionString: t.databaseUrl });
    await server.connect();
    await server.query(`CREATE DATABASE r_${id}`);
    await server.end();
    rebuilt = openPostgres(t.databaseUrl.replace(/\/[^/]*$/, `/r_${id}`));
    const projector = createAccountsProjector({ kafka, producer, pool: rebuilt, topics, log: createLogger({ name: 'replay', level: 'silent' }), consumerName: `replay-${id}` });
    await projector.start();
    const expected = await outcomes(live);
    await eventually(async () => (await outcomes(rebuilt!)).length, (n) => n === expected.length, 30_000);
    await projector.stop();
    await producer.close();

    expect(await outcomes(rebuilt)).toEqual(expected);
    // The deleted organizations left project tombstones (for the span purge): the replay stamps them alike.
    expect((await dump(live, 'project_tombstones', 'project_id')).length).toBeGreaterThan(0);
    for (const [table, order] of TABLES) expect({ table, rows: await dump(rebuilt, table, order) }).toEqual({ table, rows: await dump(live, table, order) });
  });
});

/** The event-side shape of a provider as the API answered it. */
function providerInfo(view: { id: string; slug: string; settings: { issuer_url: string; client_id: string; scopes: string[] } }): EventPayloads['accounts.provider.created']['provider'] {
  return {
    provider_id: view.id, organization_id: '', slug: view.slug, name: '', description: '', flags_json: '{}', issuer_url: view.settings.issuer_url,
    client_id: view.settings.client_id, client_secret_sealed: '', scopes: view.settings.scopes, extra_json: '{}',
  };
}
