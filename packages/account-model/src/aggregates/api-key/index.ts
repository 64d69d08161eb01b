// The apiKey aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadApiKeyState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { apiKeyRules } from './rules.ts';
import { loadApiKeyState } from './reads.ts';
import { projectApiKey } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './reads.ts';

export const apiKey = aggregate(apiKeyRules, { load: loadApiKeyState, project: projectApiKey });
