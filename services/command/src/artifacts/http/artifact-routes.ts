// The write routes of the versioned-artifact model, one factory for every entity (reference
// evaluations §1.2, §2.2, §2.5–§2.7): `/simple/<entity>s` create, edit, archive, unarchive and
// `/<entity>s/variants`, `/<entity>s/revisions/commit`. What differs by entity is declared in
// ENTITY_RULES below, not forked: a testset's rows become content-addressed testcases; a
// workflow's data is checked and its flags inferred; applications and evaluators force their role
// flag; evaluators refuse renames on the simple edit. Everything is in the caller's project:
// another project's artifact is unknown here.
import type { Request, RequestHandler, Response } from 'express';
import {
  familyOf, ofEntity, readArtifact, readHead, readRevision, readVariant, refuse, revisionData, revisionView, simpleAnswerOf, variantView,
  type ArtifactEntity, type ArtifactRow,
} from '@llm/account-model';
import {
  artifactRevisionCommit, artifactVariantCreate, simpleArtifactCreate, simpleArtifactEdit,
  type RouteId, type TestcaseInput, type WorkflowRevisionDataInput,
} from '@llm/contracts';
import { invalid, notFound } from '@llm/errors';
import { uuidv7, type ArtifactHeader } from '@llm/events';
import { uuidParam, validate, type Guards, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { projectionLag } from '../../accounts/adapters/account-commands.ts';
import type { ArtifactWrites } from '../adapters/artifact-writes.ts';
import { eventHeader, roleFlags, testsetContent, workflowRevision, type HeaderInput } from '../domain/artifact-content.ts';

type JsonMap = Record<string, unknown>;

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
  workflow: { plural: 'workflows', createIds: { variant: true, revision: true }, archiveVariant: false, noRename: false, mismatch: 'Workflow ID in path does not match workflow ID in request body.' },
};

export interface ArtifactRouteDeps { pool: Pool; writes: ArtifactWrites }

const record = (v: unknown): JsonMap => (typeof v === 'object' && v !== null ? v as JsonMap : {});
/** A stored `meta` as a header takes it (only an object is one). */
const metaOf = (m: unknown): JsonMap | null => (typeof m === 'object' && m !== null && !Array.isArray(m) ? m as JsonMap : null);

export function artifactWriteRoutes(entity: ArtifactEntity, deps: ArtifactRouteDeps, guards: Guards<'edit'>): Handlers {
  const { pool, writes } = deps;
  const rules = ENTITY_RULES[entity];
  const family = familyOf(entity);
  const e = entity;

  /** The artifact header as stored: a workflow entity's role flags forced; testsets keep no flags. */
  const artifactHeader = (h: HeaderInput): ArtifactHeader => eventHeader({ ...h, flags: roleFlags(entity, h.flags) });

  /** A revision's stored data (and, for workflows, its inferred flags). Rows are stored first. */
  async function revisionContent(req: Request, artifactId: string, slug: string, h: HeaderInput, data: unknown, normalise: boolean): Promise<{ header: ArtifactHeader; dataJson: string }> {
    if (family === 'testset') {
      const d = record(data);
      const rows = (d.testcases as TestcaseInput[] | null | undefined) ?? null;
      const ids = (d.testcase_ids as string[] | null | undefined) ?? null;
      if (rows) {
        const content = testsetContent(artifactId, rows, { normalise });
        await writes.storeTestcases(req, artifactId, content.testcases);
        return { header: eventHeader({ ...h, flags: null }), dataJson: JSON.stringify({ testcase_ids: content.ids }) };
      }
      return { header: eventHeader({ ...h, flags: null }), dataJson: ids ? JSON.stringify({ testcase_ids: ids }) : '' };
    }
    const w = workflowRevision(entity, slug, (data ?? null) as WorkflowRevisionDataInput | null, h.flags);
    return { header: eventHeader({ ...h, flags: w.flags }), dataJson: w.dataJson };
  }

  const mine = async (req: Request, id: string): Promise<ArtifactRow | undefined> => {
    const a = await readArtifact(pool, req.scope.projectId, family, id);
    return a && ofEntity(a, entity) ? a : undefined;
  };
  const answerSimple = async (res: Response, a: ArtifactRow, ids: { variant?: boolean; revision?: boolean }): Promise<void> => {
    res.json({ count: 1, [e]: await simpleAnswerOf(pool, a, ids) });
  };
  const reread = async (req: Request, id: string): Promise<ArtifactRow> => {
    const a = await mine(req, id);
    if (!a) throw projectionLag();
    return a;
  };

  const create: RequestHandler = async (req, res) => {
    const body = validate(simpleArtifactCreate(e), req.body)[e] as HeaderInput & { slug: string; data?: unknown };
    const fixed = typeof req.query[`${e}_id`] === 'string' ? uuidParam(req.query, `${e}_id`) : undefined;
    const id = fixed ?? uuidv7();
    const revisionSlug = uuidv7().replace(/-/g, '').slice(-12);
    const v1 = await revisionContent(req, id, revisionSlug, body, body.data, true);
    const v1Id = uuidv7();
    await writes.create(req, entity, {
      id, slug: body.slug, header: artifactHeader(body),
      variant: {
        id: uuidv7(), header: artifactHeader(body),
        revisions: [
          { id: uuidv7(), header: eventHeader({}), dataJson: '', message: 'Initial commit' },
          { id: v1Id, slug: revisionSlug, header: v1.header, dataJson: v1.dataJson, message: '' },
        ],
      },
    });
    await answerSimple(res, await reread(req, id), rules.createIds);
  };

  const edit: RequestHandler = async (req, res) => {
    const id = uuidParam(req.params, `${e}_id`);
    const body = validate(simpleArtifactEdit(e), req.body)[e] as HeaderInput & { id: string; data?: unknown };
    if (body.id !== id) {
      if (rules.mismatch) throw invalid('id_mismatch', rules.mismatch);
      res.json({ count: 0 });
      return;
    }
    const a = await mine(req, id);
    if (!a) {
      if (rules.unknown) throw notFound(`${e}_not_found`, rules.unknown(id));
      res.json({ count: 0 });
      return;
    }
    if (rules.noRename && body.name != null && a.name !== null && body.name !== a.name) {
      throw invalid('rename_disabled', `Renaming evaluators is temporarily disabled. Current evaluator name is '${a.name}'.`);
    }
    const head = await readHead(pool, a);
    // Fields left out keep what is stored (the reference nulls them, a [quirk]); data left out keeps the head's.
    const merged: HeaderInput = {
      name: body.name !== undefined ? body.name : a.name, description: body.description !== undefined ? body.description : a.description,
      flags: body.flags ?? a.flags, tags: body.tags !== undefined ? body.tags : a.tags, meta: body.meta !== undefined ? body.meta : metaOf(a.meta),
    };
    const header = artifactHeader(merged);
    const same = JSON.stringify(eventHeaderOf(a)) === JSON.stringify(header);
    if (!same) await writes.edit(req, entity, id, header);
    if (head.variant && !same) await writes.editVariant(req, entity, id, head.variant.id, header);
    let revisionId = head.revision?.id;
    if (head.variant) {
      const data = body.data !== undefined && body.data !== null ? body.data : head.revision ? await revisionData(pool, head.revision, family, { testcases: false }) : null;
      const slug = uuidv7().replace(/-/g, '').slice(-12);
      const content = await revisionContent(req, id, slug, merged, data, family === 'testset');
      const unchanged = same && head.revision && JSON.stringify(head.revision.data ?? null) === (content.dataJson === '' ? 'null' : JSON.stringify(JSON.parse(content.dataJson)));
      if (!unchanged) revisionId = await writes.commit(req, entity, id, head.variant.id, { slug, header: content.header, dataJson: content.dataJson, message: '' });
    }
    const after = await reread(req, id);
    res.json({ count: 1, [e]: { ...await simpleAnswerOf(pool, after, { variant: rules.createIds.variant }), ...(revisionId ? { revision_id: revisionId } : {}) } });
  };

  const archive = (archived: boolean): RequestHandler => async (req, res) => {
    const id = uuidParam(req.params, `${e}_id`);
    const a = await mine(req, id);
    if (!a) { res.json({ count: 0 }); return; }
    await writes.archive(req, entity, id, 'artifact', id, archived);
    if (rules.archiveVariant) {
      const head = await readHead(pool, a);
      if (head.variant) await writes.archive(req, entity, id, 'variant', head.variant.id, archived);
    }
    const after = await reread(req, id);
    const { data: _data, ...view } = await simpleAnswerOf(pool, after);
    res.json({ count: 1, [e]: view });
  };

  const createVariant: RequestHandler = async (req, res) => {
    const body = validate(artifactVariantCreate(e), req.body)[`${e}_variant`] as HeaderInput & { slug: string } & Record<string, unknown>;
    const artifactId = body[`${e}_id`] as string;
    const a = await mine(req, artifactId);
    if (!a) throw refuse('artifact_not_found', `The ${e} does not exist in this project.`);
    const id = uuidv7();
    await writes.addVariant(req, entity, artifactId, { id, slug: body.slug, header: artifactHeader(body) });
    const v = await readVariant(pool, req.scope.projectId, family, { id });
    if (!v) throw projectionLag();
    res.json({ count: 1, [`${e}_variant`]: variantView(e, v, a) });
  };

  const commit: RequestHandler = async (req, res) => {
    const body = validate(artifactRevisionCommit(e), req.body)[`${e}_revision`] as HeaderInput & { slug?: string | null; message?: string | null; data?: unknown } & Record<string, unknown>;
    const variantId = body[`${e}_variant_id`] as string;
    const variant = await readVariant(pool, req.scope.projectId, family, { id: variantId });
    const a = variant && await mine(req, variant.artifact_id);
    if (!variant || !a) throw refuse('artifact_variant_not_found', 'The variant does not exist in this project.');
    const slug = body.slug ?? uuidv7().replace(/-/g, '').slice(-12);
    const content = await revisionContent(req, a.id, slug, body, body.data, false);
    const revisionId = await writes.commit(req, entity, a.id, variant.id, { slug, header: content.header, dataJson: content.dataJson, message: body.message ?? '' });
    const r = await readRevision(pool, req.scope.projectId, family, { id: revisionId });
    if (!r) throw projectionLag();
    res.json({ count: 1, [`${e}_revision`]: revisionView(e, r, await revisionData(pool, r, family), { artifact: a, variant }) });
  };

  const id = (op: string): RouteId => `${op.startsWith('simple.') ? '' : `${rules.plural}.`}${op.replace('simple.', `simple.${rules.plural}.`)}` as RouteId;
  return {
    [id('simple.create')]: [...guards.edit, create],
    [id('simple.edit')]: [...guards.edit, edit],
    [id('simple.archive')]: [...guards.edit, archive(true)],
    [id('simple.unarchive')]: [...guards.edit, archive(false)],
    [id('variants.create')]: [...guards.edit, createVariant],
    [id('revisions.commit')]: [...guards.edit, commit],
  };
}

/** An artifact's stored header as event text (to tell an edit that changes nothing). */
function eventHeaderOf(a: ArtifactRow): ArtifactHeader {
  return eventHeader({ name: a.name, description: a.description, flags: a.flags, tags: a.tags, meta: metaOf(a.meta) });
}
