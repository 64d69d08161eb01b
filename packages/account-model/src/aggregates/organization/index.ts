// The organization aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadOrganizationState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { organizationRules } from './rules.ts';
import { loadOrganizationState } from './reads.ts';
import { projectOrganization } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './reads.ts';

export const organization = aggregate(organizationRules, { load: loadOrganizationState, project: projectOrganization });
