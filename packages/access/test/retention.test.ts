// Retention (issue 30): the plan's per kind of data, a project's own only ever shorter, and the
// horizon readers and purge workers share.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS, effectiveRetentionMinutes, longestPlanRetentionMinutes, planRetentionMinutes, retentionHorizon } from '../src/index.ts';

const DAY = 1440;

describe('retention', () => {
  it('when a default plan is read, then spans follow traces_ingested and events follow events_ingested (hobby 7 days, business 92, self-hosted none)', () => {
    expect(planRetentionMinutes(DEFAULT_PLANS, 'cloud_v0_hobby', 'spans')).toBe(7 * DAY);
    expect(planRetentionMinutes(DEFAULT_PLANS, 'cloud_v0_pro', 'events')).toBe(31 * DAY);
    expect(planRetentionMinutes(DEFAULT_PLANS, 'cloud_v0_business', 'spans')).toBe(92 * DAY);
    expect(planRetentionMinutes(DEFAULT_PLANS, 'self_hosted_enterprise', 'spans')).toBeUndefined();
  });

  it('when the plan is not in the catalog, then nothing expires (no data is lost to a configuration mistake)', () => {
    expect(planRetentionMinutes(DEFAULT_PLANS, 'no_such_plan', 'spans')).toBeUndefined();
    expect(planRetentionMinutes(DEFAULT_PLANS, 'toString', 'spans')).toBeUndefined();
  });

  it('when a project sets its own retention, then the shorter of the two applies, and 0 means the plan\'s', () => {
    expect(effectiveRetentionMinutes(7 * DAY, 60)).toBe(60);
    expect(effectiveRetentionMinutes(7 * DAY, 30 * DAY)).toBe(7 * DAY);
    expect(effectiveRetentionMinutes(7 * DAY, 0)).toBe(7 * DAY);
    expect(effectiveRetentionMinutes(undefined, 60)).toBe(60);
    expect(effectiveRetentionMinutes(undefined, 0)).toBeUndefined();
  });

  it('when the longest retention of the default plans is asked, then it is business\'s 92 days; none when no plan sets one', () => {
    expect(longestPlanRetentionMinutes(DEFAULT_PLANS)).toBe(132_480);
    expect(longestPlanRetentionMinutes({ self_hosted_enterprise: DEFAULT_PLANS.self_hosted_enterprise! })).toBeUndefined();
  });

  it('when the horizon is computed, then it is now minus the effective retention, in microseconds, per kind of data', () => {
    const now = Date.UTC(2026, 0, 10);
    expect(retentionHorizon(DEFAULT_PLANS, 'cloud_v0_hobby', 0, now)).toEqual({ spansFromUs: (now - 7 * DAY * 60_000) * 1000, eventsFromUs: (now - 7 * DAY * 60_000) * 1000 });
    expect(retentionHorizon(DEFAULT_PLANS, 'cloud_v0_hobby', 1, now)).toEqual({ spansFromUs: (now - 60_000) * 1000, eventsFromUs: (now - 60_000) * 1000 });
    expect(retentionHorizon(DEFAULT_PLANS, 'self_hosted_enterprise', 0, now)).toEqual({});
  });
});
