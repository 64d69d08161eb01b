// How human evaluations read to a client (reference accounts §12): the list items, and the id rule
// the reference answers 400 to, shared by the command's writes and the query service's list.
import type { HumanEvaluationView } from '@llm/contracts';
import { invalid } from '@llm/errors';
import { parseUuid } from '../../queryable.ts';
import type { HumanEvaluationRow } from './reads.ts';

/** The reference's answer to an id that is not a UUID (§4.1: the UUID parser's text). */
export const BADLY_FORMED_UUID = 'badly formed hexadecimal UUID string';

/** A /human-evaluations id: the reference answers a malformed one 400 with the UUID parser's text. */
export function evaluationUuid(value: string): string {
  const id = parseUuid(value);
  if (id === undefined) throw invalid('badly_formed_uuid', BADLY_FORMED_UUID);
  return id;
}

/** A list item of GET /human-evaluations (§12): revision numbers as text, `" None"` when the linked revision is gone. */
export function evaluationView(e: HumanEvaluationRow): HumanEvaluationView {
  const created = e.created_at.toISOString();
  return {
    id: e.id, app_id: e.app_id, project_id: e.project_id, evaluation_type: e.evaluation_type,
    variant_ids: e.variant_ids, variant_names: e.variant_names.map((n) => n ?? ''), variants_revision_ids: e.variants_revision_ids,
    revisions: e.revisions.map((n) => (n === null ? ' None' : String(n))),
    testset_id: e.testset_id, testset_name: e.testset_name ?? '', status: e.status, created_at: created, updated_at: e.updated_at?.toISOString() ?? created,
  };
}
