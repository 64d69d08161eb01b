// Which of a run's scenarios a queue shows, and to whom (reference evaluations §3.5). Pure.
// The run's scenarios in order, restricted to the queue's `scenario_ids`; for a user, per repeat lane
// (`user_ids[r]`) that names them: a modulus M (120, or for sequential queues
// min(#scenarios, batch_size or 120)) split into consecutive blocks, one per user of the lane
// (q, r = divmod(M, n): the first r users get q + 1 slots, the others q); scenario i goes to the user
// whose block holds (batch_offset + i) mod M (sequential) or the scenario id as a 128-bit integer
// mod M (random). A user's answer is the union over their lanes, in scenario order.

export const QUEUE_MODULUS = 120;

export interface QueueAssignment {
  is_sequential?: boolean | undefined;
  user_ids?: string[][] | null | undefined;
  scenario_ids?: string[] | null | undefined;
  batch_size?: number | null | undefined;
  batch_offset?: number | null | undefined;
}

/** The uuid as an unsigned 128-bit integer. */
const uuidInt = (id: string): bigint => BigInt(`0x${id.replaceAll('-', '')}`);

/** The user holding slot `slot` of a lane of `n` users over modulus `m`. */
export function slotOwner(slot: number, m: number, n: number): number {
  const q = Math.floor(m / n);
  const r = m % n;
  // The first r users hold q + 1 slots each, the others q.
  const wide = r * (q + 1);
  if (slot < wide) return Math.floor(slot / (q + 1));
  return q === 0 ? n - 1 : r + Math.floor((slot - wide) / q);
}

/** The scenario ids (in the run's order) the queue shows, to one user when `userId` is given. */
export function queueScenarioIds(scenarioIds: readonly string[], a: QueueAssignment, userId?: string | undefined): string[] {
  const only = a.scenario_ids ? new Set(a.scenario_ids.map((s) => s.toLowerCase())) : undefined;
  const scenarios = only ? scenarioIds.filter((s) => only.has(s.toLowerCase())) : [...scenarioIds];
  const lanes = (a.user_ids ?? []).filter((l) => Array.isArray(l) && l.length > 0);
  if (!userId || lanes.length === 0) return scenarios;
  const m = a.is_sequential ? Math.max(1, Math.min(scenarios.length, a.batch_size ?? QUEUE_MODULUS)) : QUEUE_MODULUS;
  const offset = a.batch_offset ?? 0;
  const mine = new Set<string>();
  for (const lane of lanes) {
    const me = lane.indexOf(userId);
    if (me < 0) continue;
    scenarios.forEach((id, i) => {
      const slot = a.is_sequential ? (offset + i) % m : Number(uuidInt(id) % BigInt(m));
      if (slotOwner(slot, m, lane.length) === me) mine.add(id);
    });
  }
  return scenarios.filter((s) => mine.has(s));
}
