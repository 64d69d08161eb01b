// The span read model's retention targets (issue 30): spans (and the roots' copies) expire by their start time, trace index
// entries by the trace's last span start (an entry whose trace still has a retained span stays). Run
// by the retention purge worker of @llm/project-purge; reads never show expired spans meanwhile.
import type { Clickhouse } from '@llm/clickhouse';
import { clickhouseRetentionTarget, type RetentionTarget } from '@llm/project-purge';
import { spanTables } from '@llm/span-table';

export function spanRetentionTargets(ch: Clickhouse): RetentionTarget[] {
  const t = spanTables();
  return [
    clickhouseRetentionTarget(ch, t.spans, 'start_time', 'spans'),
    clickhouseRetentionTarget(ch, t.roots, 'start_time', 'spans'),
    clickhouseRetentionTarget(ch, t.traceIndex, 'last_start', 'spans'),
  ];
}
