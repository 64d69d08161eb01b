// What a reader needs: a pool (command, query, auth) or the projector's transaction client, so the
// projector decides on exactly the state the command's early answer reads.
import { isUuid } from './aggregates/ids.ts';
import type { Pool } from '@llm/postgres';

export type Queryable = Pick<Pool, 'query'>;


/** A malformed id is looked up as NULL (matches nothing), never a failing cast that would stall a batch. */
export const asUuid = (s: string | undefined | null): string | null => (s != null && isUuid(s) ? s : null);
export { isUuid };

export { parseUuid } from '@llm/contracts';
