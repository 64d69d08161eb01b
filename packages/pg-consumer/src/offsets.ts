// Postgres-backed consumers keep their positions in projector_offsets (0001-accounts.sql), written
// in the same transaction as what they derived from the records: a batch is applied exactly once.
import type { Pool } from '@llm/postgres';

type Queryable = Pick<Pool, 'query'>;

export function offsetStore(consumerName: string): {
  startOffset(q: Queryable, topic: string, partition: number): Promise<bigint | undefined>;
  storeOffset(q: Queryable, topic: string, partition: number, next: bigint): Promise<void>;
} {
  return {
    async startOffset(q, topic, partition) {
      const r = await q.query<{ next_offset: string }>(
        'SELECT next_offset FROM projector_offsets WHERE consumer = $1 AND topic = $2 AND partition = $3',
        [consumerName, topic, partition],
      );
      return r.rows[0] ? BigInt(r.rows[0].next_offset) : undefined;
    },
    async storeOffset(q, topic, partition, next) {
      await q.query(
        `INSERT INTO projector_offsets (consumer, topic, partition, next_offset) VALUES ($1,$2,$3,$4)
         ON CONFLICT (consumer, topic, partition) DO UPDATE SET next_offset = GREATEST(projector_offsets.next_offset, EXCLUDED.next_offset)`,
        [consumerName, topic, partition, next.toString()],
      );
    },
  };
}
