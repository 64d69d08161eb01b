export { createAccountsProjector, ACCOUNTS_MIGRATIONS, ACCOUNTS_CONSUMER } from './app.ts';
export type { AccountsProjectorDeps } from './app.ts';
export { platformFactsEnv } from './config.ts';
export { createOutboxRelay, OUTBOX_LOCK } from './outbox/relay.ts';
