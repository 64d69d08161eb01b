export { openPostgres, withTransaction } from './postgres-client.ts';
export type { Pool, PoolClient } from './postgres-client.ts';
export { migratePostgres } from './migrate.ts';
export { classifyPostgresError } from './classify-error.ts';
