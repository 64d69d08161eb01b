// Quota periods (reference accounts §2.3): a day, a year, or a month that starts on the
// organization's billing anchor day (clamped to the month's length: anchor 31 starts February's
// period on the 28th/29th). Meters are kept per UTC day, so any period is a range of days and a
// change of anchor needs no re-metering.

export type Period = 'daily' | 'monthly' | 'yearly';

/** Days [from, to) as YYYY-MM-DD (UTC). */
export interface DayRange { from: string; to: string }

const iso = (y: number, m: number, d: number): string => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
const daysIn = (y: number, m: number): number => new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
/** The anchor day within month m of year y (Date.UTC normalises m outside 0–11). */
function anchorIn(y: number, m: number, anchor: number): [number, number, number] {
  const d = new Date(Date.UTC(y, m, 1));
  return [d.getUTCFullYear(), d.getUTCMonth(), Math.min(anchor, daysIn(d.getUTCFullYear(), d.getUTCMonth()))];
}

export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The period `at` falls in; undefined for a gauge (no period: the value is current, not summed). */
export function periodRange(at: Date, period: Period | null | undefined, anchor = 1): DayRange | undefined {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const d = at.getUTCDate();
  switch (period) {
    case 'daily': return { from: iso(y, m, d), to: iso(y, m, d + 1) };
    case 'yearly': return { from: iso(y, 0, 1), to: iso(y + 1, 0, 1) };
    case 'monthly': {
      const a = Math.min(Math.max(Math.trunc(anchor) || 1, 1), 31);
      const startMonth = d >= anchorIn(y, m, a)[2] ? m : m - 1;
      const [sy, sm, sd] = anchorIn(y, startMonth, a);
      const [ey, em, ed] = anchorIn(y, startMonth + 1, a);
      return { from: iso(sy, sm, sd), to: iso(ey, em, ed) };
    }
    default: return undefined;
  }
}
