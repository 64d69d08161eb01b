// GET /queries/{query_id}, GET /queries/{query_id}/revisions/, GET /queries/revisions/{revision_id}:
// saved queries as projected into Postgres by projector-accounts. Another project's query answers
// exactly like a missing one.
import type { RequestHandler } from 'express';
import { notFound } from '@llm/errors';
import { isUuid, listSavedQueryRevisions, readLatestSavedQuery, readSavedQueryRevision, type Queryable } from '@llm/accounts-read';
import type { Handlers } from '@llm/http';

const queryNotFound = () => notFound('query_not_found', 'Query not found.');
const revisionNotFound = () => notFound('query_revision_not_found', 'Query revision not found.');

/** A malformed id names nothing: 404, like an unknown one. */
const idParam = (v: unknown): string | undefined => (typeof v === 'string' && isUuid(v) ? v : undefined);

export function savedQueryRoutes(pool: Queryable, auth: RequestHandler): Handlers {
  return {
    'queries.fetch': [auth, async (req, res) => {
      const id = idParam(req.params.query_id);
      const view = id ? await readLatestSavedQuery(pool, req.scope.projectId, id) : undefined;
      if (!view) throw queryNotFound();
      res.json(view);
    }],
    'queries.revisions.list': [auth, async (req, res) => {
      const id = idParam(req.params.query_id);
      const list = id ? await listSavedQueryRevisions(pool, req.scope.projectId, id) : undefined;
      if (!list) throw queryNotFound();
      res.json(list);
    }],
    'queries.revisions.fetch': [auth, async (req, res) => {
      const id = idParam(req.params.revision_id);
      const view = id ? await readSavedQueryRevision(pool, req.scope.projectId, id) : undefined;
      if (!view) throw revisionNotFound();
      res.json(view);
    }],
  };
}
