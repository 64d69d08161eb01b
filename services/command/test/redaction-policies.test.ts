import { describe, expect, it } from 'vitest';
import type { VersionedPolicy } from '@llm/redaction';
import { RedactionPolicies, type PolicyReader } from '../src/ingest/adapters/redaction-policies.ts';

const P = '0198c2a4-6b1f-7c3e-9d2a-5f8e7b6a4c31';
const v1: VersionedPolicy = { version: 1, policy: { detectors: ['email'] } };

/** A reader answering from `answers` in turn (an Error is a failed read), counting its calls. */
function reader(answers: Array<VersionedPolicy | null | Error>): PolicyReader & { calls: number } {
  const r = Object.assign(async () => {
    const a = answers[Math.min(r.calls++, answers.length - 1)]!;
    if (a instanceof Error) throw a;
    return a;
  }, { calls: 0 });
  return r;
}

describe('RedactionPolicies', () => {
  it('when a project is asked for again within the TTL, then the store is read once; after it, again', async () => {
    let now = 0;
    const read = reader([null, v1]);
    const policies = new RedactionPolicies(read, 1000, 10, () => now);
    expect(await policies.of(P)).toBeNull();
    expect(await policies.of(P.toUpperCase())).toBeNull();
    expect(read.calls).toBe(1);
    now = 1000;
    expect(await policies.of(P)).toEqual(v1);
    expect(read.calls).toBe(2);
  });

  it('when this process changes the policy, then invalidate makes the next request read it', async () => {
    const read = reader([null, v1]);
    const policies = new RedactionPolicies(read, 60_000);
    expect(await policies.of(P)).toBeNull();
    policies.invalidate(P);
    expect(await policies.of(P)).toEqual(v1);
  });

  it('when a read fails after a policy was known, then the last known policy is served', async () => {
    let now = 0;
    const read = reader([v1, new Error('postgres is down')]);
    const policies = new RedactionPolicies(read, 1000, 10, () => now);
    expect(await policies.of(P)).toEqual(v1);
    now = 5000;
    expect(await policies.of(P)).toEqual(v1);
    expect(read.calls).toBe(2);
  });

  it('when a read fails and nothing is known, then the request fails and the next one reads again', async () => {
    const read = reader([new Error('postgres is down'), v1]);
    const policies = new RedactionPolicies(read, 60_000);
    await expect(policies.of(P)).rejects.toThrow(/postgres is down/);
    expect(await policies.of(P)).toEqual(v1);
    expect(read.calls).toBe(2);
  });

  it('when more projects are cached than the bound, then the oldest is read again', async () => {
    const read = reader([null]);
    const policies = new RedactionPolicies(read, 60_000, 2);
    for (const p of ['a', 'b', 'c', 'a']) await policies.of(p);
    expect(read.calls).toBe(4);
  });
});
