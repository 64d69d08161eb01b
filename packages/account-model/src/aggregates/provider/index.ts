// The provider aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (../organization/reads.ts: loadProviderEventState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { providerRules } from './rules.ts';
import { loadProviderEventState } from '../organization/reads.ts';
import { projectProvider } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './reads.ts';

export const provider = aggregate(providerRules, { load: loadProviderEventState, project: projectProvider });
