// The artifact aggregate: versioned artifacts of every family (testsets, workflows, environments,
// saved queries), their rules and stream key (rules.ts), state and reads (reads.ts), the SQL of
// their facts (projection.ts), the entity-named views (views.ts), what each kind declares (kinds/),
// and the event types of saved queries and of the first model's applications and testsets,
// translated into artifact events (query-events.ts, legacy-events.ts).
import { aggregate } from '../../aggregate.ts';
import { artifactRules } from './rules.ts';
import { loadArtifactState } from './reads.ts';
import { projectArtifact } from './projection.ts';

export * from './rules.ts';
export * from './reads.ts';
export * from './projection.ts';
export * from './views.ts';
export * from './answers.ts';
export * from './listing.ts';
export * from './kinds/testset.ts';
export * from './kinds/workflow.ts';
export * from './kinds/query.ts';
export * from './query-events.ts';
export * from './legacy-events.ts';
export * from './catalog.ts';
export * from './embeds.ts';

export const artifact = aggregate(artifactRules, { load: loadArtifactState, project: projectArtifact });
