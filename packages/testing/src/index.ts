export { startTestApp } from './test-app.ts';
export type { TestApp } from './test-app.ts';
export { createAccount, eventually } from './accounts.ts';
export type { TestAccount } from './accounts.ts';
