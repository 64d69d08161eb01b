// POST /queries/ → accounts.query.created; POST /queries/{query_id}/revisions/ →
// accounts.query.revision.committed. Both are appended to the accounts topic under the project's
// saved-queries key; projector-accounts applies them to Postgres, and the command answers with the
// projected resource once the projector has recorded the event (read-your-writes).
import { randomBytes, randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { savedQueryCommit, savedQueryCreate, type SavedQueryRevisionInput } from '@llm/contracts';
import { isVersionConflict } from '@llm/events';
import { conflict, invalid, notFound, sleep, unavailable, type AppError } from '@llm/errors';
import { RequestValidationError, validate, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { checkRevisionContent, type RevisionContent } from '../domain/saved-query-revision.ts';
import { newQuerySlug } from '../domain/saved-query-slug.ts';
import { savedQueriesKey, type AccountEventMeta } from '../adapters/account-appender.ts';
import type { AccountCommands } from '../adapters/account-commands.ts';
import { waitForEvent } from '../adapters/accounts-store.ts';
import { querySlugTaken, readDefaultVariant, readRevisionView } from '../adapters/saved-query-store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DEFAULT_VARIANT = 'default';
/** Commits without an expected version retry after losing a race; each round one commit wins. */
const MAX_COMMIT_ATTEMPTS = 8;

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');
const queryNotFound = (): AppError => notFound('query_not_found', 'Query not found.');
const slugTaken = (slug: string): AppError => conflict('query_slug_exists', `Query with slug '${slug}' already exists in this project.`, { slug });
const stale = (expected: number, current: number): AppError =>
  conflict('query_version_conflict', `Query revision conflict: expected version ${expected}, but the current version is ${current}.`, { current_version: current });
const lagging = (): AppError => unavailable('projection_lag', 'The change was accepted but is not visible yet; retry the read shortly.');

/** Filtering problems answer 400 and windowing problems 422, exactly as on POST /spans/query. */
function revisionContent(input: SavedQueryRevisionInput): RevisionContent {
  const c = checkRevisionContent(input);
  if (c.ok) return c.value;
  if (c.part === 'filtering') throw invalid('invalid_filtering', c.problems.map((p) => p.message).join('; '));
  throw new RequestValidationError(c.problems.map((p) => ({ loc: ['body', ...p.loc], msg: p.message, type: 'value_error' })));
}

function eventMeta(req: Request, queryId: string): AccountEventMeta {
  return {
    requestId: req.id, projectId: req.scope.projectId, organizationId: req.scope.organizationId,
    aggregateId: `query:${queryId}`, actorId: req.scope.userId,
  };
}

export function savedQueryRoutes(commands: AccountCommands, pool: Pool, auth: RequestHandler): Handlers {
  const appender = commands.appender;
  async function answer(res: Response, projectId: string, revisionId: string): Promise<void> {
    const view = await readRevisionView(pool, projectId, revisionId);
    if (!view) throw lagging();
    res.status(200).json(view);
  }

  return {
    'queries.create': [auth, async (req, res) => {
      const body = validate(savedQueryCreate, req.body);
      const content = revisionContent(body.query_revision);
      const projectId = req.scope.projectId;
      let slug = body.query.slug ?? newQuerySlug(body.query.name, hex(3));
      // A generated slug that happens to be taken is generated again; a chosen one is the client's 409.
      for (let i = 0; body.query.slug === undefined && i < 3 && await querySlugTaken(pool, projectId, slug); i++) slug = newQuerySlug(body.query.name, hex(3));
      // A fast answer for the common case; the projector decides races on the partition.
      if (await querySlugTaken(pool, projectId, slug)) throw slugTaken(slug);
      const queryId = randomUUID();
      const revisionId = randomUUID();
      const eventId = await appender.append('accounts.query.created', savedQueriesKey(projectId), {
        query_id: queryId, slug, name: body.query.name ?? '', description: body.query.description ?? '',
        variant_id: randomUUID(), variant_slug: DEFAULT_VARIANT,
        revision: { ...content, id: revisionId, slug: hex(6), version: 1 },
      }, eventMeta(req, queryId));
      const outcome = await waitForEvent(pool, eventId);
      if (outcome.status === 'timeout') throw lagging();
      if (outcome.status === 'rejected') {
        throw outcome.reason.startsWith('Query with slug ') ? slugTaken(slug) : conflict('rejected', outcome.reason);
      }
      await answer(res, projectId, revisionId);
    }],

    'queries.revisions.commit': [auth, async (req, res) => {
      const queryId = String(req.params.query_id ?? '');
      if (!UUID.test(queryId)) throw queryNotFound();
      const body = validate(savedQueryCommit, req.body);
      const content = revisionContent(body.query_revision);
      const projectId = req.scope.projectId;
      for (let attempt = 1; ; attempt++) {
        const head = await readDefaultVariant(pool, projectId, queryId);
        if (!head) throw queryNotFound();
        if (body.expected_version !== undefined && head.version !== body.expected_version) throw stale(body.expected_version, head.version);
        // The event claims version head+1 and applies only if the variant is still at `head` when
        // its turn comes on the partition: concurrent commits never share a version.
        const revisionId = randomUUID();
        const eventId = await appender.append('accounts.query.revision.committed', savedQueriesKey(projectId), {
          query_id: queryId, variant_id: head.variantId, revision: { ...content, id: revisionId, slug: hex(6), version: head.version + 1 },
        }, { ...eventMeta(req, queryId), expectedVersion: head.version });
        const outcome = await waitForEvent(pool, eventId);
        if (outcome.status === 'timeout') throw lagging();
        if (outcome.status === 'applied') return answer(res, projectId, revisionId);
        if (!isVersionConflict(outcome.reason)) throw outcome.reason === 'Query not found.' ? queryNotFound() : conflict('rejected', outcome.reason);
        const now = (await readDefaultVariant(pool, projectId, queryId))?.version ?? head.version;
        if (body.expected_version !== undefined) throw stale(body.expected_version, now);
        if (attempt >= MAX_COMMIT_ATTEMPTS) {
          throw conflict('query_commit_contention', 'Too many concurrent commits to this query; retry the commit.', { current_version: now });
        }
        await sleep(Math.random() * 20 * attempt);
      }
    }],
  };
}
