// The events log's retention target (issue 30): events expire by their time, at the project's events
// retention (plan `events_ingested.retention`, or the project's own shorter one). The table's TTL
// (adapters/event-table.ts) still removes what the platform topic no longer holds.
import type { Clickhouse } from '@llm/clickhouse';
import { clickhouseRetentionTarget, type RetentionTarget } from '@llm/project-purge';

export function eventRetentionTargets(ch: Clickhouse): RetentionTarget[] {
  return [clickhouseRetentionTarget(ch, 'platform_events', 'timestamp', 'events')];
}
