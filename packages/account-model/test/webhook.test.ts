// Given/when/then of the webhook subscription aggregate: created in a project that exists with a
// secret of that project, changed and deleted only in its own project, changes at the version read.
import { describe, expect, it } from 'vitest';
import { webhook, type AccountEvent, type WebhookState } from '../src/index.ts';
import { decideOn, ev } from './support/given.ts';

const P1 = '00000000-0000-4000-8000-0000000000d1';
const P2 = '00000000-0000-4000-8000-0000000000d2';
const W1 = '00000000-0000-7000-8000-0000000000e1';
const S1 = '00000000-0000-4000-8000-0000000000f1';
const S2 = '00000000-0000-4000-8000-0000000000f2';
const world: WebhookState = { projects: [{ id: P1 }, { id: P2 }], subscriptions: [], secrets: [{ id: S1, projectId: P1 }, { id: S2, projectId: P2 }] };

type Info = AccountEvent<'accounts.webhook.created'>['payload']['subscription'];
const info = (o: Partial<Info> = {}): Info => ({
  subscription_id: W1, project_id: P1, name: 'n', description: '', tags_json: '', meta_json: '', is_active: true, url: 'https://example.com/hook',
  headers_json: '', payload_fields_json: '', auth_mode: 'signature', all_event_types: true, event_types: [], secret_id: S1, ...o,
});
const created = (o: Partial<Info> = {}) => ev('accounts.webhook.created', { subscription: info(o) });
const updated = (o: Partial<Info> = {}, expectedVersion = 0) => ev('accounts.webhook.updated', { subscription: info(o) }, { expectedVersion });
const deleted = (project = P1, id = W1) => ev('accounts.webhook.deleted', { subscription_id: id, project_id: project });

const nothing: WebhookState = { projects: [], subscriptions: [], secrets: [] };
/** The world with subscription W1 of project P1 at `version`. */
const withSubscription = (version: number): WebhookState => ({ ...world, subscriptions: [{ id: W1, projectId: P1, version }] });

describe('webhook aggregate', () => {
  it('given the project and its secret, when a subscription is created, then it is accepted', () => {
    expect(decideOn(webhook, world, created()).status).toBe('accepted');
  });

  it('rejects a missing project, an existing id, and a secret of another project', () => {
    expect(decideOn(webhook, nothing, created())).toMatchObject({ code: 'webhook_project_not_found' });
    expect(decideOn(webhook, withSubscription(1), created())).toMatchObject({ code: 'webhook_exists' });
    expect(decideOn(webhook, world, created({ secret_id: S2 }))).toMatchObject({ code: 'webhook_secret_not_found' });
  });

  it('given a subscription, an update at the version read applies; at a stale version it is webhook_changed', () => {
    expect(decideOn(webhook, withSubscription(1), updated({ is_active: false }, 1)).status).toBe('accepted');
    expect(decideOn(webhook, withSubscription(2), updated({}, 1))).toMatchObject({ code: 'webhook_changed', details: { expected_version: 1, current_version: 2 } });
    expect(decideOn(webhook, withSubscription(2), updated({}, 0)).status).toBe('accepted');
  });

  it('an update or delete from another project, or of an unknown id, is webhook_not_found', () => {
    expect(decideOn(webhook, withSubscription(1), updated({ project_id: P2, secret_id: S2 }))).toMatchObject({ code: 'webhook_not_found', message: 'Webhook subscription not found' });
    expect(decideOn(webhook, withSubscription(1), deleted(P2))).toMatchObject({ code: 'webhook_not_found' });
    expect(decideOn(webhook, world, deleted())).toMatchObject({ code: 'webhook_not_found' });
  });

  it('given a subscription, when deleted, then it is accepted; with it gone, its id can be used again', () => {
    expect(decideOn(webhook, withSubscription(1), deleted()).status).toBe('accepted');
    expect(decideOn(webhook, world, created()).status).toBe('accepted');
  });
});
