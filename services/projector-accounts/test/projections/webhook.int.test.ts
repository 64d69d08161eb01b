// The webhook subscription projection's SQL against the real Postgres: after each event the state
// the reader loads is what `evolve` says; the row holds the subscription as sent (nulls for the
// absent parts), and the dispatcher's reader sees only active subscriptions of matching types.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { webhook, type AccountEvent, type WebhookState } from '@llm/account-model';
import { activeWebhooksFor, loadWebhookState, queryWebhooks, readWebhook } from '@llm/accounts-read';
import { uuidv7, type WebhookInfo } from '@llm/events';
import { ev as event, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const normal = (s: WebhookState) => ({ ...s, subscriptions: [...s.subscriptions].sort((a, b) => a.id.localeCompare(b.id)) });

describe('webhook projection (Postgres)', () => {
  it('stores what evolve says, event by event', async () => {
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
    const history: AccountEvent[] = [
      ev('accounts.webhook.created', { subscription: info({}) }),
      ev('accounts.webhook.created', { subscription: info({}) }),                                  // rejected: exists
      ev('accounts.webhook.created', { subscription: info({ subscription_id: w2, secret_id: randomUUID() }) }), // rejected: no such secret
      ev('accounts.webhook.created', { subscription: info({ subscription_id: w2, name: 'B', tags_json: '{"kind":"B"}', all_event_types: true }) }),
      ev('accounts.webhook.updated', { subscription: info({ is_active: false }) }, 1),
      ev('accounts.webhook.updated', { subscription: info({ is_active: true }) }, 1),              // rejected: stale version
      ev('accounts.webhook.deleted', { subscription_id: w2, project_id: randomUUID() }),           // rejected: another project
    ];
    let expected = await loadWebhookState(db.pool, history[0] as never);
    const verdicts: string[] = [];
    for (const e of history) {
      const decision = webhook.decide(e as never, expected);
      const [outcome] = await db.apply(e);
      expect(outcome).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
      verdicts.push(decision.status === 'accepted' ? 'ok' : decision.code);
      if (decision.status === 'accepted') expected = webhook.evolve(expected, e as never);
      // The reader loads the event's own subscription: it must be what evolve says about that id.
      const id = e.type === 'accounts.webhook.deleted' ? e.payload.subscription_id : (e.payload as { subscription: WebhookInfo }).subscription.subscription_id;
      expect((await loadWebhookState(db.pool, e as never)).subscriptions).toEqual(normal(expected).subscriptions.filter((x) => x.id === id));
    }
    expect(verdicts).toEqual(['ok', 'webhook_exists', 'webhook_secret_not_found', 'ok', 'ok', 'webhook_changed', 'webhook_not_found']);
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
    const [gone] = await db.apply(ev('accounts.webhook.deleted', { subscription_id: w1, project_id: projectId }));
    expect(gone).toEqual({ status: 'applied' });
    expect(await readWebhook(db.pool, projectId, w1)).toBeUndefined();
  });
});
