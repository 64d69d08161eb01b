// A consumer that reads or writes another service's tables (the accounts read model, whose
// migrations projector-accounts runs) waits for them rather than creating them itself.
import type { Logger } from '@llm/logging';
import type { Pool } from '@llm/postgres';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Resolves once every table exists, or when `stopping()` turns true. */
export async function waitForTables(pool: Pool, tables: readonly string[], log: Logger, stopping: () => boolean, owner = 'projector-accounts'): Promise<void> {
  for (let i = 0; !stopping(); i++) {
    const r = await pool.query<{ missing: number }>(
      'SELECT count(*)::int AS missing FROM unnest($1::text[]) AS t(name) WHERE to_regclass(t.name) IS NULL', [tables],
    );
    if (r.rows[0]?.missing === 0) return;
    if (i % 20 === 0) log.info({ tables }, `waiting for tables of ${owner} (its migrations)`);
    await sleep(500);
  }
}
