// The application aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadApplicationState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { applicationRules } from './rules.ts';
import { loadApplicationState } from './reads.ts';
import { projectApplication } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './views.ts';
export * from './reads.ts';

export const application = aggregate(applicationRules, { load: loadApplicationState, project: projectApplication });
