// The webhook aggregate: its rules and stream key (rules.ts), its state as the projection holds it
// (reads.ts: loadWebhookState, the one definition both the command and the projector decide on), the
// SQL of its facts (projection.ts) and the reads the routes answer from (reads.ts).
import { aggregate } from '../../aggregate.ts';
import { webhookRules } from './rules.ts';
import { loadWebhookState } from './reads.ts';
import { projectWebhook } from './projection.ts';

export * from './rules.ts';
export * from './projection.ts';
export * from './reads.ts';

export const webhook = aggregate(webhookRules, { load: loadWebhookState, project: projectWebhook });
