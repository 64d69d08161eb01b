// How a queue reads to a client (reference evaluations §2.8): the run objects' conventions (id,
// version, lifecycle, no nulls); `flags` always holds is_default and is_sequential.
import { EVALUATION_OBJECT_VERSION } from '../run/views.ts';
import type { QueueRow } from './reads.ts';

type Json = Record<string, unknown>;
const withoutNulls = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function queueView(q: QueueRow): Json {
  return withoutNulls({
    id: q.id, version: EVALUATION_OBJECT_VERSION, created_at: iso(q.created_at), created_by_id: q.created_by_id, updated_at: iso(q.updated_at), updated_by_id: q.updated_by_id,
    deleted_at: iso(q.deleted_at), deleted_by_id: q.deleted_by_id,
    run_id: q.run_id, name: q.name, description: q.description, status: q.status,
    flags: { is_default: q.flags.is_default === true, is_sequential: q.flags.is_sequential === true },
    tags: q.tags, meta: q.meta, data: q.data && Object.keys(q.data).length > 0 ? q.data : null,
  });
}
