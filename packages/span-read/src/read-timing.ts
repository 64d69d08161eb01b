// Read-model query durations, taken where every read of the query side passes: ReadModel.guard for
// ClickHouse, and the Postgres pool the query handlers are given (wrapped here, so each reader keeps
// calling `pool.query` as before). Labelled by store and outcome only: the statements themselves are
// too many and too varied to be labels.
import type { Pool } from '@llm/postgres';
import { DURATION_BUCKETS_SECONDS, histogram } from '@llm/metrics';

const duration = histogram('read_model_query_duration_seconds', 'Time of one read-model query on the query side, per store (clickhouse, postgres) and outcome (ok, error).', ['store', 'outcome'], DURATION_BUCKETS_SECONDS);

export async function timedRead<T>(store: 'clickhouse' | 'postgres', fn: () => Promise<T>): Promise<T> {
  const stop = duration.startTimer();
  try {
    const r = await fn();
    stop({ store, outcome: 'ok' });
    return r;
  } catch (err) {
    stop({ store, outcome: 'error' });
    throw err;
  }
}

const timedPools = new WeakMap<Pool, Pool>();

/** The pool with its `query` timed; everything else (connect for transactions, events) is the pool's own. */
export function timedPool(pool: Pool): Pool {
  let t = timedPools.get(pool);
  if (!t) {
    const query = ((...args: Parameters<Pool['query']>) => timedRead('postgres', () => (pool.query as (...a: unknown[]) => Promise<unknown>)(...args))) as Pool['query'];
    t = new Proxy(pool, {
      get(target, prop) {
        if (prop === 'query') return query;
        const v: unknown = Reflect.get(target, prop, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    timedPools.set(pool, t);
  }
  return t;
}
