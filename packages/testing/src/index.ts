export { testSecretsEnv } from './secrets.ts';
export { createAccount } from './accounts.ts';
export { eventually, EventuallyTimeoutError } from './eventually.ts';
export type { TestAccount } from './accounts.ts';
