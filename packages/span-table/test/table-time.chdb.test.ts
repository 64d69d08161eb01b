// tableTime writes times in the form ClickHouse parses fastest where that form is unambiguous, and
// the calendar form elsewhere: every value must land on the same microsecond in a DateTime64(6).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickhouse, type Clickhouse } from '@llm/clickhouse';

import { tableTime, timeUs } from '../src/index.ts';

const CASES: Array<[string, number]> = [
  ['1969-12-31T23:59:59.000001Z', -999_999],
  ['1970-01-01T00:00:00.000000Z', 0],
  ['1971-06-01T12:00:00.250000Z', Date.parse('1971-06-01T12:00:00Z') * 1000 + 250_000],
  ['1973-03-03T09:46:40.000000Z', 1e14],
  ['2026-11-22T10:11:12.345678Z', Date.parse('2026-11-22T10:11:12Z') * 1000 + 345_678],
  ['2286-11-20T17:46:39.999998Z', 1e16 - 2],
  ['2290-01-01T00:00:00.000002Z', Date.parse('2290-01-01T00:00:00Z') * 1000 + 2],
];

describe('tableTime', () => {
  it('uses the numeric form only inside the 10-digit-seconds range', () => {
    expect(tableTime(Date.parse('2026-11-22T10:11:12Z') * 1000 + 345_678)).toBe('1795342272.345678');
    expect(tableTime(Date.parse('1971-06-01T12:00:00Z') * 1000)).toBe('1971-06-01 12:00:00.000000');
    expect(tableTime(Date.parse('2290-01-01T00:00:00Z') * 1000 + 2)).toBe('2290-01-01 00:00:00.000002');
  });

  it('round-trips through timeUs in both forms', () => {
    for (const [, us] of CASES) expect(timeUs(tableTime(us))).toBe(us);
  });

  describe('in ClickHouse', () => {
    let dir: string;
    let ch: Clickhouse;
    beforeAll(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'span-table-time-'));
      ch = await openClickhouse({ dataDir: dir, database: 'llm' });
      await ch.client.command({ query: "CREATE TABLE llm.t (i UInt8, t DateTime64(6, 'UTC')) ENGINE = MergeTree ORDER BY i" });
    }, 60_000);
    afterAll(async () => {
      await ch?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('stores every written value on the same microsecond', async () => {
      await ch.client.insert({
        table: 'llm.t',
        values: CASES.filter(([, us]) => us >= 0).map(([, us], i) => ({ i, t: tableTime(us) })),
        format: 'JSONEachRow',
        clickhouse_settings: { date_time_input_format: 'best_effort' },
      });
      const got = await (await ch.client.query({ query: 'SELECT i, toUnixTimestamp64Micro(t) AS us FROM llm.t ORDER BY i', format: 'JSONEachRow' })).json<{ i: number; us: string }>();
      expect(got.map((r) => Number(r.us))).toEqual(CASES.filter(([, us]) => us >= 0).map(([, us]) => us));
    });
  });
});
