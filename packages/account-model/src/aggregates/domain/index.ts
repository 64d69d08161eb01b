// The domain aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadDomainState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { domainRules } from './rules.ts';
import { loadDomainState } from './reads.ts';
import { projectDomain } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './reads.ts';

export const domain = aggregate(domainRules, { load: loadDomainState, project: projectDomain });
