// How long a project's data is kept (issue 30): its plan's retention per kind of data — spans (with
// their trace index and annotations) by `traces_ingested.retention`, the events log and webhook
// deliveries by `events_ingested.retention`, both in minutes — or the project's own shorter one.
// Pure: the readers and the purge workers compute the same horizon from the same inputs.
import type { PlanCatalog } from './plan-schema.ts';

export type RetainedData = 'spans' | 'events';

const COUNTER_OF: Record<RetainedData, 'traces_ingested' | 'events_ingested'> = { spans: 'traces_ingested', events: 'events_ingested' };

/** The plan's retention of this data in minutes; undefined = kept for ever (no retention set, or a plan not in the catalog). */
export function planRetentionMinutes(plans: PlanCatalog, plan: string, data: RetainedData): number | undefined {
  const r = Object.hasOwn(plans, plan) ? plans[plan]?.counters?.[COUNTER_OF[data]]?.retention : undefined;
  return r ?? undefined;
}

/**
 * The retention that applies: the shorter of the plan's and the project's own (`projectMinutes`,
 * 0 = none of its own). Never longer than the plan's, even when the plan was downgraded after the
 * project chose: the rule is applied where it is read, not only where it was written.
 */
export function effectiveRetentionMinutes(planMinutes: number | undefined, projectMinutes: number): number | undefined {
  if (projectMinutes <= 0) return planMinutes;
  return planMinutes === undefined ? projectMinutes : Math.min(planMinutes, projectMinutes);
}

/** The longest finite retention of any plan and data (the Kafka topics must keep at least this); undefined when no plan sets one. */
export function longestPlanRetentionMinutes(plans: PlanCatalog): number | undefined {
  let longest: number | undefined;
  for (const plan of Object.keys(plans)) {
    for (const data of ['spans', 'events'] as const) {
      const m = planRetentionMinutes(plans, plan, data);
      if (m !== undefined && (longest === undefined || m > longest)) longest = m;
    }
  }
  return longest;
}

/** Per kind of data, the oldest instant still readable (Unix µs); undefined = everything is. */
export interface RetentionHorizon { spansFromUs?: number; eventsFromUs?: number }

/** The horizon of a project at `nowMs`. */
export function retentionHorizon(plans: PlanCatalog, plan: string, projectMinutes: number, nowMs: number): RetentionHorizon {
  const from = (data: RetainedData): number | undefined => {
    const m = effectiveRetentionMinutes(planRetentionMinutes(plans, plan, data), projectMinutes);
    return m === undefined ? undefined : (nowMs - m * 60_000) * 1000;
  };
  const spans = from('spans');
  const events = from('events');
  return { ...(spans !== undefined && { spansFromUs: spans }), ...(events !== undefined && { eventsFromUs: events }) };
}
