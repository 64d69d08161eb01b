// Queue rules (queue/rules.ts) and the scenario assignment (queue/assignment.ts) of reference
// evaluations §2.8 and §3.5.
import { describe, expect, it } from 'vitest';
import type { EvaluationEvent } from '../src/evaluation-event.ts';
import { decideQueue, QUEUE_MESSAGES, type QueueState } from '../src/queue/rules.ts';
import { QUEUE_MODULUS, queueScenarioIds, slotOwner } from '../src/queue/assignment.ts';

const RUN = '0190b6a0-0000-7000-8000-000000000001';
const OTHER_RUN = '0190b6a0-0000-7000-8000-000000000002';
const Q1 = '0190b6a0-0000-7000-8000-0000000000a1';
const Q2 = '0190b6a0-0000-7000-8000-0000000000a2';
const info = (id: string, flags: Record<string, boolean>, data: Record<string, unknown> | '' = '') => ({
  queue_id: id, name: '', description: '', status: 'running', flags_json: JSON.stringify(flags), tags_json: '', meta_json: '', data_json: data === '' ? '' : JSON.stringify(data),
});
const ev = (type: string, payload: unknown): EvaluationEvent => ({ type, payload, projectId: RUN, actorId: '', timeUs: 0 }) as unknown as EvaluationEvent;
const stored = (id: string, isDefault: boolean, archived = false, runId = RUN): QueueState => ({ id, runId, isDefault, archived });

describe('queue rules', () => {
  it('allows one default queue per run, archived ones included, and no filters on it', () => {
    expect(decideQueue(ev('evaluations.queues.created', { run_id: RUN, queues: [info(Q1, { is_default: true })] }), RUN, [])).toEqual({ status: 'accepted' });
    expect(decideQueue(ev('evaluations.queues.created', { run_id: RUN, queues: [info(Q2, { is_default: true })] }), RUN, [stored(Q1, true, true)]))
      .toMatchObject({ status: 'rejected', code: 'evaluation_queue_default_exists' });
    expect(decideQueue(ev('evaluations.queues.created', { run_id: RUN, queues: [info(Q1, { is_default: true }), info(Q2, { is_default: true })] }), RUN, []))
      .toMatchObject({ code: 'evaluation_queue_default_exists' });
    expect(decideQueue(ev('evaluations.queues.created', { run_id: RUN, queues: [info(Q1, { is_default: true }, { user_ids: [['u']] })] }), RUN, []))
      .toMatchObject({ code: 'evaluation_queue_default_filtered', message: QUEUE_MESSAGES.filtered });
    // Another run's default does not count; a non-default queue beside a default is fine.
    expect(decideQueue(ev('evaluations.queues.created', { run_id: RUN, queues: [info(Q2, { is_default: true })] }), RUN, [stored(Q1, true, false, OTHER_RUN)])).toEqual({ status: 'accepted' });
    expect(decideQueue(ev('evaluations.queues.created', { run_id: RUN, queues: [info(Q2, {}, { batch_size: 3 })] }), RUN, [stored(Q1, true)])).toEqual({ status: 'accepted' });
    expect(decideQueue(ev('evaluations.queues.created', { run_id: RUN, queues: [info(Q1, {})] }), RUN, [stored(Q1, false)])).toMatchObject({ code: 'evaluation_queue_exists' });
  });

  it('never demotes or hard-deletes a default queue; edits name queues of the run', () => {
    expect(decideQueue(ev('evaluations.queues.edited', { run_id: RUN, queues: [info(Q1, { is_default: false })] }), RUN, [stored(Q1, true)]))
      .toMatchObject({ code: 'evaluation_queue_default_fixed', message: QUEUE_MESSAGES.demoted });
    expect(decideQueue(ev('evaluations.queues.edited', { run_id: RUN, queues: [info(Q1, { is_default: true }, { step_keys: ['k'] })] }), RUN, [stored(Q1, true)]))
      .toMatchObject({ code: 'evaluation_queue_default_filtered' });
    expect(decideQueue(ev('evaluations.queues.edited', { run_id: RUN, queues: [info(Q2, { is_default: true })] }), RUN, [stored(Q1, true), stored(Q2, false)]))
      .toMatchObject({ code: 'evaluation_queue_default_exists' });
    expect(decideQueue(ev('evaluations.queues.edited', { run_id: RUN, queues: [info(Q2, {})] }), RUN, [stored(Q2, false, false, OTHER_RUN)]))
      .toMatchObject({ code: 'evaluation_queue_not_found' });
    expect(decideQueue(ev('evaluations.queues.deleted', { run_id: RUN, queue_ids: [Q2, Q1] }), RUN, [stored(Q1, true), stored(Q2, false)]))
      .toMatchObject({ code: 'evaluation_queue_default_fixed', message: QUEUE_MESSAGES.deleted });
    expect(decideQueue(ev('evaluations.queues.deleted', { run_id: RUN, queue_ids: [Q2] }), RUN, [stored(Q1, true), stored(Q2, false)])).toEqual({ status: 'accepted' });
    expect(decideQueue(ev('evaluations.queue.archive_set', { run_id: RUN, queue_id: Q1, archived: true }), RUN, [stored(Q1, true)])).toEqual({ status: 'accepted' });
  });
});

describe('queue assignment', () => {
  it('splits a modulus into consecutive blocks, the first remainder users one slot wider', () => {
    expect([0, 39, 40, 79, 80, 119].map((s) => slotOwner(s, 120, 3))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(Array.from({ length: 10 }, (_, s) => slotOwner(s, 10, 3))).toEqual([0, 0, 0, 0, 1, 1, 1, 2, 2, 2]);
    expect([0, 1].map((s) => slotOwner(s, 2, 3))).toEqual([0, 1]);
    expect(Array.from({ length: 7 }, (_, s) => slotOwner(s, 7, 2))).toEqual([0, 0, 0, 0, 1, 1, 1]);
  });

  const ids = ['00000000-0000-0000-0000-000000000000', '00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000050', '00000000-0000-0000-0000-000000000077'];
  it('gives sequential queues batches in order, from the offset', () => {
    const a = { is_sequential: true, user_ids: [['u1', 'u2']], batch_size: 2 };
    expect(queueScenarioIds(ids, a, 'u1')).toEqual([ids[0], ids[2]]);
    expect(queueScenarioIds(ids, a, 'u2')).toEqual([ids[1], ids[3]]);
    expect(queueScenarioIds(ids, { ...a, batch_offset: 1 }, 'u1')).toEqual([ids[1], ids[3]]);
  });

  it('gives random queues the slot of the scenario id as an integer, and unions a user\'s lanes', () => {
    // 0x50 = 80 and 0x77 = 119: the third user's block of 120 / 3; 0 and 1 the first user's.
    const a = { user_ids: [['u1', 'u2', 'u3']] };
    expect(queueScenarioIds(ids, a, 'u1')).toEqual([ids[0], ids[1]]);
    expect(queueScenarioIds(ids, a, 'u2')).toEqual([]);
    expect(queueScenarioIds(ids, a, 'u3')).toEqual([ids[2], ids[3]]);
    expect(queueScenarioIds(ids, { user_ids: [['u1', 'u2', 'u3'], ['u3']] }, 'u3')).toEqual(ids);
    expect(QUEUE_MODULUS).toBe(120);
  });

  it('restricts to the queue\'s scenarios; without a user (or lanes) shows them all; an unassigned user sees none', () => {
    expect(queueScenarioIds(ids, { scenario_ids: [ids[3]!, ids[1]!] })).toEqual([ids[1], ids[3]]);
    expect(queueScenarioIds(ids, {}, 'u9')).toEqual(ids);
    expect(queueScenarioIds(ids, { user_ids: [['u1']] }, 'u9')).toEqual([]);
  });
});
