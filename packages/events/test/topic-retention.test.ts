// The data topics keep at least the longest plan retention (issue 30), so a replay rebuilds what
// readers may still see: the defaults do, and a shorter configured retention is named.
import { describe, expect, it } from 'vitest';
import { retentionShortfalls, topicsFor } from '../src/index.ts';

const DAY_MS = 86_400_000;
const BUSINESS_MS = 132_480 * 60_000;

describe('topic retention', () => {
  it('when the platform and deliveries topics take their defaults, then they keep 92 days, the longest default plan\'s retention', () => {
    const t = topicsFor({ prefix: '', spansPartitions: 1, accountsPartitions: 1, spansRetentionMs: 92 * DAY_MS, dlqRetentionMs: 14 * DAY_MS });
    expect(retentionShortfalls(t, BUSINESS_MS)).toEqual([]);
  });

  it('when a data topic keeps less than the longest plan retention, then it is named; forever and the dead letters are not', () => {
    const t = topicsFor({ prefix: 'p.', spansPartitions: 1, accountsPartitions: 1, spansRetentionMs: 7 * DAY_MS, dlqRetentionMs: DAY_MS, platformRetentionMs: -1, deliveriesRetentionMs: 30 * DAY_MS });
    expect(retentionShortfalls(t, BUSINESS_MS)).toEqual([
      { topic: 'p.tracing.spans.v1', retentionMs: 7 * DAY_MS },
      { topic: 'p.webhooks.deliveries.v1', retentionMs: 30 * DAY_MS },
    ]);
  });
});
