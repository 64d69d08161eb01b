// The one reader of projects' retention (projects.retention_minutes, 0018-project-retention.sql) and
// the horizon every reader of spans, events and deliveries bounds its reads by (issue 30): the
// shorter of the organization's plan retention and the project's own, from now. Cached per project
// like the plan (a change this process makes is seen at once through `invalidate`, another
// process's within `ttlMs`); the horizon itself moves with the clock on every call.
import { retentionHorizon, type AccessCatalog, type PlanResolver, type RetentionHorizon } from '@llm/access';
import { asUuid, type Queryable } from '@llm/account-model';

export interface ProjectRetentionRow { project_id: string; organization_id: string; retention_minutes: number }

export async function readProjectRetention(q: Queryable, projectId: string): Promise<ProjectRetentionRow | undefined> {
  const r = await q.query<ProjectRetentionRow>(
    'SELECT id::text AS project_id, organization_id::text AS organization_id, retention_minutes FROM projects WHERE id = $1', [asUuid(projectId)]);
  return r.rows[0];
}

/** Every project with its organization and own retention, in id order after `afterId` (the purge's pages). */
export async function projectRetentionsPage(q: Queryable, afterId: string | undefined, limit: number): Promise<ProjectRetentionRow[]> {
  const r = await q.query<ProjectRetentionRow>(
    `SELECT id::text AS project_id, organization_id::text AS organization_id, retention_minutes FROM projects
      WHERE ($1::uuid IS NULL OR id > $1::uuid) ORDER BY id LIMIT $2`, [afterId ?? null, limit]);
  return r.rows;
}

export interface RetentionHorizons {
  /** The project's horizon now; `{}` (nothing expires) for a project the read model does not hold. */
  horizonOf(projectId: string): Promise<RetentionHorizon>;
  invalidate(projectId: string): void;
}

export function retentionHorizons(o: {
  pool: Queryable; plans: PlanResolver; access: Pick<AccessCatalog, 'plans' | 'planCacheMs'>; now?: () => number; maxEntries?: number;
}): RetentionHorizons {
  const now = o.now ?? Date.now;
  const max = o.maxEntries ?? 100_000;
  const cache = new Map<string, { at: number; row: Promise<ProjectRetentionRow | undefined> }>();
  const key = (id: string): string => id.toLowerCase();
  function rowOf(projectId: string): Promise<ProjectRetentionRow | undefined> {
    const k = key(projectId);
    const hit = cache.get(k);
    if (hit && now() - hit.at < o.access.planCacheMs) return hit.row;
    const row = readProjectRetention(o.pool, projectId);
    row.catch(() => { if (cache.get(k)?.row === row) cache.delete(k); });
    cache.delete(k);
    cache.set(k, { at: now(), row });
    if (cache.size > max) cache.delete(cache.keys().next().value!);
    return row;
  }
  return {
    async horizonOf(projectId) {
      const row = await rowOf(projectId);
      if (!row) return {};
      const { plan } = await o.plans.planOf(row.organization_id);
      return retentionHorizon(o.access.plans, plan, row.retention_minutes, now());
    },
    invalidate(projectId) { cache.delete(key(projectId)); },
  };
}

/**
 * Every project's horizon now, a page at a time (project id order): the input of the retention
 * purges. Plans come through the resolver (cached per organization).
 */
export function projectHorizonsPage(o: { pool: Queryable; plans: PlanResolver; access: Pick<AccessCatalog, 'plans'>; now?: () => number }) {
  const now = o.now ?? Date.now;
  return async (afterId: string | undefined, limit: number): Promise<Array<{ projectId: string } & RetentionHorizon>> => {
    const rows = await projectRetentionsPage(o.pool, afterId, limit);
    const at = now();
    const out: Array<{ projectId: string } & RetentionHorizon> = [];
    for (const row of rows) {
      const { plan } = await o.plans.planOf(row.organization_id);
      out.push({ projectId: row.project_id, ...retentionHorizon(o.access.plans, plan, row.retention_minutes, at) });
    }
    return out;
  };
}
