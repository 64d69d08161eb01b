// What a reader needs: a pool (command, query, auth) or the projector's transaction client, so the
// projector decides on exactly the state the command's early answer reads.
import { isUuid } from './aggregates/ids.ts';
import type { Pool } from '@llm/postgres';

export type Queryable = Pick<Pool, 'query'>;


/** A malformed id is looked up as NULL (matches nothing), never a failing cast that would stall a batch. */
export const asUuid = (s: string | undefined | null): string | null => (s != null && isUuid(s) ? s : null);
export { isUuid };

/** A UUID in any usual spelling (hyphens or not, braces, `urn:uuid:`), as its canonical lowercase form. */
export function parseUuid(s: string): string | undefined {
  const hex = s.trim().toLowerCase().replace(/^urn:uuid:/, '').replace(/^\{(.*)\}$/, '$1').replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
