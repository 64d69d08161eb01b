// The testcases of testsets (reference evaluations §2.2): immutable rows named by content, read by
// id (`GET /testcases/`, `GET /testcases/{id}`) or by testset or testset revision
// (`POST /testcases/query`: a revision's ordered ids, paged by position; a testset's stored rows,
// oldest first). Another project's testcases are unknown here.
import type { RequestHandler } from 'express';
import { parseUuid, readProjectTestcases, readTestcasesByIds, readTestsetTestcases, resolveRevision, testcaseView } from '@llm/account-model';
import { testcasesList, testcasesQuery, type ArtifactRef } from '@llm/contracts';
import { invalid } from '@llm/errors';
import { uuidParam, validate, type Guards, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';

export function testcaseRoutes(deps: { pool: Pool }, guards: Guards<'view'>): Handlers {
  const { pool } = deps;

  const list: RequestHandler = async (req, res) => {
    const q = validate(testcasesList, req.query, 'query');
    const repeated = q.testcase_id === undefined ? [] : Array.isArray(q.testcase_id) ? q.testcase_id : [q.testcase_id];
    const ids = [...repeated, ...(q.testcase_ids ?? '').split(',').map((x) => x.trim()).filter(Boolean)];
    if (ids.length === 0) throw invalid('testcase_ids_required', 'At least one testcase_id query parameter is required.');
    const parsed = ids.map((id) => parseUuid(id)).filter((x): x is string => x !== undefined);
    const rows = await readProjectTestcases(pool, req.scope.projectId, parsed);
    res.json({ count: rows.length, testcases: rows.map(testcaseView) });
  };

  const fetch: RequestHandler = async (req, res) => {
    const [row] = await readProjectTestcases(pool, req.scope.projectId, [uuidParam(req.params, 'testcase_id')]);
    res.json(row ? { count: 1, testcase: testcaseView(row) } : { count: 0 });
  };

  const query: RequestHandler = async (req, res) => {
    const body = validate(testcasesQuery, req.body ?? {});
    const w = body.windowing;
    const refs = { artifact: body.testset_ref as ArtifactRef | null | undefined, variant: body.testset_variant_ref as ArtifactRef | null | undefined, revision: body.testset_revision_ref as ArtifactRef | null | undefined };
    if (refs.artifact || refs.variant || refs.revision) {
      const r = await resolveRevision(pool, req.scope.projectId, 'testset', refs);
      if (r.status === 'invalid') throw invalid('refs_invalid', r.message);
      if (r.status === 'none') { res.json({ count: 0, testcases: [] }); return; }
      const data = r.found.revision.data;
      let ids = Array.isArray(data?.testcase_ids) ? data.testcase_ids.filter((x): x is string => typeof x === 'string') : [];
      if (w?.order === 'descending') ids = [...ids].reverse();
      // Paged by position in the revision's list: `next` is the last id seen (unknown: an empty page).
      if (w?.next) { const at = ids.indexOf(w.next); ids = at < 0 ? [] : ids.slice(at + 1); }
      const page = w?.limit != null ? ids.slice(0, w.limit) : ids;
      const rows = await readTestcasesByIds(pool, r.found.artifact.id, page);
      const more = w?.limit != null && ids.length > page.length && page.length > 0;
      res.json({ count: rows.length, testcases: rows.map(testcaseView), ...(more ? { windowing: { next: page[page.length - 1], limit: w.limit } } : {}) });
      return;
    }
    if (!body.testcase_ids && !body.testset_id) {
      throw invalid('testcase_filter_required', 'At least one filter is required: testcase_ids, testset_id, testset_ref/testset_variant_ref/testset_revision_ref.');
    }
    let rows = body.testcase_ids ? await readProjectTestcases(pool, req.scope.projectId, body.testcase_ids) : [];
    if (body.testset_id) {
      rows = body.testcase_ids
        ? rows.filter((t) => t.testset_id === body.testset_id)
        : await readTestsetTestcases(pool, req.scope.projectId, body.testset_id, { next: w?.next, limit: w?.limit });
    }
    const more = !body.testcase_ids && w?.limit != null && rows.length === w.limit;
    res.json({ count: rows.length, testcases: rows.map(testcaseView), ...(more ? { windowing: { next: rows[rows.length - 1]!.id, limit: w.limit } } : {}) });
  };

  return {
    'testcases.list': [...guards.view, list],
    'testcases.fetch': [...guards.view, fetch],
    'testcases.query': [...guards.view, query],
  };
}
