// The read routes of the versioned-artifact model, one factory for every entity (reference
// evaluations §1.2–§1.4, §2.2, §2.5–§2.7): the simple fetch and query, and the git reads — the
// artifact, a variant or a revision by id, the three lists, a revision's log and retrieve. Unknown ids and unresolved references answer
// `{count: 0}`; a retrieve without references is `{count: 0}` for testsets and a 400 for the
// workflow family (the reference's split). Another project's artifacts are unknown here.
import type { RequestHandler } from 'express';
import {
  ARTIFACT_ENTITIES, ARTIFACT_PLURALS, EmbedError, resolveEmbeds, type EmbedErrorPolicy, artifactView, familyOf, listArtifacts, listLevel, ofEntity, readArtifact, readLatestRevision, readRevision, readVariant, readVariants,
  resolveRevision, retrievalInfo, revisionData, revisionLog, revisionView, roleFlagOf, simpleArtifactAnswer, simpleAnswerOf, variantView,
  type ArtifactEntity, type ArtifactListWindow, type ArtifactRevisionRow, type ArtifactRow, type LevelFilter,
} from '@llm/account-model';
import {
  artifactResolve, artifactRevisionsLog, artifactRevisionsQuery, artifactsQuery, artifactVariantsQuery, revisionRetrieve, simpleArtifactsQuery, type ArtifactRef, type RouteId,
} from '@llm/contracts';
import type { Request } from 'express';
import { embedLookup } from './embed-lookup.ts';
import { invalid, notFound } from '@llm/errors';
import { uuidParam, validate, type Guards, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';

const PLURAL = ARTIFACT_PLURALS;
type JsonMap = Record<string, unknown>;

export function artifactReadRoutes(deps: { pool: Pool; entity: ArtifactEntity }, guards: Guards<'view'>): Handlers {
  const { pool, entity } = deps;
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

  /**
   * The environment path (§1.3, workflow views): the revision the environment's `key` names
   * (`data.references[key].<entity>_revision`); key default `<artifact slug>.revision`.
   */
  const viaEnvironment = async (req: Request, body: Record<string, unknown>, refs: { artifact: ArtifactRef | null; variant: ArtifactRef | null; revision: ArtifactRef | null }) => {
    const envRefs = { artifact: body.environment_ref as ArtifactRef | null, variant: body.environment_variant_ref as ArtifactRef | null, revision: body.environment_revision_ref as ArtifactRef | null };
    const E = `${e[0]!.toUpperCase()}${e.slice(1)}`;
    if (!envRefs.artifact && !envRefs.variant && !envRefs.revision) throw invalid('environment_refs_required', `Environment-backed ${e} retrieve requires environment refs.`);
    let key = typeof body.key === 'string' && body.key !== '' ? body.key : undefined;
    if (!key && refs.artifact?.slug) key = `${refs.artifact.slug}.revision`;
    if (!key && refs.artifact?.id) {
      const a = await artifactOf(req, refs.artifact.id);
      if (!a) throw invalid('environment_key_unknown', `Environment-backed ${e} retrieve could not derive key from ${e} slug.`);
      key = `${a.slug}.revision`;
    }
    if (!key) throw invalid('environment_key_required', `Environment-backed ${e} retrieve requires key.`);
    const env = await resolveRevision(pool, req.scope.projectId, 'environment', envRefs);
    if (env.status === 'invalid') throw invalid('refs_invalid', env.message);
    const entry = env.status === 'found' ? ((env.found.revision.data?.references ?? {}) as Record<string, Record<string, ArtifactRef> | undefined>)[key] : undefined;
    const pinned = entry?.[`${e}_revision`];
    if (!pinned || env.status !== 'found') throw notFound('environment_reference_missing', `Environment revision does not contain ${e} references for the requested key.`);
    const r = await resolveRevision(pool, req.scope.projectId, entity, { artifact: refs.artifact, variant: refs.variant, revision: { id: pinned.id ?? null, slug: pinned.id ? null : pinned.slug ?? null, version: refs.revision?.version ?? null } });
    if (r.status === 'invalid') throw invalid('refs_invalid', r.message);
    if (r.status === 'none') throw notFound('environment_reference_missing', `${E} revision named by the environment was not found.`);
    const ev = env.found;
    return { found: r.found, info: { references: { environment: { id: ev.artifact.id, slug: ev.artifact.slug }, environment_variant: { id: ev.variant.id, slug: ev.variant.slug }, environment_revision: { id: ev.revision.id, slug: ev.revision.slug, version: String(ev.revision.version) } }, selector: { key } } };
  };

  /** Embeds resolved through the project's revisions; under `exception` a failed embed is the client's error. */
  const resolveData = async (req: Request, data: Record<string, unknown>, opts: { self?: string; maxDepth?: number | null; maxEmbeds?: number | null; policy?: EmbedErrorPolicy | null }) => {
    try {
      return await resolveEmbeds(data, embedLookup(pool, req.scope.projectId), {
        ...(opts.maxDepth != null ? { maxDepth: opts.maxDepth } : {}), ...(opts.maxEmbeds != null ? { maxEmbeds: opts.maxEmbeds } : {}),
        errorPolicy: opts.policy ?? 'exception', ...(opts.self ? { self: { kind: 'workflow_revision', id: opts.self } } : {}),
      });
    } catch (err) {
      if (err instanceof EmbedError) throw err.kind === 'not_found' ? notFound('embed_not_found', err.message) : invalid(`embed_${err.kind}`, err.message);
      throw err;
    }
  };

  const resolve: RequestHandler = async (req, res) => {
    const body = validate(artifactResolve(e), req.body ?? {}) as Record<string, unknown>;
    const inline = body[`${e}_revision`] as { data?: Record<string, unknown> | null } | null | undefined;
    const opts = { maxDepth: body.max_depth as number | null, maxEmbeds: body.max_embeds as number | null, policy: body.error_policy as EmbedErrorPolicy | null };
    if (inline) {
      if (!inline.data) throw invalid('resolve_data_required', `Inline resolve payload \`${e}_revision\` must include \`data\`.`);
      const resolved = await resolveData(req, inline.data, opts);
      res.json({ count: 1, [`${e}_revision`]: { data: resolved.data }, resolution_info: resolved.info });
      return;
    }
    const refs = { artifact: body[`${e}_ref`] as ArtifactRef | null, variant: body[`${e}_variant_ref`] as ArtifactRef | null, revision: body[`${e}_revision_ref`] as ArtifactRef | null };
    const r = await resolveRevision(pool, req.scope.projectId, entity, refs);
    if (r.status === 'invalid') throw invalid('refs_invalid', r.message);
    if (r.status === 'none' || !ofEntity(r.found.artifact, entity)) { res.json({ count: 0 }); return; }
    const { artifact, variant, revision } = r.found;
    const resolved = await resolveData(req, revision.data ?? {}, { ...opts, self: revision.id });
    res.json({ count: 1, [`${e}_revision`]: revisionView(e, revision, resolved.data, { artifact, variant }), resolution_info: resolved.info });
  };

  const retrieve: RequestHandler = async (req, res) => {
    const body = validate(revisionRetrieve(e), req.body ?? {}) as Record<string, unknown>;
    const refs = { artifact: body[`${e}_ref`] as ArtifactRef | null, variant: body[`${e}_variant_ref`] as ArtifactRef | null, revision: body[`${e}_revision_ref`] as ArtifactRef | null };
    if (family === 'workflow' && (body.environment_ref || body.environment_variant_ref || body.environment_revision_ref || body.key)) {
      const { found, info } = await viaEnvironment(req, body, refs);
      const own = retrievalInfo(e, found.artifact, found.variant, found.revision) as { references: Record<string, unknown> };
      res.json({
        count: 1, [`${e}_revision`]: revisionView(e, found.revision, await revisionData(pool, found.revision, family), { artifact: found.artifact, variant: found.variant }),
        retrieval_info: { references: { ...info.references, ...own.references }, selector: info.selector },
      });
      return;
    }
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
    // `resolve: true` (workflow views): the data with its embeds resolved, and how (§1.3).
    const resolved = family === 'workflow' && body.resolve === true ? await resolveData(req, data ?? {}, { self: revision.id }) : undefined;
    res.json({
      count: 1, [`${e}_revision`]: revisionView(e, revision, resolved ? resolved.data : data, { artifact, variant }),
      retrieval_info: retrievalInfo(e, artifact, variant, revision), ...(resolved ? { resolution_info: resolved.info } : {}),
    });
  };

  // ── Git reads ──
  const artifactOf = async (req: Request, id: string): Promise<ArtifactRow | undefined> => {
    const a = await readArtifact(pool, req.scope.projectId, family, id);
    return a && ofEntity(a, entity) ? a : undefined;
  };
  const revisionAnswer = async (req: Request, r: ArtifactRevisionRow, a: ArtifactRow): Promise<Record<string, unknown>> => {
    const v = await readVariant(pool, req.scope.projectId, family, { id: r.variant_id });
    return revisionView(e, r, await revisionData(pool, r, family), v ? { artifact: a, variant: v } : undefined);
  };

  const fetchArtifact: RequestHandler = async (req, res) => {
    const a = await artifactOf(req, uuidParam(req.params, `${e}_id`));
    res.json(a ? { count: 1, [e]: artifactView(a) } : { count: 0 });
  };
  const fetchVariant: RequestHandler = async (req, res) => {
    const v = await readVariant(pool, req.scope.projectId, family, { id: uuidParam(req.params, `${e}_variant_id`) });
    const a = v && await artifactOf(req, v.artifact_id);
    res.json(v && a ? { count: 1, [`${e}_variant`]: variantView(e, v, a) } : { count: 0 });
  };
  const fetchRevision: RequestHandler = async (req, res) => {
    const r = await readRevision(pool, req.scope.projectId, family, { id: uuidParam(req.params, `${e}_revision_id`) });
    const a = r && await artifactOf(req, r.artifact_id);
    res.json(r && a ? { count: 1, [`${e}_revision`]: await revisionAnswer(req, r, a) } : { count: 0 });
  };

  const refFilter = (refs: ArtifactRef[] | null | undefined): LevelFilter | undefined => {
    if (!refs?.length) return undefined;
    const ids = refs.map((r) => r.id).filter((x): x is string => typeof x === 'string');
    const slugs = refs.map((r) => r.slug).filter((x): x is string => typeof x === 'string');
    return { ...(ids.length ? { ids } : {}), ...(slugs.length ? { slugs } : {}) };
  };
  const ownFilter = (f: Record<string, unknown> | null | undefined, refs: ArtifactRef[] | null | undefined): LevelFilter => {
    const fromRefs = refFilter(refs) ?? {};
    const slugs = [...(fromRefs.slugs ?? []), ...[f?.slug, ...((f?.slugs as string[] | null | undefined) ?? [])].filter((x): x is string => typeof x === 'string')];
    return {
      ...fromRefs, ...(slugs.length ? { slugs } : {}),
      name: f?.name as string | null | undefined, description: f?.description as string | null | undefined,
      flags: f?.flags as Record<string, unknown> | null | undefined, tags: f?.tags as Record<string, unknown> | null | undefined,
    };
  };
  const role = roleFlagOf(entity);

  const queryArtifacts: RequestHandler = async (req, res) => {
    const body = validate(artifactsQuery(e), req.body ?? {}) as Record<string, unknown>;
    const rows = await listLevel(pool, req.scope.projectId, family, 'artifact', {
      own: ownFilter(body[e] as Record<string, unknown> | null, body[`${e}_refs`] as ArtifactRef[] | null), role,
      includeArchived: body.include_archived === true, window: body.windowing as ArtifactListWindow | null,
    });
    res.json({ count: rows.length, [`${e}s`]: rows.map(artifactView) });
  };
  const queryVariants: RequestHandler = async (req, res) => {
    const body = validate(artifactVariantsQuery(e), req.body ?? {}) as Record<string, unknown>;
    const rows = await listLevel(pool, req.scope.projectId, family, 'variant', {
      own: ownFilter(body[`${e}_variant`] as Record<string, unknown> | null, body[`${e}_variant_refs`] as ArtifactRef[] | null),
      artifact: refFilter(body[`${e}_refs`] as ArtifactRef[] | null), role,
      includeArchived: body.include_archived === true, window: body.windowing as ArtifactListWindow | null,
    });
    res.json({ count: rows.length, [`${e}_variants`]: rows.map((v) => variantView(e, v)) });
  };
  const queryRevisions: RequestHandler = async (req, res) => {
    const body = validate(artifactRevisionsQuery(e), req.body ?? {}) as Record<string, unknown>;
    const f = body[`${e}_revision`] as Record<string, unknown> | null | undefined;
    const authors = [f?.author, ...((f?.authors as string[] | null | undefined) ?? [])].filter((x): x is string => typeof x === 'string');
    const rows = await listLevel(pool, req.scope.projectId, family, 'revision', {
      own: ownFilter(f, body[`${e}_revision_refs`] as ArtifactRef[] | null),
      artifact: refFilter(body[`${e}_refs`] as ArtifactRef[] | null), variant: refFilter(body[`${e}_variant_refs`] as ArtifactRef[] | null), role,
      authors: authors.length ? authors : undefined, message: f?.message as string | null | undefined,
      includeArchived: body.include_archived === true, window: body.windowing as ArtifactListWindow | null,
    });
    const views = [];
    for (const r of rows) views.push(revisionView(e, r, await revisionData(pool, r, family, { testcases: body.include_testcases as boolean | null })));
    res.json({ count: views.length, [`${e}_revisions`]: views });
  };

  const log: RequestHandler = async (req, res) => {
    const body = (validate(artifactRevisionsLog(e), req.body) as Record<string, Record<string, unknown>>)[`${e}_revisions`]!;
    const projectId = req.scope.projectId;
    let target: ArtifactRevisionRow | undefined;
    if (typeof body[`${e}_revision_id`] === 'string') target = await readRevision(pool, projectId, family, { id: body[`${e}_revision_id`] as string });
    else if (typeof body[`${e}_variant_id`] === 'string') {
      const v = await readVariant(pool, projectId, family, { id: body[`${e}_variant_id`] as string });
      target = v && await readLatestRevision(pool, v.id);
    } else if (typeof body[`${e}_id`] === 'string') {
      const v = (await readVariants(pool, body[`${e}_id`] as string))[0];
      target = v && await readLatestRevision(pool, v.id);
    }
    if (!target || !await artifactOf(req, target.artifact_id)) { res.json({ count: 0, [`${e}_revisions`]: [] }); return; }
    const depth = typeof body.depth === 'number' ? body.depth : 10_000;
    const rows = await revisionLog(pool, target.variant_id, target.version, depth);
    const views = [];
    for (const r of rows) views.push(revisionView(e, r, await revisionData(pool, r, family)));
    res.json({ count: views.length, [`${e}_revisions`]: views });
  };

  const id = (op: string): RouteId => op as RouteId;
  const git = (op: string): RouteId => `${PLURAL[e]}.${op}` as RouteId;
  return {
    [id(`simple.${PLURAL[e]}.fetch`)]: [...guards.view, fetch],
    [id(`simple.${PLURAL[e]}.query`)]: [...guards.view, query],
    [git('revisions.retrieve')]: [...guards.view, retrieve],
    [git('fetch')]: [...guards.view, fetchArtifact],
    [git('variants.fetch')]: [...guards.view, fetchVariant],
    [git('revisions.fetch')]: [...guards.view, fetchRevision],
    [git('query')]: [...guards.view, queryArtifacts],
    [git('variants.query')]: [...guards.view, queryVariants],
    [git('revisions.query')]: [...guards.view, queryRevisions],
    [git('revisions.log')]: [...guards.view, log],
    ...(family === 'workflow' || entity === 'environment' ? { [git('revisions.resolve')]: [...guards.view, resolve] } : {}),
  };
}

/** Every entity's artifact reads, each behind its entity's view permission. */
export function artifactsReadRoutes(deps: { pool: Pool }, guards: { [E in ArtifactEntity]: Guards<'view'> }): Handlers {
  return Object.assign({}, ...ARTIFACT_ENTITIES.map((e) => artifactReadRoutes({ ...deps, entity: e }, guards[e]))) as Handlers;
}
