// Every entity's artifact write routes (simple and git), each behind its entity's edit permission.
import { ARTIFACT_ENTITIES, type ArtifactEntity } from '@llm/account-model';
import type { Guards, Handlers } from '@llm/http';
import { gitArtifactRoutes } from './git-artifact-routes.ts';
import { simpleArtifactRoutes, type ArtifactRouteDeps } from './simple-artifact-routes.ts';
import { testsetFileRoutes } from './testset-file-routes.ts';

export function artifactWriteRoutes(deps: ArtifactRouteDeps, guards: { [E in ArtifactEntity]: Guards<'edit'> }): Handlers {
  return Object.assign(testsetFileRoutes(deps, guards.testset), ...ARTIFACT_ENTITIES.map((e) => ({ ...simpleArtifactRoutes({ ...deps, entity: e }, guards[e]), ...gitArtifactRoutes({ ...deps, entity: e }, guards[e]) }))) as Handlers;
}
