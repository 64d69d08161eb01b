// Quota periods: days, years, and months that start on the billing anchor day, clamped to short
// months (reference accounts §2.3).
import { describe, expect, it } from 'vitest';
import { periodRange } from '../src/index.ts';

const at = (s: string) => new Date(`${s}T12:00:00Z`);

describe('quota periods', () => {
  it('daily and yearly periods are the UTC day and year', () => {
    expect(periodRange(at('2026-02-28'), 'daily')).toEqual({ from: '2026-02-28', to: '2026-03-01' });
    expect(periodRange(at('2026-12-31'), 'daily')).toEqual({ from: '2026-12-31', to: '2027-01-01' });
    expect(periodRange(at('2026-07-04'), 'yearly')).toEqual({ from: '2026-01-01', to: '2027-01-01' });
  });

  it('a gauge (no period) has no range', () => {
    expect(periodRange(at('2026-07-04'), undefined)).toBeUndefined();
    expect(periodRange(at('2026-07-04'), null)).toBeUndefined();
  });

  it('given anchor 1, the month is the calendar month', () => {
    expect(periodRange(at('2026-03-01'), 'monthly', 1)).toEqual({ from: '2026-03-01', to: '2026-04-01' });
    expect(periodRange(at('2026-03-31'), 'monthly', 1)).toEqual({ from: '2026-03-01', to: '2026-04-01' });
  });

  it('given anchor 15, the period starts on the 15th: on the anchor day a new period begins, the day before is the old one', () => {
    expect(periodRange(at('2026-05-15'), 'monthly', 15)).toEqual({ from: '2026-05-15', to: '2026-06-15' });
    expect(periodRange(at('2026-05-14'), 'monthly', 15)).toEqual({ from: '2026-04-15', to: '2026-05-15' });
    expect(periodRange(at('2026-01-10'), 'monthly', 15)).toEqual({ from: '2025-12-15', to: '2026-01-15' });
    expect(periodRange(at('2026-12-20'), 'monthly', 15)).toEqual({ from: '2026-12-15', to: '2027-01-15' });
  });

  it('given anchor 31, short months clamp it to their last day and periods stay contiguous', () => {
    expect(periodRange(at('2026-01-31'), 'monthly', 31)).toEqual({ from: '2026-01-31', to: '2026-02-28' });
    expect(periodRange(at('2026-02-27'), 'monthly', 31)).toEqual({ from: '2026-01-31', to: '2026-02-28' });
    expect(periodRange(at('2026-02-28'), 'monthly', 31)).toEqual({ from: '2026-02-28', to: '2026-03-31' });
    expect(periodRange(at('2026-03-30'), 'monthly', 31)).toEqual({ from: '2026-02-28', to: '2026-03-31' });
    expect(periodRange(at('2026-04-30'), 'monthly', 31)).toEqual({ from: '2026-04-30', to: '2026-05-31' });
  });

  it('given anchor 30 in a leap year, February ends its period on the 29th', () => {
    expect(periodRange(at('2028-02-29'), 'monthly', 30)).toEqual({ from: '2028-02-29', to: '2028-03-30' });
    expect(periodRange(at('2028-02-28'), 'monthly', 30)).toEqual({ from: '2028-01-30', to: '2028-02-29' });
  });

  it('every day of four years falls in exactly one monthly period, for every anchor', () => {
    for (let anchor = 1; anchor <= 31; anchor++) {
      let prev: { from: string; to: string } | undefined;
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2030, 0, 1); t += 86_400_000) {
        const day = new Date(t).toISOString().slice(0, 10);
        const r = periodRange(new Date(t), 'monthly', anchor)!;
        expect(r.from <= day && day < r.to).toBe(true);
        if (prev && prev.from !== r.from) expect(r.from).toBe(prev.to);
        prev = r;
      }
    }
  });
});
