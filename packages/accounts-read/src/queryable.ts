// What a reader needs: a pool (command, query, auth) or the projector's transaction client, so the
// projector decides on exactly the state the command's early answer reads.
import type { Pool } from '@llm/postgres';

export type Queryable = Pick<Pool, 'query'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id is looked up as NULL (matches nothing), never a failing cast that would stall a batch. */
export const asUuid = (s: string | undefined | null): string | null => (s != null && UUID.test(s) ? s : null);
export const isUuid = (s: string): boolean => UUID.test(s);
