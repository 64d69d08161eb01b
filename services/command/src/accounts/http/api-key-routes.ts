// POST /keys and DELETE /keys/{id or prefix}: API keys of the caller's project, as
// accounts.api_key.* events keyed by project; the rules are the API key aggregate's
// (@llm/account-model). The raw key is returned once, at creation; only its prefix and hash are
// stored. A revocation drops the key from this process's authenticator cache at once
// (read-your-writes for the credential itself).
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { type ApiKeyEventType, apiKeysKey, decideKeyRef, readApiKey } from '@llm/account-model';
import { generateApiKey, type ApiKeyAuthenticator } from '@llm/auth';
import { apiKeyCreate, apiKeyPath, apiKeyView, type ApiKeyRow } from '@llm/contracts';
import type { EventPayloads } from '@llm/events';
import { validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { orThrow, projectionLag, type AccountCommands } from '../adapters/account-commands.ts';

export function apiKeyRoutes(deps: { pool: Pool; commands: AccountCommands; authenticator: ApiKeyAuthenticator }, guards: Guards<'view' | 'edit'>): Handlers {
  const commit = <T extends ApiKeyEventType>(req: Request, type: T, payload: EventPayloads[T]): Promise<void> =>
    deps.commands.run(req, { type, key: apiKeysKey(req.scope.projectId), payload, meta: { aggregateId: `api_key:${payload.key_id}` } });

  return {
    'keys.create': [...guards.view, ...guards.edit, async (req, res) => {
      const body = validate(apiKeyCreate, req.body ?? {});
      const key = generateApiKey();
      const id = randomUUID();
      await commit(req, 'accounts.api_key.created', {
        key_id: id, project_id: req.scope.projectId, user_id: req.scope.userId, prefix: key.prefix, secret_hash: key.secretHash,
        name: body.name ?? '', expires_at_us: body.expires_at ? Date.parse(body.expires_at) * 1000 : 0,
      });
      const row = await readApiKey(deps.pool, req.scope.projectId, id);
      if (!row) throw projectionLag();
      res.status(200).json({ ...apiKeyView(row), key: key.raw });
    }],

    'keys.revoke': [...guards.view, ...guards.edit, async (req, res) => {
      const { key_id: keyId } = validate(apiKeyPath, req.params, 'path');
      // The path names the key by id or prefix; the event needs its id.
      const row = await readApiKey(deps.pool, req.scope.projectId, keyId);
      orThrow(decideKeyRef(row));
      const { id, project_id: projectId, prefix } = row as ApiKeyRow; // found: decideKeyRef refused otherwise
      await commit(req, 'accounts.api_key.revoked', { key_id: id, project_id: projectId });
      deps.authenticator.invalidate(prefix);
      res.status(204).end();
    }],
  };
}
