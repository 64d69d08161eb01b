// `ops replay <read-model>`: the span read model is rebuilt by the same run as `npm run replay`
// (projector-spans' runSpansReplay: in this process with CLICKHOUSE_URL, else by the running server).
// The other read models have no replay command: each rebuilds by starting its projector against an
// empty store, which this names instead of pretending.
import type { CommandOutput } from '../command-output.ts';
import { UsageError } from '../ops-errors.ts';
import { progressBar } from '../progress.ts';

const REBUILT_BY_RESTART: Record<string, string> = {
  accounts: 'start projector-accounts against an empty database (DATABASE_URL); it reads accounts.events.v1 from the start',
  usage: "stop projector-usage, DELETE FROM usage_daily and usage_traces_seen and its projector_offsets rows ('projector-usage.meters', 'projector-usage.event-meters'), start it again",
  events: 'start projector-events against an empty ClickHouse database; it reads platform.events.v1 from its oldest record',
  deliveries: 'reset the deliveries projector (its positions are in projector_offsets); it reads webhooks.deliveries.v1 again',
};

export async function replayCommand(readModel: string, o: { keepOld: boolean; allowTruncated: boolean }, env: Record<string, string | undefined>, warn: (m: string) => void): Promise<CommandOutput> {
  if (readModel !== 'spans') {
    const how = REBUILT_BY_RESTART[readModel];
    throw new UsageError(how ? `'${readModel}' has no replay command: to rebuild it, ${how} (docs/operations.md)` : `unknown read model '${readModel}' (replayable: spans)`);
  }
  // Loaded on demand: the replay pulls in ClickHouse, which the other commands never need.
  const { runSpansReplay } = await import('@llm/service-projector-spans');
  const bar = progressBar('replaying spans');
  const t0 = Date.now();
  try {
    const r = await runSpansReplay({ env, keepOld: o.keepOld, allowTruncated: o.allowTruncated, onProgress: (d, t) => bar.update(d, t), warn });
    bar.stop();
    const seconds = Number(((Date.now() - t0) / 1000).toFixed(1));
    return { json: { read_model: 'spans', ...r, seconds }, text: `rebuilt spans: ${r.records} records replayed, ${r.rows} live spans, ${seconds} s (${r.via})` };
  } finally {
    bar.stop();
  }
}
