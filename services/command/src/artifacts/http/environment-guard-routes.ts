// Guarding an environment (reference evaluations §2.9): `POST /simple/environments/{id}/guard` and
// `/unguard` set `flags.is_guarded` on the environment and its default variant (deploy_environments).
import type { RequestHandler } from 'express';
import { readHead, simpleAnswerOf } from '@llm/account-model';
import { uuidParam, type Guards, type Handlers } from '@llm/http';
import { entityWrites, sameHeader, storedHeader } from '../adapters/entity-writes.ts';
import type { ArtifactRouteDeps } from './simple-artifact-routes.ts';

export function environmentGuardRoutes(deps: ArtifactRouteDeps, guards: Guards<'deploy'>): Handlers {
  const w = entityWrites('environment', deps);
  const guard = (on: boolean): RequestHandler => async (req, res) => {
    const id = uuidParam(req.params, 'environment_id');
    const a = await w.mine(req, id);
    if (!a) { res.json({ count: 0 }); return; }
    const header = w.header(w.merged(a, { flags: { ...(a.flags ?? {}), is_guarded: on } }));
    if (!sameHeader(storedHeader(a), header)) await deps.writes.edit(req, 'environment', id, header);
    const head = await readHead(deps.pool, a);
    if (head.variant) {
      const vh = w.header(w.merged(head.variant, { flags: { ...(head.variant.flags ?? {}), is_guarded: on } }));
      if (!sameHeader(storedHeader(head.variant), vh)) await deps.writes.editVariant(req, 'environment', id, head.variant.id, vh);
    }
    res.json({ count: 1, environment: await simpleAnswerOf(deps.pool, await w.reread(req, id), { variant: true, revision: true }) });
  };
  return {
    'simple.environments.guard': [...guards.deploy, guard(true)],
    'simple.environments.unguard': [...guards.deploy, guard(false)],
  };
}
