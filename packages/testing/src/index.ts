export { startTestApp } from './test-app.ts';
export { testSecretsEnv } from './secrets.ts';
export type { TestApp } from './test-app.ts';
export { createAccount } from './accounts.ts';
export { eventually, EventuallyTimeoutError } from './eventually.ts';
export type { TestAccount } from './accounts.ts';
