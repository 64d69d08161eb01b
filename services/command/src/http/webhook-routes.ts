// Webhook subscriptions (reference accounts §9.1–§9.3, §9.5). PLACEHOLDER: being implemented.
import type { RequestHandler } from 'express';
import type { Topics } from '@llm/events';
import type { Handlers } from '@llm/http';
import type { Producer } from '@llm/kafka';
import type { SecretsKeyring } from '@llm/oidc';
import type { OutboundClient } from '@llm/outbound';
import type { Pool } from '@llm/postgres';
import type { AccountCommands } from '../adapters/account-commands.ts';

export interface WebhookRouteDeps {
  pool: Pool;
  commands: AccountCommands;
  /** SECRETS_KEY: opens and seals the subscription's vault secret. */
  keyring: SecretsKeyring;
  /** The outbound guard (test deliveries). */
  outbound: OutboundClient;
  producer: Producer;
  topics: Topics;
}

const todo: RequestHandler = (_req, res) => { res.status(501).json({ detail: 'not implemented yet' }); };

export function webhookRoutes(_deps: WebhookRouteDeps, view: RequestHandler[], edit: RequestHandler[]): Handlers {
  return {
    'webhooks.subscriptions.create': [...edit, todo],
    'webhooks.subscriptions.test': [...edit, todo],
    'webhooks.subscriptions.query': [...view, todo],
    'webhooks.subscriptions.fetch': [...view, todo],
    'webhooks.subscriptions.edit': [...edit, todo],
    'webhooks.subscriptions.delete': [...edit, todo],
    'webhooks.subscriptions.start': [...edit, todo],
    'webhooks.subscriptions.stop': [...edit, todo],
  };
}
