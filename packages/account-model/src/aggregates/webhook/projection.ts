// webhook_subscriptions from the webhook aggregate's facts (rules: rules.ts).
// Deleting a subscription removes only the subscription here: its deliveries are the webhook
// dispatcher's table, which reads the deletion from the accounts topic itself (reference §9.3:
// deliveries cascade).
import { eventTime } from '../../account-event.ts';
import type { WebhookEvent, WebhookState } from './rules.ts';
import type { SqlStatement } from '../../statement.ts';

const jsonOrNull = (s: string): string | null => (s === '' ? null : s);

export function projectWebhook(e: WebhookEvent, _s: WebhookState): SqlStatement[] {
  const at = eventTime(e);
  if (e.type === 'accounts.webhook.deleted') {
    const p = e.payload;
    return [{ text: 'DELETE FROM webhook_subscriptions WHERE id = $1 AND project_id = $2', values: [p.subscription_id, p.project_id] }];
  }
  const i = e.payload.subscription;
  const values = [
    i.subscription_id, i.project_id, i.name || null, i.description || null, jsonOrNull(i.tags_json), jsonOrNull(i.meta_json), i.is_active,
    i.url, jsonOrNull(i.headers_json), jsonOrNull(i.payload_fields_json), i.auth_mode || 'signature', i.all_event_types ? null : i.event_types,
    i.secret_id, at, e.actorId || null,
  ];
  return [e.type === 'accounts.webhook.created'
    ? {
      text: `INSERT INTO webhook_subscriptions (id, project_id, name, description, tags, meta, is_active, url, headers, payload_fields, auth_mode, event_types,
               secret_id, created_at, updated_at, created_by_id, updated_by_id)
             VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9::jsonb, $10::jsonb, $11, $12, $13, $14, $14, $15, $15)`,
      values,
    }
    : {
      text: `UPDATE webhook_subscriptions SET name = $3, description = $4, tags = $5::jsonb, meta = $6::jsonb, is_active = $7, url = $8, headers = $9::jsonb,
               payload_fields = $10::jsonb, auth_mode = $11, event_types = $12, secret_id = $13, updated_at = $14, updated_by_id = $15, version = version + 1
             WHERE id = $1 AND project_id = $2`,
      values,
    }];
}
