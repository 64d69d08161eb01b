// The savedQuery aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadSavedQueryState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { savedQueryRules } from './rules.ts';
import { loadSavedQueryState } from './reads.ts';
import { projectSavedQuery } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './reads.ts';

export const savedQuery = aggregate(savedQueryRules, { load: loadSavedQueryState, project: projectSavedQuery });
