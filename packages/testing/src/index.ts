export { startTestApp } from './test-app.ts';
export { testSecretsEnv } from './secrets.ts';
export type { TestApp } from './test-app.ts';
export { createAccount, eventually } from './accounts.ts';
export type { TestAccount } from './accounts.ts';
