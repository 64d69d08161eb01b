// The ClickHouse server's system log tables have a TTL (issue 30): deploy/clickhouse/system-log-ttl.xml
// sets one on every log a server keeps by default that this file can name, and docker-compose.yml
// mounts it into the server's config.d. (The embedded engine keeps no system logs at all:
// packages/clickhouse/test/system-logs.chdb.test.ts.)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const FILE = 'deploy/clickhouse/system-log-ttl.xml';
const xml = readFileSync(path.join(repoRoot, FILE), 'utf8').replace(/<!--[\s\S]*?-->/g, '');

/** The logs a ClickHouse server writes to MergeTree tables by default and that the file covers. */
const LOGS = ['query_log', 'part_log', 'query_thread_log', 'query_views_log', 'trace_log', 'text_log', 'metric_log', 'asynchronous_metric_log',
  'processors_profile_log', 'asynchronous_insert_log', 'query_metric_log', 'error_log', 'latency_log'];

describe('ClickHouse server system logs', () => {
  it('when the config is read, then every system log has a TTL of at most 7 days and no engine of its own', () => {
    const ttls: Record<string, string> = Object.fromEntries([...xml.matchAll(/<([a-z_]+_log)>([\s\S]*?)<\/\1>/g)].map((m) => [m[1]!, m[2]!]));
    expect(Object.keys(ttls).sort()).toEqual([...LOGS].sort());
    for (const [log, body] of Object.entries(ttls)) {
      const days = /<ttl>\s*event_date \+ INTERVAL (\d+) DAY DELETE\s*<\/ttl>/.exec(body);
      expect(days, log).not.toBeNull();
      expect(Number(days![1]), log).toBeLessThanOrEqual(7);
      // A `ttl` may not join an `engine` (the server refuses to start).
      expect(body, log).not.toContain('<engine>');
    }
  });

  it('when docker-compose.yml is read, then the server mounts the file into its config.d', () => {
    const compose = parse(readFileSync(path.join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, { volumes?: string[] }> };
    expect(compose.services.clickhouse?.volumes).toContain(`./${FILE}:/etc/clickhouse-server/config.d/system-log-ttl.xml:ro`);
  });
});
