export { createSpansProjector, migrateSpans, SPANS_GROUP, SPAN_TABLES, SPANS_MIGRATIONS } from './app.ts';
export type { SpansProjectorDeps } from './app.ts';
export { replaySpans } from './replay.ts';
export type { ReplayDeps, ReplayResult } from './replay.ts';
export { runSpansReplay } from './replay-run.ts';
export type { SpansReplayOutcome, SpansReplayRun } from './replay-run.ts';
export { replayRoutes } from './http/replay-route.ts';
export { createSpanPurge, forgetSpanPurges, PURGED_SPAN_TABLES, SPAN_PURGE_LEDGER } from './purge/span-purge.ts';
export { spanRetentionTargets } from './purge/span-retention.ts';
