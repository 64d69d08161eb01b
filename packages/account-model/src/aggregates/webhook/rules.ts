// Webhook subscriptions of a project (reference accounts §9). Every event of a project's
// subscriptions is keyed `project:<id>:webhooks`. A subscription is created in a project that
// exists, with a signing secret (a vault secret of kind `webhook_provider`) of the same project;
// edits, start and stop are full replacements decided at the version the command read.
import type { AccountEvent } from '../../account-event.ts';
import { rules } from '../../aggregate.ts';
import { accepted, checkVersion, reject, type Decision } from '../../decision.ts';
import { sameId } from '../ids.ts';

export type WebhookEventType = 'accounts.webhook.created' | 'accounts.webhook.updated' | 'accounts.webhook.deleted';
export type WebhookEvent = AccountEvent<WebhookEventType>;

export interface WebhookRef { id: string; projectId: string; version: number }

/** What a subscription event looks at: its project, the subscription, and its signing secret. */
export interface WebhookState {
  projects: Array<{ id: string }>;
  subscriptions: WebhookRef[];
  secrets: Array<{ id: string; projectId: string }>;
}

export const WEBHOOK_REJECTIONS = {
  webhook_project_not_found: 'not_found',
  webhook_exists: 'conflict',
  webhook_not_found: 'not_found',
  webhook_changed: 'conflict',
  webhook_secret_not_found: 'invalid',
} as const;
export type WebhookRejection = keyof typeof WEBHOOK_REJECTIONS;

export const WEBHOOK_NOT_FOUND = 'Webhook subscription not found';
const notFound = (): Decision<WebhookRejection> => reject('webhook_not_found', WEBHOOK_NOT_FOUND);
const byId = (s: WebhookState, id: string): WebhookRef | undefined => s.subscriptions.find((x) => sameId(x.id, id));

export const webhookRules = rules({
  eventTypes: ['accounts.webhook.created', 'accounts.webhook.updated', 'accounts.webhook.deleted'],
  rejections: WEBHOOK_REJECTIONS,

  decide(e: WebhookEvent, s: WebhookState): Decision<WebhookRejection> {
    if (e.type === 'accounts.webhook.deleted') {
      const current = byId(s, e.payload.subscription_id);
      return current && sameId(current.projectId, e.payload.project_id) ? accepted : notFound();
    }
    const i = e.payload.subscription;
    const current = byId(s, i.subscription_id);
    if (e.type === 'accounts.webhook.created') {
      if (!s.projects.some((p) => sameId(p.id, i.project_id))) return reject('webhook_project_not_found', 'Project not found');
      if (current) return reject('webhook_exists', 'Webhook subscription already exists');
    } else {
      if (!current || !sameId(current.projectId, i.project_id)) return notFound();
      const v = checkVersion('webhook_changed', 'webhook subscription', e.expectedVersion, current.version);
      if (v.status === 'rejected') return v;
    }
    if (!s.secrets.some((x) => sameId(x.id, i.secret_id) && sameId(x.projectId, i.project_id))) {
      return reject('webhook_secret_not_found', 'The subscription\'s secret does not exist in this project.');
    }
    return accepted;
  },
});

// The stream key: every event of this aggregate goes to one partition of the accounts topic, in order.
/** A project's webhook subscriptions. */
export const webhooksKey = (projectId: string): string => `project:${projectId}:webhooks`;
