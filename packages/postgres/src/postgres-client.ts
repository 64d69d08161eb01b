// The only module that imports the Postgres driver (pg).
import pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

export function openPostgres(url: string, opts: { max?: number } = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, idleTimeoutMillis: 30_000 });
  // An idle client error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  // Nor may one of a client checked out but between queries (a transaction waiting on Kafka, an
  // advisory-lock holder): the driver emits it on the client, and an unheard 'error' kills the
  // process. The client's next query fails, and its holder handles that.
  pool.on('connect', (client) => { client.on('error', () => undefined); });
  return pool;
}

export async function withTransaction<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const r = await fn(c);
    await c.query('COMMIT');
    return r;
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    c.release();
  }
}
