// The session aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadSessionState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { sessionRules } from './rules.ts';
import { loadSessionState } from './reads.ts';
import { projectSession } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './reads.ts';

export const session = aggregate(sessionRules, { load: loadSessionState, project: projectSession });
