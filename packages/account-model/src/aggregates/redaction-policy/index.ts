// The redactionPolicy aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadRedactionPolicyState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { redactionPolicyRules } from './rules.ts';
import { loadRedactionPolicyState } from './reads.ts';
import { projectRedactionPolicy } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './views.ts';
export * from './reads.ts';

export const redactionPolicy = aggregate(redactionPolicyRules, { load: loadRedactionPolicyState, project: projectRedactionPolicy });
