// A database of its own on the test run's Postgres, migrated with the given folders, dropped on
// close: tests of one store's SQL never see another test's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migratePostgres, type Pool } from '@llm/postgres';

export interface FreshDatabase {
  pool: Pool;
  close(): Promise<void>;
}

/** `serverUrl`: the run's Postgres (`inject('databaseUrl')`); `migrations`: folders applied in order. */
export async function openFreshDatabase(serverUrl: string, migrations: readonly string[], opts: { prefix?: string; max?: number } = {}): Promise<FreshDatabase> {
  const admin = new pg.Pool({ connectionString: serverUrl, max: 1 });
  const name = `${opts.prefix ?? 'test'}_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: opts.max ?? 5 });
  // Dropping the database ends any connection the pool still holds: expected, not an error.
  pool.on('error', () => undefined);
  for (const dir of migrations) await migratePostgres(pool, dir);
  return {
    pool,
    async close() {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    },
  };
}
