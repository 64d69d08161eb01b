// POST /queries/ → accounts.query.created; POST /queries/{query_id}/revisions/ →
// accounts.query.revision.committed. Both are appended to the accounts topic under the project's
// saved-queries key; the rules are the saved-query aggregate's (@llm/account-model), and the
// command answers with the projected resource once the projector has recorded the event
// (read-your-writes).
import { randomBytes, randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { queryNotFound } from '@llm/account-model';
import { isUuid, querySlugTaken, readDefaultVariant, readSavedQueryRevision } from '@llm/accounts-read';
import { savedQueryCommit, savedQueryCreate, type SavedQueryRevisionInput } from '@llm/contracts';
import { conflict, invalid, sleep, unavailable, type AppError } from '@llm/errors';
import { RequestValidationError, validate, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { checkRevisionContent, type RevisionContent } from '../domain/saved-query-revision.ts';
import { newQuerySlug } from '../domain/saved-query-slug.ts';
import { savedQueriesKey, type AccountEventMeta } from '../adapters/account-appender.ts';
import { rejectionError, type AccountCommands } from '../adapters/account-commands.ts';

const DEFAULT_VARIANT = 'default';
/** Commits without an expected version retry after losing a race; each round one commit wins. */
const MAX_COMMIT_ATTEMPTS = 8;

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');
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
  async function answer(res: Response, projectId: string, revisionId: string): Promise<void> {
    const view = await readSavedQueryRevision(pool, projectId, revisionId);
    if (!view) throw lagging();
    res.status(200).json(view);
  }

  return {
    'queries.create': [auth, async (req, res) => {
      const body = validate(savedQueryCreate, req.body);
      const content = revisionContent(body.query_revision);
      const projectId = req.scope.projectId;
      let slug = body.query.slug ?? newQuerySlug(body.query.name, hex(3));
      // A generated slug that happens to be taken is generated again; a chosen one is the client's
      // 409 (query_slug_exists, from the aggregate's rules).
      for (let i = 0; body.query.slug === undefined && i < 3 && await querySlugTaken(pool, projectId, slug); i++) slug = newQuerySlug(body.query.name, hex(3));
      const queryId = randomUUID();
      const revisionId = randomUUID();
      await commands.commit({
        type: 'accounts.query.created', key: savedQueriesKey(projectId), meta: eventMeta(req, queryId),
        payload: {
          query_id: queryId, slug, name: body.query.name ?? '', description: body.query.description ?? '',
          variant_id: randomUUID(), variant_slug: DEFAULT_VARIANT,
          revision: { ...content, id: revisionId, slug: hex(6), version: 1 },
        },
      });
      await answer(res, projectId, revisionId);
    }],

    'queries.revisions.commit': [auth, async (req, res) => {
      const queryId = String(req.params.query_id ?? '');
      if (!isUuid(queryId)) throw rejectionError(queryNotFound());
      const body = validate(savedQueryCommit, req.body);
      const content = revisionContent(body.query_revision);
      const projectId = req.scope.projectId;
      for (let attempt = 1; ; attempt++) {
        const head = await readDefaultVariant(pool, projectId, queryId);
        if (!head) throw rejectionError(queryNotFound());
        // The event claims version head+1 and expects the client's version (or the one just read):
        // the aggregate refuses it, early or on the partition, when the variant is no longer there.
        const revisionId = randomUUID();
        const outcome = await commands.appendAndAwait({
          type: 'accounts.query.revision.committed', key: savedQueriesKey(projectId),
          meta: { ...eventMeta(req, queryId), expectedVersion: body.expected_version ?? head.version },
          payload: { query_id: head.queryId, variant_id: head.variantId, revision: { ...content, id: revisionId, slug: hex(6), version: head.version + 1 } },
        });
        if (outcome.status === 'applied') return answer(res, projectId, revisionId);
        // A client that named its version learns the current one; otherwise a lost race is retried.
        if (outcome.code !== 'query_version_conflict' || body.expected_version !== undefined) throw rejectionError(outcome);
        if (attempt >= MAX_COMMIT_ATTEMPTS) {
          const now = (await readDefaultVariant(pool, projectId, queryId))?.version ?? head.version;
          throw conflict('query_commit_contention', 'Too many concurrent commits to this query; retry the commit.', { current_version: now });
        }
        await sleep(Math.random() * 20 * attempt);
      }
    }],
  };
}
