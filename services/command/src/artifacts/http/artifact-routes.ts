// Every entity's artifact write routes (simple and git), each behind its entity's edit permission.
import { ARTIFACT_ENTITIES, type ArtifactEntity } from '@llm/account-model';
import type { Guards, Handlers } from '@llm/http';
import { gitArtifactRoutes } from './git-artifact-routes.ts';
import { simpleArtifactRoutes, type ArtifactRouteDeps } from './simple-artifact-routes.ts';
import { testsetFileRoutes } from './testset-file-routes.ts';
import { environmentGuardRoutes } from './environment-guard-routes.ts';
import { deployRoutes } from './deploy-routes.ts';

export function artifactWriteRoutes(deps: ArtifactRouteDeps, guards: { [E in ArtifactEntity]: Guards<'edit'> } & { deploy: Guards<'deploy'> }): Handlers {
  // Deploying a workflow revision writes an environment: the entity's edit and edit_environments.
  const deployGuard = (e: 'workflow' | 'application' | 'evaluator') => ({ deploy: [...guards[e].edit, ...guards.environment.edit] });
  const deploy = deployRoutes(deps, { workflow: deployGuard('workflow'), application: deployGuard('application'), evaluator: deployGuard('evaluator') });
  return Object.assign(testsetFileRoutes(deps, guards.testset), environmentGuardRoutes(deps, guards.deploy), deploy, ...ARTIFACT_ENTITIES.map((e) => ({ ...simpleArtifactRoutes({ ...deps, entity: e }, guards[e]), ...gitArtifactRoutes({ ...deps, entity: e }, guards[e]) }))) as Handlers;
}
