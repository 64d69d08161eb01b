// The webhook subscription projection's SQL against the real Postgres: after each event the state
// the loader returns for it (the subscription with its version, its project and signing secret) is
// written out; the row holds the subscription as sent (nulls for the absent parts), and the
// dispatcher's reader sees only active subscriptions of matching types.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { type AccountEvent, activeWebhooksFor, queryWebhooks, readWebhook, type WebhookState } from '@llm/account-model';
import { uuidv7, type WebhookInfo } from '@llm/events';
import { ev as event, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

describe('webhook projection (Postgres)', () => {
  it('given a signing secret, when subscriptions are created, updated and deleted, then the loader returns each with its version; refused events change nothing', async () => {
    const hex = randomBytes(4).toString('hex');
    const [userId, orgId, wsId, projectId, secretId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const [w1, w2] = [uuidv7(), uuidv7()];
    const ev = (type: Parameters<typeof event>[0], payload: Parameters<typeof event>[1], expectedVersion = 0): AccountEvent =>
      event(type, payload, { actorId: userId, expectedVersion });
    await db.apply(ev('accounts.account.provisioned', {
      user: { id: userId, email: `${hex}@x.org`, name: '', username: hex }, organization: { id: orgId, name: 'A', slug: `a-${hex}` },
      workspace: { id: wsId, name: 'W', slug: 'w' }, project: { id: projectId, name: 'P', slug: 'p' }, api_key: null,
    }));
    await db.apply(ev('accounts.secret.created', { secret: {
      secret_id: secretId, project_id: projectId, slug: `webhook-${hex}`, kind: 'webhook_provider', name: 'webhook-a', description: '',
      public_data_json: '{"provider":{}}', sealed_data: 'v1.k.iv.ct.tag', write_only: true, managed_by: '', configured: true,
    } }));
    const info = (over: Partial<WebhookInfo>): WebhookInfo => ({
      subscription_id: w1, project_id: projectId, name: 'A', description: '', tags_json: '{"kind":"A"}', meta_json: '', is_active: true,
      url: 'https://example.com/a', headers_json: '{"X-Team":"t"}', payload_fields_json: '', auth_mode: 'signature', all_event_types: false,
      event_types: ['traces.queried'], secret_id: secretId, ...over,
    });
    const project = [{ id: projectId }];
    const signing = [{ id: secretId, projectId }];
    // Each event, its verdict, and the state the loader returns for it afterwards: the event's project
    // (if it exists), its subscription with its version, and its signing secret.
    const steps: Array<[AccountEvent, string, WebhookState]> = [
      [ev('accounts.webhook.created', { subscription: info({}) }), 'ok', { projects: project, subscriptions: [{ id: w1, projectId, version: 1 }], secrets: signing }],
      [ev('accounts.webhook.created', { subscription: info({}) }), 'webhook_exists', { projects: project, subscriptions: [{ id: w1, projectId, version: 1 }], secrets: signing }],
      [ev('accounts.webhook.created', { subscription: info({ subscription_id: w2, secret_id: randomUUID() }) }), 'webhook_secret_not_found', { projects: project, subscriptions: [], secrets: [] }],
      [ev('accounts.webhook.created', { subscription: info({ subscription_id: w2, name: 'B', tags_json: '{"kind":"B"}', all_event_types: true }) }), 'ok',
        { projects: project, subscriptions: [{ id: w2, projectId, version: 1 }], secrets: signing }],
      [ev('accounts.webhook.updated', { subscription: info({ is_active: false }) }, 1), 'ok', { projects: project, subscriptions: [{ id: w1, projectId, version: 2 }], secrets: signing }],
      [ev('accounts.webhook.updated', { subscription: info({ is_active: true }) }, 1), 'webhook_changed', { projects: project, subscriptions: [{ id: w1, projectId, version: 2 }], secrets: signing }],
      [ev('accounts.webhook.deleted', { subscription_id: w2, project_id: randomUUID() }), 'webhook_not_found', { projects: [], subscriptions: [{ id: w2, projectId, version: 1 }], secrets: [] }],
    ];
    for (const [i, [e, verdict, after]] of steps.entries()) expect(await db.step('webhook', e), `step ${i}`).toEqual({ verdict, after });
    expect(await readWebhook(db.pool, projectId, w1)).toMatchObject({
      id: w1, name: 'A', description: null, tags: { kind: 'A' }, meta: null, is_active: false, headers: { 'X-Team': 't' }, payload_fields: null,
      event_types: ['traces.queried'], secret_id: secretId, version: 2, created_by_id: userId,
    });
    expect((await readWebhook(db.pool, projectId, w2))!.event_types).toBeNull();
    // The dispatcher's view: w1 is stopped; w2 takes every type.
    expect((await activeWebhooksFor(db.pool, projectId, 'traces.queried')).map((r) => r.id)).toEqual([w2]);
    // Queries: newest first (UUIDv7), tag containment, name substring, paging below an id.
    expect((await queryWebhooks(db.pool, projectId)).map((r) => r.id)).toEqual([w2, w1]);
    expect((await queryWebhooks(db.pool, projectId, { tags: { kind: 'A' } })).map((r) => r.id)).toEqual([w1]);
    expect((await queryWebhooks(db.pool, projectId, { name: 'b' })).map((r) => r.id)).toEqual([w2]);
    expect((await queryWebhooks(db.pool, projectId, { before: w2, limit: 1 })).map((r) => r.id)).toEqual([w1]);
    expect(await db.step('webhook', ev('accounts.webhook.deleted', { subscription_id: w1, project_id: projectId })))
      .toEqual({ verdict: 'ok', after: { projects: project, subscriptions: [], secrets: [] } });
    expect(await readWebhook(db.pool, projectId, w1)).toBeUndefined();
  });
});
