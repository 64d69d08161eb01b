// The WHERE clauses of the evaluation reads (run/reads.ts, queue/reads.ts): conditions added one at a
// time with numbered parameters, every read scoped to one project, and the id-keyed windowing.
import { asUuid } from '@llm/account-model';

type Json = Record<string, unknown>;

/** A page: `next` = the last id seen (exclusive), `limit` ≥ 1, `newest`/`oldest` bound `created_at`; unsent = everything. */
export interface Windowing { newest?: string | undefined; oldest?: string | undefined; next?: string | undefined; limit?: number | undefined; order?: 'ascending' | 'descending' | undefined }

/** A WHERE clause built one condition at a time, with its numbered parameters. */
export class Where {
  readonly parts: string[] = [];
  readonly values: unknown[] = [];
  add(sql: (p: string) => string, value: unknown): void { this.values.push(value); this.parts.push(sql(`$${this.values.length}`)); }
  /** A filter on one value or a list of values (both absent: no condition). */
  oneOrMany(column: string, cast: string, one: unknown, many: readonly unknown[] | undefined): void {
    const list = [...(one !== undefined && one !== null ? [one] : []), ...(many ?? [])];
    if (one !== undefined || many !== undefined) this.add((p) => `${column} = ANY(${p}::${cast}[])`, list);
  }
  contains(column: string, value: Json | undefined): void { if (value !== undefined) this.add((p) => `${column} @> ${p}::jsonb`, JSON.stringify(value)); }
  window(w: Windowing | undefined, defaultOrder: 'ascending' | 'descending'): string {
    const order = w?.order ?? defaultOrder;
    if (w?.newest) this.add((p) => `created_at <= ${p}::timestamptz`, w.newest);
    if (w?.oldest) this.add((p) => `created_at >= ${p}::timestamptz`, w.oldest);
    if (w?.next) this.add((p) => `id ${order === 'ascending' ? '>' : '<'} ${p}::uuid`, asUuid(w.next));
    const limit = w?.limit !== undefined ? ` LIMIT ${Math.max(1, Math.floor(w.limit))}` : '';
    return ` ORDER BY id ${order === 'ascending' ? 'ASC' : 'DESC'}${limit}`;
  }
  sql(): string { return this.parts.length ? ` WHERE ${this.parts.join(' AND ')}` : ''; }
}

export const project = (projectId: string): Where => { const w = new Where(); w.add((p) => `project_id = ${p}::uuid`, asUuid(projectId)); return w; };
export const uuids = (ids: readonly string[] | undefined): string[] | undefined => ids?.map(asUuid).filter((x): x is string => x !== null);
