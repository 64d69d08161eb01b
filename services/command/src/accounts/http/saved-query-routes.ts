// Saved-query writes (reference compat §1.3, §1.5): /queries (artifact, variants, revisions) and
// /simple/queries (an artifact with one automatic variant), the artifact model's `query` family.
// Every write goes through the shared artifact writes (ArtifactWrites: accounts.query.* events
// keyed `project:<id>:queries`, appended and awaited; a commit that loses its version to another
// is retried with the next one); the rules are the artifact aggregate's, decided in log order.
// What differs from the other entities' routes (decisions → "Saved queries"): the bodies (aliases,
// `folder_id`, the query `data`), edits replace the header, and an unknown id is a 404.
import type { Request, RequestHandler, Response } from 'express';
import { INITIAL_REVISION_EXISTS, isUuid, refuse, listQueryVariants, type QueryVariantHead, readDefaultVariantHead, readQuery, readQueryRevision, readQueryVariant, readQueryVariantHead, readSimpleQuery, resolveQueryRevision } from '@llm/account-model';
import {
  queryCreateBody, queryEditBody, queryRevisionCommitBody, queryRevisionCreateBody, queryRevisionEditBody, queryVariantCreateBody, queryVariantEditBody,
  queryVariantForkBody, simpleQueryCreateBody, simpleQueryEditBody,
} from '@llm/contracts';
import { invalid, type AppError } from '@llm/errors';
import { uuidv7, type QueryHeader } from '@llm/events';
import { RequestValidationError, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { headerOf, parseBody, storedData } from '../domain/saved-query-revision.ts';
import { projectionLag } from '../adapters/account-commands.ts';
import type { ArtifactWrites } from '../../artifacts/adapters/artifact-writes.ts';
import { hex12 } from '../../artifacts/domain/artifact-content.ts';

const queryNotFound = (): AppError => refuse('query_not_found', 'Query not found.');
const revisionNotFound = (): AppError => refuse('query_revision_not_found', 'The revision does not exist in this project.');
const variantNotFound = (): AppError => refuse('query_variant_not_found', 'The variant does not exist in this project.');

/** A path id that is not a UUID is a 422, as a typed path parameter. */
function pathId(req: Request, name: string): string {
  const v = String(req.params[name] ?? '');
  if (!isUuid(v)) throw new RequestValidationError([{ loc: ['path', name], msg: 'value is not a valid uuid', type: 'uuid_parsing' }]);
  return v.toLowerCase();
}
/** `?query_id=` may fix a new artifact's id. */
function fixedId(req: Request): string {
  const v = req.query.query_id;
  if (v === undefined) return uuidv7();
  if (typeof v !== 'string' || !isUuid(v)) throw new RequestValidationError([{ loc: ['query', 'query_id'], msg: 'value is not a valid uuid', type: 'uuid_parsing' }]);
  return v.toLowerCase();
}
function samePathId(bodyId: string | null | undefined, pathValue: string, field: string): void {
  if (bodyId && bodyId.toLowerCase() !== pathValue) throw invalid('id_mismatch', `${field} does not match the id in the path.`);
}

export function savedQueryRoutes(deps: { writes: ArtifactWrites; pool: Pool }, guards: Guards<'edit'>): Handlers {
  const { writes, pool } = deps;

  /** Commits the variant's next revision (retried when another commit took that version first). */
  const commit = (req: Request, head: Pick<QueryVariantHead, 'queryId' | 'variantId'>, content: { slug?: string | null; header: QueryHeader; data: string; message: string }): Promise<string> =>
    writes.commit(req, 'query', head.queryId, head.variantId, { slug: content.slug, header: content.header, dataJson: content.data, message: content.message });
  const archive = (req: Request, queryId: string, target: 'artifact' | 'variant' | 'revision', id: string, archived: boolean): Promise<void> =>
    writes.archive(req, 'query', queryId, target, id, archived);

  const answerQuery = async (res: Response, projectId: string, id: string): Promise<void> => {
    const query = await readQuery(pool, projectId, id);
    if (!query) throw projectionLag();
    res.json({ count: 1, query });
  };
  const answerVariant = async (res: Response, projectId: string, id: string): Promise<void> => {
    const v = await readQueryVariant(pool, projectId, id);
    if (!v) throw projectionLag();
    res.json({ count: 1, query_variant: v });
  };
  const answerRevision = async (res: Response, projectId: string, id: string): Promise<void> => {
    const r = await readQueryRevision(pool, projectId, id);
    if (!r) throw projectionLag();
    res.json({ count: 1, query_revision: r });
  };

  const archiveQuery = (archived: boolean): RequestHandler => async (req, res) => {
    const id = pathId(req, 'query_id');
    if (!(await readQuery(pool, req.scope.projectId, id))) throw queryNotFound();
    await archive(req, id, 'artifact', id, archived);
    await answerQuery(res, req.scope.projectId, id);
  };
  const archiveVariant = (archived: boolean): RequestHandler => async (req, res) => {
    const id = pathId(req, 'query_variant_id');
    const head = await readQueryVariantHead(pool, req.scope.projectId, id);
    if (!head) throw variantNotFound();
    await archive(req, head.queryId, 'variant', id, archived);
    await answerVariant(res, req.scope.projectId, id);
  };
  /** A single revision (its variant and the variant's other revisions untouched). */
  const archiveRevision = (archived: boolean): RequestHandler => async (req, res) => {
    const id = pathId(req, 'query_revision_id');
    const rev = await readQueryRevision(pool, req.scope.projectId, id);
    if (!rev) throw revisionNotFound();
    await archive(req, rev.artifact_id, 'revision', id, archived);
    await answerRevision(res, req.scope.projectId, id);
  };
  /** Simple queries: the artifact and its default variant (with its revisions). */
  const archiveSimple = (archived: boolean): RequestHandler => async (req, res) => {
    const id = pathId(req, 'query_id');
    const projectId = req.scope.projectId;
    if (!(await readQuery(pool, projectId, id))) throw queryNotFound();
    await archive(req, id, 'artifact', id, archived);
    const head = await readDefaultVariantHead(pool, projectId, id);
    if (head) await archive(req, id, 'variant', head.variantId, archived);
    await answerQuery(res, projectId, id);
  };

  /** The variant a revision body names (either spelling), checked against its query when one is given. */
  async function variantOfBody(req: Request, b: { query_variant_id?: string | null; variant_id?: string | null; query_id?: string | null; artifact_id?: string | null }): Promise<QueryVariantHead> {
    const variantId = b.query_variant_id ?? b.variant_id;
    if (!variantId) throw new RequestValidationError([{ loc: ['body', 'query_revision', 'query_variant_id'], msg: 'Field required', type: 'missing' }]);
    const head = await readQueryVariantHead(pool, req.scope.projectId, variantId);
    const queryId = b.query_id ?? b.artifact_id;
    if (!head || (queryId && queryId.toLowerCase() !== head.queryId)) throw variantNotFound();
    return head;
  }

  return {
    'queries.create': [...guards.edit, async (req, res) => {
      const b = parseBody(queryCreateBody, req.body).query;
      const id = fixedId(req);
      await writes.create(req, 'query', { id, slug: b.slug, header: headerOf(b), folderId: b.folder_id ?? '' });
      await answerQuery(res, req.scope.projectId, id);
    }],
    'queries.edit': [...guards.edit, async (req, res) => {
      const id = pathId(req, 'query_id');
      const b = parseBody(queryEditBody, req.body).query;
      samePathId(b.id, id, 'query.id');
      if (!(await readQuery(pool, req.scope.projectId, id))) throw queryNotFound();
      await writes.edit(req, 'query', id, headerOf(b), b.folder_id ?? '');
      await answerQuery(res, req.scope.projectId, id);
    }],
    'queries.archive': [...guards.edit, archiveQuery(true)],
    'queries.unarchive': [...guards.edit, archiveQuery(false)],

    'queries.variants.create': [...guards.edit, async (req, res) => {
      const b = parseBody(queryVariantCreateBody, req.body).query_variant;
      const queryId = b.query_id ?? b.artifact_id;
      if (!queryId) throw new RequestValidationError([{ loc: ['body', 'query_variant', 'query_id'], msg: 'Field required', type: 'missing' }]);
      if (!(await readQuery(pool, req.scope.projectId, queryId))) throw queryNotFound();
      const id = uuidv7();
      await writes.addVariant(req, 'query', queryId.toLowerCase(), { id, slug: b.slug, header: headerOf(b) });
      await answerVariant(res, req.scope.projectId, id);
    }],
    'queries.variants.edit': [...guards.edit, async (req, res) => {
      const id = pathId(req, 'query_variant_id');
      const b = parseBody(queryVariantEditBody, req.body).query_variant;
      samePathId(b.id, id, 'query_variant.id');
      const head = await readQueryVariantHead(pool, req.scope.projectId, id);
      if (!head) throw variantNotFound();
      await writes.editVariant(req, 'query', head.queryId, id, headerOf(b));
      await answerVariant(res, req.scope.projectId, id);
    }],
    'queries.variants.archive': [...guards.edit, archiveVariant(true)],
    'queries.variants.unarchive': [...guards.edit, archiveVariant(false)],
    // A new variant of the same artifact that starts with copies of the source variant's revisions
    // (up to the pinned one, else all): the shared fork (ArtifactWrites.fork).
    'queries.variants.fork': [...guards.edit, async (req, res) => {
      const b = parseBody(queryVariantForkBody, req.body);
      const project = req.scope.projectId;
      const src = b.query_variant_ref;
      const [source] = src.id || src.slug
        ? await listQueryVariants(pool, project, { ...(src.id ? { ids: [src.id] } : { slugs: [src.slug!] }), includeArchived: true })
        : [];
      if (!source) throw invalid('fork_source_variant', 'Fork source variant could not be resolved.');
      const pin = b.query_revision_ref;
      let upTo: number | undefined;
      if (pin && (pin.id || pin.slug || pin.version)) {
        const pinned = await resolveQueryRevision(pool, project, { variant: { id: source.id }, revision: pin });
        if (!pinned || pinned.variant_id !== source.id) throw invalid('fork_source_revision', 'Fork source revision could not be resolved.');
        upTo = Number(pinned.version);
      }
      const id = await writes.fork(req, 'query', { artifactId: source.query_id, variantId: source.id, upTo }, { slug: b.query_variant.slug, header: headerOf(b.query_variant) }, headerOf);
      if (id === undefined) throw invalid('fork_source_empty', 'Fork source has no revisions to copy. Commit a revision to the source variant first.');
      await answerVariant(res, project, id);
    }],

    'queries.revisions.create': [...guards.edit, async (req, res) => {
      const b = parseBody(queryRevisionCreateBody, req.body).query_revision;
      const head = await variantOfBody(req, b);
      if (head.latestVersion >= 0) throw refuse('query_initial_revision_exists', INITIAL_REVISION_EXISTS);
      // Exactly version 0: a concurrent first commit makes the aggregate refuse this one.
      const revisionId = await writes.commit(req, 'query', head.queryId, head.variantId, { slug: b.slug, header: headerOf(b), dataJson: '', message: 'Initial revision' }, { initial: true });
      await answerRevision(res, req.scope.projectId, revisionId);
    }],
    // The header only (fully replaced, as for artifacts and variants); `data` is immutable.
    'queries.revisions.edit': [...guards.edit, async (req, res) => {
      const id = pathId(req, 'query_revision_id');
      const b = parseBody(queryRevisionEditBody, req.body).query_revision;
      samePathId(b.id, id, 'query_revision.id');
      const rev = await readQueryRevision(pool, req.scope.projectId, id);
      if (!rev) throw revisionNotFound();
      await writes.editRevision(req, 'query', rev.artifact_id, rev.variant_id, id, headerOf(b));
      await answerRevision(res, req.scope.projectId, id);
    }],
    'queries.revisions.archive': [...guards.edit, archiveRevision(true)],
    'queries.revisions.unarchive': [...guards.edit, archiveRevision(false)],
    'queries.revisions.commit': [...guards.edit, async (req, res) => {
      const b = parseBody(queryRevisionCommitBody, req.body).query_revision;
      const data = storedData(b.data);
      const head = await variantOfBody(req, b);
      const id = await commit(req, head, { slug: b.slug, header: headerOf(b), data, message: b.message ?? '' });
      await answerRevision(res, req.scope.projectId, id);
    }],

    'simple.queries.create': [...guards.edit, async (req, res) => {
      const b = parseBody(simpleQueryCreateBody, req.body).query;
      const data = storedData(b.data);
      const projectId = req.scope.projectId;
      const id = fixedId(req);
      const variantId = uuidv7();
      await writes.create(req, 'query', { id, slug: b.slug, header: headerOf(b) });
      // The automatic variant copies the artifact's name, description, tags and meta.
      const variantHeader = headerOf({ name: b.name, description: b.description, tags: b.tags, meta: b.meta });
      await writes.addVariant(req, 'query', id, { id: variantId, slug: hex12(), header: variantHeader });
      const head = { queryId: id, variantId };
      // v0 is the placeholder (no data, flags, tags or meta); v1 carries the data.
      await commit(req, head, { header: headerOf({ name: b.name, description: b.description }), data: '', message: 'Initial commit' });
      const v1 = await commit(req, head, { header: headerOf({ name: b.name, description: b.description }), data, message: '' });
      const query = await readSimpleQuery(pool, projectId, id);
      if (!query) throw projectionLag();
      res.json({ count: 1, query: { ...query, variant_id: variantId, revision_id: v1 } });
    }],
    'simple.queries.edit': [...guards.edit, async (req, res) => {
      const id = pathId(req, 'query_id');
      const b = parseBody(simpleQueryEditBody, req.body).query;
      samePathId(b.id, id, 'query.id');
      const projectId = req.scope.projectId;
      const current = await readSimpleQuery(pool, projectId, id);
      const head = current ? await readDefaultVariantHead(pool, projectId, id) : undefined;
      if (!current || !head) throw queryNotFound();
      // Omitting `data` keeps the current data (the reference commits a revision without any).
      const data = b.data === undefined ? (current.data ? JSON.stringify(current.data) : '') : storedData(b.data);
      const header = headerOf({ name: b.name, description: b.description, tags: b.tags, meta: b.meta, flags: current.flags });
      await writes.edit(req, 'query', id, header, current.folder_id ?? '');
      await writes.editVariant(req, 'query', id, head.variantId, headerOf({ name: b.name, description: b.description, tags: b.tags, meta: b.meta }));
      await commit(req, head, { header: headerOf({ name: b.name, description: b.description }), data, message: '' });
      const query = await readSimpleQuery(pool, projectId, id);
      if (!query) throw projectionLag();
      res.json({ count: 1, query });
    }],
    'simple.queries.archive': [...guards.edit, archiveSimple(true)],
    'simple.queries.unarchive': [...guards.edit, archiveSimple(false)],
  };
}
