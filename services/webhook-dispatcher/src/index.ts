export { createWebhookDispatcher, DISPATCHER_MIGRATIONS, FAN_OUT_CONSUMER, DELIVERIES_CONSUMER, DELETIONS_CONSUMER } from './app.ts';
export type { WebhookDispatcher, WebhookDispatcherDeps } from './app.ts';
export { dispatcherEnv, dispatcherSettingsFromEnv, webhookDispatcherConfig } from './config.ts';
export type { DispatcherEnv, DispatcherSettings, WebhookDispatcherConfig } from './config.ts';
