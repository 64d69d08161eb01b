// The user aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadUserState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { userRules } from './rules.ts';
import { loadUserState } from './reads.ts';
import { projectUser } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './reads.ts';

export const user = aggregate(userRules, { load: loadUserState, project: projectUser });
