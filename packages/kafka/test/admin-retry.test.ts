import { describe, expect, it } from 'vitest';
import { isTransientKafkaError, retryTransient, waitForLeaders, type LeaderProbe, type PartitionState } from '../src/admin-retry.ts';

// Errors shaped like kafkajs's: protocol errors carry `type`, its retrier wraps what it gave up on.
const protocol = (type: string): Error => Object.assign(new Error(type.toLowerCase()), { name: 'KafkaJSProtocolError', type });
const gaveUp = (cause: Error): Error => Object.assign(new Error(cause.message), { name: 'KafkaJSNonRetriableError', cause });

/** A clock that only moves when the code under test sleeps. */
function fakeTime(): { now: () => number; sleep: (ms: number) => Promise<void>; slept: number[] } {
  let t = 0;
  const slept: number[] = [];
  return { now: () => t, sleep: async (ms) => { slept.push(ms); t += ms; }, slept };
}

describe('isTransientKafkaError', () => {
  it('when the broker has no leader, is not the leader, timed out, has no controller or coordinator, then transient', () => {
    for (const t of ['NOT_LEADER_FOR_PARTITION', 'LEADER_NOT_AVAILABLE', 'REQUEST_TIMED_OUT', 'NOT_CONTROLLER', 'GROUP_COORDINATOR_NOT_AVAILABLE', 'GROUP_LOAD_IN_PROGRESS', 'NOT_COORDINATOR_FOR_GROUP']) {
      expect(isTransientKafkaError(protocol(t)), t).toBe(true);
    }
  });

  it('when the connection is refused or closed, directly or wrapped by the client retrier, then transient', () => {
    expect(isTransientKafkaError(Object.assign(new Error('refused'), { name: 'KafkaJSConnectionError' }))).toBe(true);
    expect(isTransientKafkaError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isTransientKafkaError(Object.assign(new Error('gave up'), { name: 'KafkaJSNumberOfRetriesExceeded', cause: Object.assign(new Error('closed'), { name: 'KafkaJSConnectionClosedError' }) }))).toBe(true);
    expect(isTransientKafkaError(gaveUp(protocol('NOT_LEADER_FOR_PARTITION')))).toBe(true);
  });

  it('when the topic is unknown, then transient only right after a create', () => {
    expect(isTransientKafkaError(protocol('UNKNOWN_TOPIC_OR_PARTITION'))).toBe(false);
    expect(isTransientKafkaError(protocol('UNKNOWN_TOPIC_OR_PARTITION'), { unknownTopic: true })).toBe(true);
  });

  it('when a create meets a cluster whose broker is not registered yet, then transient only in that context', () => {
    expect(isTransientKafkaError(protocol('INVALID_REPLICATION_FACTOR'))).toBe(false);
    expect(isTransientKafkaError(protocol('INVALID_REPLICATION_FACTOR'), { brokersRegistering: true })).toBe(true);
  });

  it('when a create answers per topic, then transient if every part is transient or already done', () => {
    const ctx = { alreadyDone: new Set(['TOPIC_ALREADY_EXISTS']) };
    const agg = (...errors: Error[]): Error => Object.assign(new Error('agg'), { name: 'KafkaJSAggregateError', errors });
    expect(isTransientKafkaError(agg(protocol('TOPIC_ALREADY_EXISTS'), protocol('NOT_CONTROLLER')), ctx)).toBe(true);
    expect(isTransientKafkaError(agg(protocol('TOPIC_AUTHORIZATION_FAILED'), protocol('NOT_CONTROLLER')), ctx)).toBe(false);
  });

  it('when the error is deterministic or not an error, then not transient', () => {
    expect(isTransientKafkaError(protocol('TOPIC_AUTHORIZATION_FAILED'))).toBe(false);
    expect(isTransientKafkaError(new TypeError('bug'))).toBe(false);
    expect(isTransientKafkaError(undefined)).toBe(false);
    expect(isTransientKafkaError('NOT_LEADER_FOR_PARTITION')).toBe(false);
  });
});

describe('retryTransient', () => {
  it('when the first attempts meet transient errors, then it waits with capped backoff and returns the answer', async () => {
    const time = fakeTime();
    let calls = 0;
    const r = await retryTransient(async () => {
      if (++calls < 4) throw protocol('NOT_LEADER_FOR_PARTITION');
      return 'offsets';
    }, { attempts: 10, deadlineMs: 60_000, baseMs: 100, capMs: 300, ...time });
    expect(r).toBe('offsets');
    expect(calls).toBe(4);
    expect(time.slept).toHaveLength(3);
    for (const ms of time.slept) expect(ms).toBeLessThanOrEqual(300);
  });

  it('when the error is not transient, then it fails at once', async () => {
    const time = fakeTime();
    let calls = 0;
    await expect(retryTransient(async () => { calls++; throw protocol('TOPIC_AUTHORIZATION_FAILED'); }, { attempts: 10, deadlineMs: 60_000, ...time }))
      .rejects.toThrow('topic_authorization_failed');
    expect(calls).toBe(1);
  });

  it('when the errors persist, then it gives up after the attempts or the deadline, with the last error', async () => {
    const time = fakeTime();
    let calls = 0;
    await expect(retryTransient(async () => { calls++; throw protocol('LEADER_NOT_AVAILABLE'); }, { attempts: 3, deadlineMs: 60_000, ...time }))
      .rejects.toThrow('leader_not_available');
    expect(calls).toBe(3);

    const t2 = fakeTime();
    calls = 0;
    await expect(retryTransient(async () => { calls++; throw protocol('LEADER_NOT_AVAILABLE'); }, { attempts: Number.POSITIVE_INFINITY, deadlineMs: 5_000, baseMs: 100, capMs: 1_000, ...t2 }))
      .rejects.toThrow('leader_not_available');
    expect(t2.now()).toBeLessThanOrEqual(5_000);
    expect(calls).toBeGreaterThan(3);
  });
});

describe('waitForLeaders', () => {
  /** A cluster that settles step by step, as a fresh KRaft broker does after a create. */
  function settlingCluster(): LeaderProbe & { listed: string[] } {
    const steps: Array<() => Array<{ topic: string; partitions: PartitionState[] }>> = [
      () => { throw protocol('UNKNOWN_TOPIC_OR_PARTITION'); },
      () => { throw protocol('LEADER_NOT_AVAILABLE'); },
      () => [{ topic: 'a', partitions: [{ partition: 0, leader: 1, errorCode: 0 }, { partition: 1, leader: -1, errorCode: 0 }] }, { topic: 'b', partitions: [] }],
    ];
    let describes = 0;
    let notLeaderOnce = true;
    const listed: string[] = [];
    return {
      listed,
      async describe(topics) {
        const step = steps[describes++];
        if (step) return step();
        return topics.map((topic) => ({ topic, partitions: [0, 1].map((partition) => ({ partition, leader: 1, errorCode: 0 })) }));
      },
      // Metadata names a leader before the broker serves the partition: the original crash.
      async listOffsets(topic) {
        if (notLeaderOnce) { notLeaderOnce = false; throw protocol('NOT_LEADER_FOR_PARTITION'); }
        listed.push(topic);
      },
    };
  }

  it('when partitions get their leaders over time, then it resolves only once every leader answers ListOffsets', async () => {
    const time = fakeTime();
    const cluster = settlingCluster();
    await waitForLeaders(['a', 'b'], cluster, { deadlineMs: 60_000, ...time });
    expect(cluster.listed).toEqual(['a', 'b']);
    expect(time.slept.length).toBeGreaterThanOrEqual(4);
  });

  it('when a partition never gets a leader, then at the deadline the error names it', async () => {
    const time = fakeTime();
    const stuck: LeaderProbe = {
      describe: async () => [{ topic: 'a', partitions: [{ partition: 0, leader: 1, errorCode: 0 }, { partition: 3, leader: -1, errorCode: 5 }] }],
      listOffsets: async () => undefined,
    };
    await expect(waitForLeaders(['a'], stuck, { deadlineMs: 10_000, ...time })).rejects.toThrow(/not ready after \d+ s: partitions without a leader: a\[3\]$/);
    expect(time.now()).toBeLessThanOrEqual(10_000);
  });

  it('when the broker refuses for a reason that will not clear, then it fails at once', async () => {
    const time = fakeTime();
    const denied: LeaderProbe = { describe: async () => { throw protocol('TOPIC_AUTHORIZATION_FAILED'); }, listOffsets: async () => undefined };
    await expect(waitForLeaders(['a'], denied, { deadlineMs: 10_000, ...time })).rejects.toThrow('topic_authorization_failed');
    expect(time.slept).toHaveLength(0);
  });
});
