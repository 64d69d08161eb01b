import { describe, expect, it } from 'vitest';

import { MAX_BUCKETS, planBuckets, resolveWindow } from '../src/index.ts';

const us = (iso: string): number => Date.parse(iso) * 1000;
const DAY_US = 86_400_000_000;

describe('resolveWindow', () => {
  const now = us('2024-05-10T13:45:00Z');

  it('when nothing is given, then the window is the 30 days before the next UTC midnight', () => {
    expect(resolveWindow({}, now)).toEqual({ ok: true, window: { oldestUs: us('2024-04-11T00:00:00Z'), newestUs: us('2024-05-11T00:00:00Z') } });
  });

  it('when only newest is given, then oldest is 30 days before it', () => {
    expect(resolveWindow({ newestUs: us('2024-01-31T00:00:00Z') }, now)).toEqual({ ok: true, window: { oldestUs: us('2024-01-01T00:00:00Z'), newestUs: us('2024-01-31T00:00:00Z') } });
  });

  it('when newest is not after oldest, then it is an error naming newest', () => {
    const r = resolveWindow({ oldestUs: us('2024-01-02T00:00:00Z'), newestUs: us('2024-01-01T00:00:00Z') }, now);
    expect(r).toMatchObject({ ok: false, field: 'newest' });
    expect(resolveWindow({ oldestUs: 5, newestUs: 5 }, now).ok).toBe(false);
  });

  it('when only oldest is given and it lies after the default newest, then the error names oldest and the default', () => {
    const r = resolveWindow({ oldestUs: us('2030-01-01T00:00:00Z') }, now);
    expect(r).toMatchObject({ ok: false, field: 'oldest' });
    if (!r.ok) expect(r.message).toMatch(/next UTC midnight/);
  });
});

describe('planBuckets', () => {
  const day = { oldestUs: us('2024-01-01T00:00:00Z'), newestUs: us('2024-01-02T00:00:00Z') };

  it('when no interval is given, then one bucket spans the window', () => {
    expect(planBuckets(day)).toEqual({ ...day, widthUs: DAY_US, intervalS: 86_400, count: 1 });
  });

  it('when the window is not a whole number of seconds and no interval is given, then the width rounds up', () => {
    expect(planBuckets({ oldestUs: 0, newestUs: 1_500_000 })).toMatchObject({ intervalS: 2, count: 1 });
  });

  it('when the interval fits the cap, then it is used as given (seconds) and the last bucket may be partial', () => {
    expect(planBuckets(day, 3600)).toMatchObject({ intervalS: 3600, count: 24 });
    expect(planBuckets(day, 7 * 3600)).toMatchObject({ intervalS: 25_200, count: 4 });
    expect(planBuckets(day, 7 * 3600).requestedIntervalS).toBeUndefined();
  });

  it('when 24 h at 60 s would make 1440 buckets, then the width widens to 5 minutes and says so', () => {
    expect(planBuckets(day, 60)).toMatchObject({ intervalS: 300, widthUs: 300_000_000, count: 288, requestedIntervalS: 60 });
  });

  it('when exactly MAX_BUCKETS buckets result, then the interval is kept', () => {
    const w = { oldestUs: 0, newestUs: MAX_BUCKETS * 60_000_000 };
    expect(planBuckets(w, 60)).toMatchObject({ intervalS: 60, count: MAX_BUCKETS });
    expect(planBuckets({ oldestUs: 0, newestUs: w.newestUs + 1 }, 60)).toMatchObject({ intervalS: 300, count: 205 });
  });

  it('when 30 days at 1 s are asked, then the first ladder width that fits (1 h) is used', () => {
    expect(planBuckets({ oldestUs: 0, newestUs: 30 * DAY_US }, 1)).toMatchObject({ intervalS: 3600, count: 720 });
  });

  it('when even 30-day buckets are too many, then the width is the smallest whole number of seconds that fits', () => {
    const p = planBuckets({ oldestUs: us('1950-01-01T00:00:00Z'), newestUs: us('2250-01-01T00:00:00Z') }, 60);
    expect(p.intervalS).toBeGreaterThan(2_592_000);
    expect(p.count).toBeLessThanOrEqual(MAX_BUCKETS);
    expect(p.count).toBe(MAX_BUCKETS);
  });
});
