// The billing aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadBillingState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { billingRules } from './rules.ts';
import { loadBillingState } from './reads.ts';
import { projectBilling } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './reads.ts';

export const billing = aggregate(billingRules, { load: loadBillingState, project: projectBilling });
