// The invitation aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadInvitationState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { invitationRules } from './rules.ts';
import { loadInvitationState } from './reads.ts';
import { projectInvitation } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './reads.ts';

export const invitation = aggregate(invitationRules, { load: loadInvitationState, project: projectInvitation });
