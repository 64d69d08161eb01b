// The read routes of the versioned-artifact model, one factory for every entity (reference
// evaluations §1.2–§1.4, §2.2, §2.5–§2.7): `GET /simple/<entity>s/{id}`, `POST /simple/<entity>s/query`
// and `POST /<entity>s/revisions/retrieve`. Unknown ids and unresolved references answer
// `{count: 0}`; a retrieve without references is `{count: 0}` for testsets and a 400 for the
// workflow family (the reference's split). Another project's artifacts are unknown here.
import type { RequestHandler } from 'express';
import {
  familyOf, listArtifacts, ofEntity, resolveRevision, retrievalInfo, revisionData, revisionView, simpleArtifactAnswer, simpleAnswerOf,
  type ArtifactEntity,
} from '@llm/account-model';
import { revisionRetrieve, simpleArtifactsQuery, type ArtifactRef, type RouteId } from '@llm/contracts';
import { invalid } from '@llm/errors';
import { uuidParam, validate, type Guards, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';

const PLURAL: Record<ArtifactEntity, string> = { testset: 'testsets', application: 'applications', evaluator: 'evaluators', workflow: 'workflows' };
type JsonMap = Record<string, unknown>;

export function artifactReadRoutes(entity: ArtifactEntity, deps: { pool: Pool }, guards: Guards<'view'>): Handlers {
  const { pool } = deps;
  const e = entity;
  const family = familyOf(entity);

  const fetch: RequestHandler = async (req, res) => {
    const id = uuidParam(req.params, `${e}_id`);
    const view = await simpleArtifactAnswer(pool, req.scope.projectId, entity, id, { variant: e !== 'testset', revision: e !== 'testset' });
    res.json(view ? { count: 1, [e]: view } : { count: 0 });
  };

  const query: RequestHandler = async (req, res) => {
    const body = validate(simpleArtifactsQuery(e), req.body ?? {});
    const f = (body[e] ?? {}) as { name?: string | null; description?: string | null; flags?: JsonMap | null; tags?: JsonMap | null; slug?: string | null; slugs?: string[] | null };
    const refs = (body[`${e}_refs`] ?? []) as ArtifactRef[];
    const ids = refs.map((r) => r.id).filter((x): x is string => typeof x === 'string');
    const slugs = [...refs.map((r) => r.slug), f.slug, ...(f.slugs ?? [])].filter((x): x is string => typeof x === 'string');
    const windowing = body.windowing as { limit?: number | null } | null | undefined;
    const rows = await listArtifacts(pool, req.scope.projectId, family, {
      ids: ids.length ? ids : undefined, slugs: slugs.length ? slugs : undefined,
      name: f.name ?? undefined, description: f.description ?? undefined, tags: f.tags ?? undefined,
      // Applications and evaluators are workflows with their role flag; other flags filter the artifact's.
      flags: { ...(f.flags ?? {}), ...(e === 'application' ? { is_application: true } : e === 'evaluator' ? { is_evaluator: true } : {}) },
      includeArchived: body.include_archived === true, limit: windowing?.limit ?? undefined,
    });
    const views = await Promise.all(rows.filter((a) => ofEntity(a, entity)).map((a) => simpleAnswerOf(pool, a)));
    res.json({ count: views.length, [`${e}s`]: views });
  };

  const retrieve: RequestHandler = async (req, res) => {
    const body = validate(revisionRetrieve(e), req.body ?? {}) as Record<string, unknown>;
    const refs = { artifact: body[`${e}_ref`] as ArtifactRef | null, variant: body[`${e}_variant_ref`] as ArtifactRef | null, revision: body[`${e}_revision_ref`] as ArtifactRef | null };
    if (family === 'workflow' && !refs.artifact && !refs.variant && !refs.revision) {
      throw invalid('refs_required', `Provide ${e} refs or environment refs with key to retrieve a ${e} revision.`);
    }
    const r = await resolveRevision(pool, req.scope.projectId, entity, refs);
    if (r.status === 'invalid') throw invalid('refs_invalid', r.message);
    if (r.status === 'none' || !ofEntity(r.found.artifact, entity)) { res.json({ count: 0 }); return; }
    const { artifact, variant, revision } = r.found;
    const data = await revisionData(pool, revision, family, {
      testcaseIds: body.include_testcase_ids as boolean | null, testcases: body.include_testcases as boolean | null, window: body.windowing as { limit?: number | null } | null,
    });
    res.json({ count: 1, [`${e}_revision`]: revisionView(e, revision, data, { artifact, variant }), retrieval_info: retrievalInfo(e, artifact, variant, revision) });
  };

  const id = (op: string): RouteId => op as RouteId;
  return {
    [id(`simple.${PLURAL[e]}.fetch`)]: [...guards.view, fetch],
    [id(`simple.${PLURAL[e]}.query`)]: [...guards.view, query],
    [id(`${PLURAL[e]}.revisions.retrieve`)]: [...guards.view, retrieve],
  };
}
