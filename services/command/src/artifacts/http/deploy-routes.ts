// Deploying a workflow revision (reference evaluations §2.7): `POST /{workflows,applications,
// evaluators}/revisions/deploy` resolves the revision and the environment from their references
// and commits the environment's next revision with the key set to the revision's references
// (`{<e>:{id}, <e>_variant:{id}, <e>_revision:{id, slug, version}}`; key default
// `<artifact slug>.revision`). Needs the entity's edit permission and edit_environments.
import type { RequestHandler } from 'express';
import { readLatestRevision, resolveRevision, revisionData, revisionView, type ArtifactEntity } from '@llm/account-model';
import { artifactDeploy, type ArtifactRef, type RouteId } from '@llm/contracts';
import { invalid, notFound } from '@llm/errors';
import { validate, type Guards, type Handlers } from '@llm/http';
import { entityWrites } from '../adapters/entity-writes.ts';
import { hex12 } from '../domain/artifact-content.ts';
import type { ArtifactRouteDeps } from './simple-artifact-routes.ts';

type Deployable = 'workflow' | 'application' | 'evaluator';
const identifies = (r: ArtifactRef | null | undefined): boolean => !!r && (r.id != null || r.slug != null || r.version != null);

export function deployRoutes(deps: ArtifactRouteDeps, guards: { [E in Deployable]: Guards<'deploy'> }): Handlers {
  const { pool, writes } = deps;
  const environments = entityWrites('environment', deps);

  const deploy = (e: Deployable): RequestHandler => async (req, res) => {
    const body = validate(artifactDeploy(e), req.body) as Record<string, unknown>;
    const E = `${e[0]!.toUpperCase()}${e.slice(1)}`;
    const refs = { artifact: body[`${e}_ref`] as ArtifactRef | null, variant: body[`${e}_variant_ref`] as ArtifactRef | null, revision: body[`${e}_revision_ref`] as ArtifactRef | null };
    const envRefs = { artifact: body.environment_ref as ArtifactRef | null, variant: body.environment_variant_ref as ArtifactRef | null, revision: body.environment_revision_ref as ArtifactRef | null };
    if (!identifies(refs.artifact) && !identifies(refs.variant) && !identifies(refs.revision)) throw invalid('deploy_refs_required', `${E} deploy requires ${e} refs.`);
    if (!identifies(envRefs.artifact) && !identifies(envRefs.variant) && !identifies(envRefs.revision)) throw invalid('deploy_environment_required', `${E} deploy requires environment refs.`);
    const target = await resolveRevision(pool, req.scope.projectId, e as ArtifactEntity, refs);
    if (target.status === 'invalid') throw invalid('refs_invalid', target.message);
    if (target.status === 'none') throw notFound(`${e}_revision_not_found`, `${E} revision not found.`);
    const env = await resolveRevision(pool, req.scope.projectId, 'environment', envRefs);
    if (env.status === 'invalid') throw invalid('refs_invalid', env.message);
    if (env.status === 'none' || !await environments.mine(req, env.found.artifact.id)) throw notFound('environment_not_found', 'Environment not found.');
    const { artifact, variant, revision } = target.found;
    const key = typeof body.key === 'string' && body.key !== '' ? body.key : `${artifact.slug}.revision`;
    const entry = { [e]: { id: artifact.id }, [`${e}_variant`]: { id: variant.id }, [`${e}_revision`]: { id: revision.id, slug: revision.slug, version: String(revision.version) } };
    // Merged into the environment's head as it is at each try: a concurrent deploy's keys are kept.
    await writes.commit(req, 'environment', env.found.artifact.id, env.found.variant.id, async () => {
      const head = (await readLatestRevision(pool, env.found.variant.id)) ?? env.found.revision;
      const references = { ...((head.data?.references ?? {}) as Record<string, unknown>), [key]: entry };
      const slug = hex12();
      const content = await environments.revisionContent(req, env.found.artifact.id, slug, {}, { references }, { normalise: false });
      return { slug, header: content.header, dataJson: content.dataJson, message: typeof body.message === 'string' ? body.message : `Deployed ${artifact.slug} to ${key}` };
    });
    res.json({ count: 1, [`${e}_revision`]: revisionView(e, revision, await revisionData(pool, revision, 'workflow'), { artifact, variant }) });
  };

  const id = (e: Deployable): RouteId => `${e}s.revisions.deploy` as RouteId;
  return {
    [id('workflow')]: [...guards.workflow.deploy, deploy('workflow')],
    [id('application')]: [...guards.application.deploy, deploy('application')],
    [id('evaluator')]: [...guards.evaluator.deploy, deploy('evaluator')],
  };
}
