// The testset aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadTestsetState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { testsetRules } from './rules.ts';
import { loadTestsetState } from './reads.ts';
import { projectTestset } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './views.ts';
export * from './reads.ts';

export const testset = aggregate(testsetRules, { load: loadTestsetState, project: projectTestset });
