// The simple write routes of the versioned-artifact model, one factory for every entity (reference
// evaluations §2.2, §2.5–§2.7): `/simple/<entity>s` create, edit, archive, unarchive — an artifact
// with one variant seen as one thing. What differs by entity is declared in ENTITY_RULES below, not
// forked (the content rules — testset rows, workflow data and flags, role flags — are in
// adapters/entity-writes.ts). Everything is in the caller's project: another project's artifact is
// unknown here.
import type { RequestHandler } from 'express';
import { readHead, simpleAnswerOf, type ArtifactEntity } from '@llm/account-model';
import { simpleArtifactCreate, simpleArtifactEdit, type RouteId } from '@llm/contracts';
import { invalid, notFound } from '@llm/errors';
import { uuidv7 } from '@llm/events';
import { uuidParam, validate, type Guards, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { ArtifactWrites } from '../adapters/artifact-writes.ts';
import { simpleArtifacts } from '../adapters/simple-artifacts.ts';
import type { HeaderInput } from '../domain/artifact-content.ts';

/** What an entity's routes do differently (evaluations §2.2, §2.5, §2.6, §2.7). */
interface EntityRules {
  plural: string;
  /** The simple create answer's ids (testsets: the revision only, E§6). */
  createIds: { variant: boolean; revision: boolean };
  /** Simple PUT: body id ≠ path id → 400 (else `{count:0}`), and the 400's text. */
  mismatch?: string;
  /** Simple PUT of an unknown id → 404 with this text (else `{count:0}`). */
  unknown?: (id: string) => string;
  /** Simple archive also archives the default variant. */
  archiveVariant: boolean;
  /** Simple PUT refuses a new name. */
  noRename: boolean;
}

const ENTITY_RULES: Record<ArtifactEntity, EntityRules> = {
  testset: {
    plural: 'testsets', createIds: { variant: false, revision: true }, archiveVariant: false, noRename: false,
    mismatch: 'Testset ID in path does not match testset ID in request body.', unknown: (id) => `Testset with ID '${id}' does not exist.`,
  },
  application: { plural: 'applications', createIds: { variant: true, revision: true }, archiveVariant: false, noRename: false, mismatch: 'Application ID in path does not match application ID in request body.' },
  evaluator: { plural: 'evaluators', createIds: { variant: true, revision: true }, archiveVariant: true, noRename: true },
  environment: { plural: 'environments', createIds: { variant: true, revision: true }, archiveVariant: true, noRename: false },
  workflow: { plural: 'workflows', createIds: { variant: true, revision: true }, archiveVariant: false, noRename: false, mismatch: 'Workflow ID in path does not match workflow ID in request body.' },
};

export interface ArtifactRouteDeps { pool: Pool; writes: ArtifactWrites }

export function simpleArtifactRoutes(deps: ArtifactRouteDeps & { entity: ArtifactEntity }, guards: Guards<'edit'>): Handlers {
  const { pool, writes, entity } = deps;
  const rules = ENTITY_RULES[entity];
  const simple = simpleArtifacts(entity, deps);
  const w = simple.w;
  const e = entity;

  const create: RequestHandler = async (req, res) => {
    const body = validate(simpleArtifactCreate(e), req.body)[e] as HeaderInput & { slug: string; data?: unknown };
    const id = typeof req.query[`${e}_id`] === 'string' ? uuidParam(req.query, `${e}_id`) : uuidv7();
    res.json({ count: 1, [e]: await simpleAnswerOf(pool, await simple.create(req, id, body), rules.createIds) });
  };

  const edit: RequestHandler = async (req, res) => {
    const id = uuidParam(req.params, `${e}_id`);
    const body = validate(simpleArtifactEdit(e), req.body)[e] as HeaderInput & { id: string; data?: unknown };
    if (body.id !== id) {
      if (rules.mismatch) throw invalid('id_mismatch', rules.mismatch);
      res.json({ count: 0 });
      return;
    }
    const a = await w.mine(req, id);
    if (!a) {
      if (rules.unknown) throw notFound(`${e}_not_found`, rules.unknown(id));
      res.json({ count: 0 });
      return;
    }
    if (rules.noRename && body.name != null && a.name !== null && body.name !== a.name) {
      throw invalid('rename_disabled', `Renaming evaluators is temporarily disabled. Current evaluator name is '${a.name}'.`);
    }
    const revisionId = await simple.edit(req, a, body);
    const after = await w.reread(req, id);
    res.json({ count: 1, [e]: { ...await simpleAnswerOf(pool, after, { variant: rules.createIds.variant }), ...(revisionId ? { revision_id: revisionId } : {}) } });
  };

  const archive = (archived: boolean): RequestHandler => async (req, res) => {
    const id = uuidParam(req.params, `${e}_id`);
    const a = await w.mine(req, id);
    if (!a) { res.json({ count: 0 }); return; }
    await writes.archive(req, entity, id, 'artifact', id, archived);
    if (rules.archiveVariant) {
      const head = await readHead(pool, a);
      if (head.variant) await writes.archive(req, entity, id, 'variant', head.variant.id, archived);
    }
    const after = await w.reread(req, id);
    const { data: _data, ...view } = await simpleAnswerOf(pool, after);
    res.json({ count: 1, [e]: view });
  };

  const id = (op: string): RouteId => `simple.${rules.plural}.${op}` as RouteId;
  return {
    [id('create')]: [...guards.edit, create],
    [id('edit')]: [...guards.edit, edit],
    [id('archive')]: [...guards.edit, archive(true)],
    [id('unarchive')]: [...guards.edit, archive(false)],
  };
}
