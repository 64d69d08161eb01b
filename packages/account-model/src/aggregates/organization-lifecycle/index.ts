// The organizationLifecycle aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadOrganizationLifecycleState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { organizationLifecycleRules } from './rules.ts';
import { loadOrganizationLifecycleState } from './reads.ts';
import { projectOrganizationLifecycle } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './reads.ts';

export const organizationLifecycle = aggregate(organizationLifecycleRules, { load: loadOrganizationLifecycleState, project: projectOrganizationLifecycle });
