// POST /keys and DELETE /keys/{id or prefix}: API keys of the caller's project, as
// accounts.api_key.* events keyed by project. The raw key is returned once, at creation; only its
// prefix and hash are stored. A revocation drops the key from this process's authenticator cache at
// once (read-your-writes for the credential itself).
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { readApiKey } from '@llm/accounts-read';
import { generateApiKey, type ApiKeyAuthenticator } from '@llm/auth';
import { apiKeyCreate, apiKeyPath, apiKeyView } from '@llm/contracts';
import { conflict, notFound, unavailable } from '@llm/errors';
import type { EventPayloads } from '@llm/events';
import { validate, type Handlers } from '@llm/http';
import type { Pool } from '@llm/postgres';
import type { AccountAppender } from '../adapters/account-appender.ts';
import type { AccountCommands } from '../adapters/account-commands.ts';
import { waitForEvent } from '../adapters/accounts-store.ts';

export const apiKeysKey = (projectId: string): string => `project:${projectId}:keys`;

export function apiKeyRoutes(deps: { pool: Pool; appender: AccountAppender; commands: AccountCommands; authenticator: ApiKeyAuthenticator }, view: RequestHandler[], edit: RequestHandler[]): Handlers {
  async function commit<T extends 'accounts.api_key.created' | 'accounts.api_key.revoked'>(req: Request, type: T, payload: EventPayloads[T], keyId: string): Promise<void> {
    const eventId = await deps.appender.append(type, apiKeysKey(req.scope.projectId), payload, {
      requestId: req.id, organizationId: req.scope.organizationId, projectId: req.scope.projectId, aggregateId: `api_key:${keyId}`, actorId: req.scope.userId,
    });
    const outcome = await waitForEvent(deps.pool, eventId);
    if (outcome.status === 'timeout') throw unavailable('projection_lag', 'The change was accepted but is not visible yet; retry the read shortly.');
    if (outcome.status === 'rejected') {
      if (outcome.reason === 'API key not found') throw notFound('api_key_not_found', 'API key not found');
      throw conflict('api_key_rejected', outcome.reason);
    }
  }

  return {
    'keys.create': [...view, ...edit, async (req, res) => {
      const body = validate(apiKeyCreate, req.body ?? {});
      const key = generateApiKey();
      const id = randomUUID();
      await commit(req, 'accounts.api_key.created', {
        key_id: id, project_id: req.scope.projectId, user_id: req.scope.userId, prefix: key.prefix, secret_hash: key.secretHash,
        name: body.name ?? '', expires_at_us: body.expires_at ? Date.parse(body.expires_at) * 1000 : 0,
      }, id);
      const row = await readApiKey(deps.pool, req.scope.projectId, id);
      if (!row) throw unavailable('projection_lag', 'The change was accepted but is not visible yet; retry the read shortly.');
      res.status(200).json({ ...apiKeyView(row), key: key.raw });
    }],

    'keys.revoke': [...view, ...edit, async (req, res) => {
      const { key_id: keyId } = validate(apiKeyPath, req.params, 'path');
      const row = await readApiKey(deps.pool, req.scope.projectId, keyId);
      if (!row) throw notFound('api_key_not_found', 'API key not found');
      await commit(req, 'accounts.api_key.revoked', { key_id: row.id, project_id: row.project_id }, row.id);
      deps.authenticator.invalidate(row.prefix);
      res.status(204).end();
    }],
  };
}
