// The membership aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadMembershipState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { membershipRules } from './rules.ts';
import { loadMembershipState } from './reads.ts';
import { projectMembership } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './reads.ts';

export const membership = aggregate(membershipRules, { load: loadMembershipState, project: projectMembership });
