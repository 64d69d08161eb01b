// Refused requests (401, 403, 429, 503) under attack or overload: each is counted, and at most a
// few per window are logged, at info. A refusal is the system working as designed — an overload
// of 9,000 refusals a minute once wrote 9,000 error lines (issue 24), burying the lines that
// matter. The first `perWindow` refusals of each window are logged as they come; the rest are only
// counted, and the next window's first refusal line says how many of each status were left out.
// No timer: the summary is written lazily, so an idle process holds no handle.
import { labelledCounter } from '@llm/metrics';

export const REFUSAL_STATUSES: ReadonlySet<number> = new Set([401, 403, 429, 503]);

const refused = labelledCounter('http_requests_refused_total', 'Requests refused with 401, 403, 429 or 503 (credentials, permissions, throttles and quotas, overload and unavailable dependencies), per route of the route table and status.', ['route', 'status']);

export interface RefusalLogOptions {
  /** Refusal lines written per window at most (default 10). */
  perWindow?: number | undefined;
  /** Window length, ms (default 10,000). */
  windowMs?: number | undefined;
  /** Clock, epoch ms (default Date.now). */
  now?: (() => number) | undefined;
}

export interface RefusalSampler {
  /**
   * Counts one refusal; returns whether its line is to be written, and the numbers left out in the
   * window before when this is the first line since (to be logged with it).
   */
  admit(route: string, status: number): { log: boolean; suppressed?: Record<string, number> };
}

export function refusalSampler(opts: RefusalLogOptions = {}): RefusalSampler {
  const perWindow = opts.perWindow ?? 10;
  const windowMs = opts.windowMs ?? 10_000;
  const now = opts.now ?? Date.now;
  let windowStart = -Infinity;
  let logged = 0;
  let suppressed: Record<string, number> = {};
  let carried: Record<string, number> | undefined;
  return {
    admit(route, status) {
      refused.inc({ route, status });
      const t = now();
      if (t - windowStart >= windowMs) {
        windowStart = t;
        logged = 0;
        if (Object.keys(suppressed).length > 0) carried = { ...carried, ...suppressed };
        suppressed = {};
      }
      if (logged >= perWindow) {
        suppressed[status] = (suppressed[status] ?? 0) + 1;
        return { log: false };
      }
      logged++;
      const out = carried;
      carried = undefined;
      return out ? { log: true, suppressed: out } : { log: true };
    },
  };
}
