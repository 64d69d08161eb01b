// The git write routes of the versioned-artifact model, one factory for every entity (reference
// compat §1.3, evaluations §1.2): the artifact (create, edit, archive), its variants (create, edit,
// archive, fork) and revisions (initial, commit, edit, archive). Edits keep the fields left out
// (the reference replaces them, nulling what was omitted: a [quirk]); a revision's data never
// changes. Everything is in the caller's project: another project's artifact, variant or revision
// is unknown here (404 on writes that name it).
import { isDeepStrictEqual } from 'node:util';
import type { Request, RequestHandler, Response } from 'express';
import {
  ARTIFACT_PLURALS, applyTestsetDelta, readArtifact, readLatestRevision, readRevision, readTestcasesByIds, readVariant, refuse, type TestsetDelta, revisionData, revisionView, variantView, artifactView,
  type ArtifactEntity, type ArtifactRevisionRow, type ArtifactVariantRow,
} from '@llm/account-model';
import {
  artifactCreate, artifactEdit, artifactRevisionCommit, artifactRevisionCreate, artifactRevisionEdit, artifactVariantCreate, artifactVariantEdit, artifactVariantFork,
  workflowRevisionData, type ArtifactRef, type RouteId, type WorkflowOperation,
} from '@llm/contracts';
import { AppError, invalid } from '@llm/errors';
import { uuidv7 } from '@llm/events';
import { issuesOf, RequestValidationError, uuidParam, validate, type Guards, type Handlers } from '@llm/http';
import { projectionLag } from '../../accounts/adapters/account-commands.ts';
import { entityWrites, metaOf, sameHeader, storedHeader } from '../adapters/entity-writes.ts';
import type { ArtifactRouteDeps } from './simple-artifact-routes.ts';
import { hex12, type HeaderInput } from '../domain/artifact-content.ts';
import { applyOperations } from '../domain/ordered-delta.ts';
import { deepMerge, hasOwnKey, isTree, ownValue, type Tree } from '../domain/json-tree.ts';

const PLURAL = ARTIFACT_PLURALS;
type Body = HeaderInput & Record<string, unknown>;

export function gitArtifactRoutes(deps: ArtifactRouteDeps & { entity: ArtifactEntity }, guards: Guards<'edit'>): Handlers {
  const { pool, writes, entity } = deps;
  const w = entityWrites(entity, deps);
  const e = entity;
  const family = w.family;
  const notFoundArtifact = () => refuse('artifact_not_found', `The ${e} does not exist in this project.`);
  const notFoundVariant = () => refuse('artifact_variant_not_found', 'The variant does not exist in this project.');
  const notFoundRevision = () => refuse('artifact_revision_not_found', 'The revision does not exist in this project.');

  /** A variant of one of the entity's artifacts in the caller's project. */
  const variantOf = async (req: Request, id: string): Promise<ArtifactVariantRow | undefined> => {
    const v = await readVariant(pool, req.scope.projectId, family, { id });
    return v && await w.mine(req, v.artifact_id) ? v : undefined;
  };
  const revisionOf = async (req: Request, id: string): Promise<ArtifactRevisionRow | undefined> => {
    const r = await readRevision(pool, req.scope.projectId, family, { id });
    return r && await w.mine(req, r.artifact_id) ? r : undefined;
  };
  const answerVariant = async (req: Request, res: Response, id: string): Promise<void> => {
    const v = await readVariant(pool, req.scope.projectId, family, { id });
    const a = v && await readArtifact(pool, req.scope.projectId, family, v.artifact_id);
    if (!v || !a) throw projectionLag();
    res.json({ count: 1, [`${e}_variant`]: variantView(e, v, a) });
  };
  const answerRevision = async (req: Request, res: Response, id: string, status?: 'committed' | 'no_change'): Promise<void> => {
    const r = await readRevision(pool, req.scope.projectId, family, { id });
    const a = r && await readArtifact(pool, req.scope.projectId, family, r.artifact_id);
    const v = r && await readVariant(pool, req.scope.projectId, family, { id: r.variant_id });
    if (!r || !a || !v) throw projectionLag();
    res.json({ count: 1, [`${e}_revision`]: revisionView(e, r, await revisionData(pool, r, family), { artifact: a, variant: v }), ...(status ? { status } : {}) });
  };
  /** A workflow-family commit answers its status (§2.7); testsets and environments do not. */
  const committedStatus = family === 'workflow' ? 'committed' as const : undefined;

  const create: RequestHandler = async (req, res) => {
    const body = validate(artifactCreate(e), req.body)[e] as Body & { slug: string };
    const id = typeof req.query[`${e}_id`] === 'string' ? uuidParam(req.query, `${e}_id`) : uuidv7();
    await writes.create(req, entity, { id, slug: body.slug, header: w.header(body) });
    res.json({ count: 1, [e]: artifactView(await w.reread(req, id)) });
  };

  const edit: RequestHandler = async (req, res) => {
    const id = uuidParam(req.params, `${e}_id`);
    const body = validate(artifactEdit(e), req.body)[e] as Body & { id: string };
    if (body.id !== id) throw invalid('id_mismatch', `${e[0]!.toUpperCase()}${e.slice(1)} ID in path does not match ${e} ID in request body.`);
    const a = await w.mine(req, id);
    if (!a) { res.json({ count: 0 }); return; }
    const header = w.header(w.merged(a, body));
    if (!sameHeader(storedHeader(a), header)) await writes.edit(req, entity, id, header);
    res.json({ count: 1, [e]: artifactView(await w.reread(req, id)) });
  };

  const archiveArtifact = (archived: boolean): RequestHandler => async (req, res) => {
    const id = uuidParam(req.params, `${e}_id`);
    if (!await w.mine(req, id)) { res.json({ count: 0 }); return; }
    await writes.archive(req, entity, id, 'artifact', id, archived);
    res.json({ count: 1, [e]: artifactView(await w.reread(req, id)) });
  };

  const createVariant: RequestHandler = async (req, res) => {
    const body = validate(artifactVariantCreate(e), req.body)[`${e}_variant`] as Body & { slug: string };
    const artifactId = body[`${e}_id`] as string;
    if (!await w.mine(req, artifactId)) throw notFoundArtifact();
    const id = uuidv7();
    await writes.addVariant(req, entity, artifactId, { id, slug: body.slug, header: w.header(body) });
    await answerVariant(req, res, id);
  };

  const editVariant: RequestHandler = async (req, res) => {
    const id = uuidParam(req.params, `${e}_variant_id`);
    const body = validate(artifactVariantEdit(e), req.body)[`${e}_variant`] as Body & { id: string };
    const v = body.id === id ? await variantOf(req, id) : undefined;
    if (!v) { res.json({ count: 0 }); return; }
    const header = w.header(w.merged(v, body));
    if (!sameHeader(storedHeader(v), header)) await writes.editVariant(req, entity, v.artifact_id, id, header);
    await answerVariant(req, res, id);
  };

  const archiveVariant = (archived: boolean): RequestHandler => async (req, res) => {
    const id = uuidParam(req.params, `${e}_variant_id`);
    const v = await variantOf(req, id);
    if (!v) { res.json({ count: 0 }); return; }
    await writes.archive(req, entity, v.artifact_id, 'variant', id, archived);
    await answerVariant(req, res, id);
  };

  /** The source of a fork: the variant named (id or slug), pinned at a revision or its head. */
  const forkSource = async (req: Request, vref: ArtifactRef, rref: ArtifactRef | null | undefined): Promise<{ variant: ArtifactVariantRow; upTo: number }> => {
    const v = vref.id != null ? await variantOf(req, vref.id) : vref.slug != null ? await readVariant(pool, req.scope.projectId, family, { slug: vref.slug }) : undefined;
    if (!v || !await w.mine(req, v.artifact_id)) throw invalid('fork_source', 'Fork source variant could not be resolved.');
    if (!rref || (rref.id == null && rref.slug == null && rref.version == null)) return { variant: v, upTo: v.latest_version };
    const r = rref.id != null || rref.slug != null
      ? await readRevision(pool, req.scope.projectId, family, rref.id != null ? { id: rref.id } : { slug: rref.slug ?? undefined })
      : await readRevision(pool, req.scope.projectId, family, { variantId: v.id, version: Number(rref.version) });
    if (!r || r.variant_id !== v.id) throw invalid('fork_source', 'Fork source revision could not be resolved.');
    return { variant: v, upTo: r.version };
  };

  const fork: RequestHandler = async (req, res) => {
    const body = validate(artifactVariantFork(e), req.body) as Record<string, unknown>;
    const target = body[`${e}_variant`] as Body & { slug: string };
    const { variant: source, upTo } = await forkSource(req, body[`${e}_variant_ref`] as ArtifactRef, body[`${e}_revision_ref`] as ArtifactRef | null | undefined);
    const id = await writes.fork(req, entity, { artifactId: source.artifact_id, variantId: source.id, upTo }, { slug: target.slug, header: w.header(target) }, storedHeader);
    if (id === undefined) throw invalid('fork_source', 'Fork source has no revisions to copy. Commit a revision to the source variant first.');
    await answerVariant(req, res, id);
  };

  const createRevision: RequestHandler = async (req, res) => {
    const body = validate(artifactRevisionCreate(e), req.body)[`${e}_revision`] as Body & { slug?: string | null };
    const v = await variantOf(req, body[`${e}_variant_id`] as string);
    if (!v) throw notFoundVariant();
    if (v.latest_version >= 0) throw refuse('artifact_initial_revision_exists', 'An initial revision already exists for this variant.');
    const id = await writes.commit(req, entity, v.artifact_id, v.id, { slug: body.slug ?? hex12(), header: w.header(body), dataJson: '', message: 'Initial revision' }, { initial: true });
    await answerRevision(req, res, id);
  };

  const commit: RequestHandler = async (req, res) => {
    const body = validate(artifactRevisionCommit(e), req.body)[`${e}_revision`] as Body & { slug?: string | null; message?: string | null; data?: unknown; delta?: unknown };
    const v = await variantOf(req, body[`${e}_variant_id`] as string);
    if (!v) throw notFoundVariant();
    const hasData = body.data != null;
    const hasDelta = body.delta != null;
    // Testsets and environments commit data or a delta, never both, never neither (§2.2, §2.9).
    if (hasData && hasDelta) throw invalid('commit_data_and_delta', 'Provide either data or delta for a commit, not both.');
    if (family !== 'workflow' && !hasData && !hasDelta) throw invalid('commit_data_required', 'Provide either data or delta for a commit.');
    // A workflow commits without data only while its variant has no data yet (applications and evaluators: an empty revision).
    if (entity === 'workflow' && !hasData && !hasDelta && (await readLatestRevision(pool, v.id))?.data != null) {
      throw invalid('commit_data_required', 'workflow_revision.data is required when committing a workflow revision.');
    }
    let data = body.data;
    let message = body.message ?? '';
    if (hasDelta && isTree(body.delta) && 'operations' in body.delta) {
      await orderedCommit(req, res, v, body, body.delta.operations as WorkflowOperation[]);
      return;
    }
    if (hasDelta) {
      const baseId = body[`${e}_revision_id`] as string | null | undefined;
      const base = baseId ? await readRevision(pool, req.scope.projectId, family, { id: baseId }) : await readLatestRevision(pool, v.id);
      if (!base || base.variant_id !== v.id) { res.json({ count: 0 }); return; }
      data = await applyDelta(base, body.delta);
      message = body.message ?? `Patched ${e} revision`;
    }
    const slug = body.slug ?? hex12();
    const content = await w.revisionContent(req, v.artifact_id, slug, body, data, { normalise: false });
    const id = await writes.commit(req, entity, v.artifact_id, v.id, { slug, header: content.header, dataJson: content.dataJson, message });
    await answerRevision(req, res, id, committedStatus);
  };

  /**
   * An ordered delta (§2.7): applied to `base_revision_id`, which must be the variant's latest
   * revision when the commit lands (else 409 `revision_conflict`, nothing committed); an operation
   * that cannot apply, or data the result is not, is 422; a result equal to the base commits
   * nothing and answers the base with `status: "no_change"`.
   */
  const orderedCommit = async (req: Request, res: Response, v: ArtifactVariantRow, body: Body & { slug?: string | null; message?: string | null; base_revision_id?: string | null }, operations: WorkflowOperation[]): Promise<void> => {
    const baseId = body.base_revision_id;
    if (!baseId) { unprocessable(res, 'base_revision_required', `${e}_revision.base_revision_id is required with an ordered delta.`, 'Read the variant\'s latest revision and send its id.'); return; }
    const head = await readLatestRevision(pool, v.id);
    /** The 409 naming the head as it is now. */
    const conflict = (current: ArtifactRevisionRow | undefined): AppError => new AppError({
      code: 'revision_conflict', kind: 'conflict', message: 'The variant head changed. No revision was committed.', nested: true, retryable: true,
      details: structured('revision_conflict', true, 'Read the latest revision, rebase the operations on it and commit again.', {
        base_revision_id: baseId, current_revision_id: current?.id ?? null, ...(current ? { current_revision_version: String(current.version) } : {}),
      }),
    });
    if (!head || head.id !== baseId.toLowerCase()) throw conflict(head);
    const applied = applyOperations(head.data, operations);
    if (!applied.ok) { unprocessable(res, applied.failure.code, applied.failure.message, undefined, { operation_index: applied.failure.index }); return; }
    const checked = workflowRevisionData.safeParse(applied.data);
    if (!checked.success) {
      unprocessable(res, 'invalid_data', `The operations leave data that is not ${e} data: ${checked.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
      return;
    }
    // Key order aside (stored jsonb orders keys its own way), the same data.
    if (isDeepStrictEqual(checked.data, head.data ?? {})) {
      await answerRevision(req, res, head.id, 'no_change');
      return;
    }
    const slug = body.slug ?? hex12();
    const content = await w.revisionContent(req, v.artifact_id, slug, body, checked.data, { normalise: false });
    const id = await writes.commit(req, entity, v.artifact_id, v.id, { slug, header: content.header, dataJson: content.dataJson, message: body.message ?? `Patched ${e} revision` }, {
      // Another commit took the version meanwhile: the 409 names the head it made.
      after: { version: head.version, conflict: async () => conflict(await readLatestRevision(pool, v.id)) },
    });
    await answerRevision(req, res, id, 'committed');
  };

  /** The data a delta commits, from its base revision (a testset's rows or an environment's references). */
  const applyDelta = async (base: ArtifactRevisionRow, delta: unknown): Promise<Record<string, unknown>> => {
    if (family === 'testset') {
      const ids = Array.isArray(base.data?.testcase_ids) ? base.data.testcase_ids.filter((x): x is string => typeof x === 'string') : [];
      const rows = (await readTestcasesByIds(pool, base.artifact_id, ids)).map((t) => ({ id: t.id, data: t.data, flags: t.flags, tags: t.tags, meta: metaOf(t.meta) }));
      return { testcases: applyTestsetDelta(rows, delta as TestsetDelta).map((r) => ({ data: r.data, flags: r.flags ?? null, tags: r.tags ?? null, meta: r.meta ?? null })) };
    }
    const d = delta as { set?: Record<string, unknown> | null; remove?: string[] | null };
    if (family === 'environment') {
      const references = { ...((base.data?.references ?? {}) as Record<string, unknown>), ...(d.set ?? {}) };
      for (const key of d.remove ?? []) delete references[key];
      return { references };
    }
    // A workflow's legacy delta: the tree deep-merged into the head's data, then dotted paths removed; the result is checked as data.
    const merged = removePaths(deepMerge(base.data ?? {}, d.set ?? {}), d.remove ?? []);
    const checked = workflowRevisionData.safeParse(merged);
    if (!checked.success) throw new RequestValidationError(issuesOf(checked.error, 'body').map((i) => ({ ...i, loc: ['body', `${e}_revision`, 'delta', ...i.loc.slice(1)] })));
    return checked.data as Record<string, unknown>;
  };

  const editRevision: RequestHandler = async (req, res) => {
    const id = uuidParam(req.params, `${e}_revision_id`);
    const body = validate(artifactRevisionEdit(e), req.body)[`${e}_revision`] as Body & { id: string };
    const r = body.id === id ? await revisionOf(req, id) : undefined;
    if (!r) { res.json({ count: 0 }); return; }
    // A workflow revision's flags are inferred from its data; only the role flags may be sent again.
    const merged = w.merged(r, body);
    const header = family === 'workflow' ? { ...storedHeader(r), ...pickText(w.header(merged)), flags_json: storedHeader(r).flags_json } : w.header(merged);
    if (!sameHeader(storedHeader(r), header)) await writes.editRevision(req, entity, r.artifact_id, r.variant_id, id, header);
    await answerRevision(req, res, id);
  };

  const archiveRevision = (archived: boolean): RequestHandler => async (req, res) => {
    const id = uuidParam(req.params, `${e}_revision_id`);
    const r = await revisionOf(req, id);
    if (!r) { res.json({ count: 0 }); return; }
    await writes.archive(req, entity, r.artifact_id, 'revision', id, archived);
    await answerRevision(req, res, id);
  };

  const id = (op: string): RouteId => `${PLURAL[e]}.${op}` as RouteId;
  return {
    [id('create')]: [...guards.edit, create],
    [id('edit')]: [...guards.edit, edit],
    [id('archive')]: [...guards.edit, archiveArtifact(true)],
    [id('unarchive')]: [...guards.edit, archiveArtifact(false)],
    [id('variants.create')]: [...guards.edit, createVariant],
    [id('variants.edit')]: [...guards.edit, editVariant],
    [id('variants.archive')]: [...guards.edit, archiveVariant(true)],
    [id('variants.unarchive')]: [...guards.edit, archiveVariant(false)],
    [id('variants.fork')]: [...guards.edit, fork],
    [id('revisions.create')]: [...guards.edit, createRevision],
    [id('revisions.commit')]: [...guards.edit, commit],
    [id('revisions.edit')]: [...guards.edit, editRevision],
    [id('revisions.archive')]: [...guards.edit, archiveRevision(true)],
    [id('revisions.unarchive')]: [...guards.edit, archiveRevision(false)],
  };
}

/** The text fields of a header (a workflow revision keeps its inferred flags). */
function pickText(h: ReturnType<typeof storedHeader>): Omit<typeof h, 'flags_json'> {
  const { flags_json: _flags, ...rest } = h;
  return rest;
}


/** The tree without the dotted paths (absent paths are ignored). */
function removePaths(tree: Tree, paths: readonly string[]): Tree {
  const out = structuredClone(tree);
  for (const path of paths) {
    const parts = path.split('.');
    let node: unknown = out;
    // Own keys only: `__proto__.x` names a key called `__proto__`, never the prototype.
    for (const p of parts.slice(0, -1)) node = isTree(node) ? ownValue(node, p) : undefined;
    const last = parts[parts.length - 1]!;
    if (isTree(node) && hasOwnKey(node, last)) delete node[last];
  }
  return out;
}

/** The fields of the reference's structured commit error beside its message: `{code, retryable, next_step?, details?}`. */
function structured(code: string, retryable: boolean, nextStep?: string, details?: Record<string, unknown>): Record<string, unknown> {
  return { code, retryable, ...(nextStep ? { next_step: nextStep } : {}), ...(details ? { details } : {}) };
}

/** An ordered delta that cannot apply: 422 `{"detail": {message, code, retryable: false, …}}` (the shared 422 body is a validation list). */
function unprocessable(res: Response, code: string, message: string, nextStep?: string, details?: Record<string, unknown>): void {
  res.status(422).json({ detail: { message, ...structured(code, false, nextStep, details) } });
}
