export { createAccountsProjector, ACCOUNTS_MIGRATIONS, ACCOUNTS_CONSUMER } from './app.ts';
export type { AccountsProjectorDeps } from './app.ts';
