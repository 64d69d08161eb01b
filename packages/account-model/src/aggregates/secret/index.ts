// The secret aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadSecretState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { secretRules } from './rules.ts';
import { loadSecretState } from './reads.ts';
import { projectSecret } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './reads.ts';

export const secret = aggregate(secretRules, { load: loadSecretState, project: projectSecret });
