// The OTLP decode step with a redaction policy, on the request thread and in a worker thread: the
// encoded records (what is appended to Kafka) hold placeholders, never the raw values.
import { afterAll, describe, expect, it } from 'vitest';
import { encodeExportTraceServiceRequest } from '@llm/otlp';
import type { VersionedPolicy } from '@llm/redaction';
import { prepareOtlp, type OtlpScopeMeta } from '../src/ingest/domain/prepare-otlp.ts';
import { OtlpWorkerPool } from '../src/ingest/adapters/otlp-worker-pool.ts';

const EMAIL = 'jane.doe@example.com';
const CARD = '4111 1111 1111 1111';
const EMPLOYEE = 'EMP-123456';
const body = (): Uint8Array => encodeExportTraceServiceRequest({ resourceSpans: [{ scopeSpans: [{ spans: [{
  traceId: Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex'), spanId: Buffer.from('b7ad6b7169203331', 'hex'), name: 'chat', kind: 3,
  startTimeUnixNano: 1_700_000_000_000_000_000n, endTimeUnixNano: 1_700_000_001_000_000_000n,
  attributes: { 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `mail ${EMAIL} card ${CARD}` }] }]), 'app.employee': EMPLOYEE },
}] }] }] });
const meta: OtlpScopeMeta = { projectId: '0198c2a4-6b1f-7c3e-9d2a-5f8e7b6a4c31', organizationId: '0198c2a4-6b1f-7c3e-9d2a-5f8e7b6a4c32', requestId: 'r', actorId: 'u' };
const policy: VersionedPolicy = { version: 4, policy: { custom: [{ name: 'employee_id', pattern: 'EMP-[0-9]{6}' }] } };

function recordText(r: ReturnType<typeof prepareOtlp>): string {
  if (!r.ok) throw new Error(r.reason);
  return Buffer.concat(r.records.map((x) => Buffer.from(x.value))).toString('utf8');
}

describe('prepareOtlp with a redaction policy', () => {
  const pool = new OtlpWorkerPool(1);
  afterAll(() => pool.close());

  it('when no policy is given, then the records hold the values as sent and no redaction record', () => {
    const text = recordText(prepareOtlp(body(), meta));
    expect([EMAIL, CARD, EMPLOYEE].every((s) => text.includes(s))).toBe(true);
    expect(text).not.toContain('policy_version');
  });

  it('when a policy is given, then the records hold placeholders, the counts and the version', () => {
    const text = recordText(prepareOtlp(body(), { ...meta, redaction: policy }));
    expect([EMAIL, CARD, EMPLOYEE].filter((s) => text.includes(s))).toEqual([]);
    expect(text).toContain('[EMPLOYEE_ID]');
    expect(text).toContain('"policy_version":4');
  });

  it('when the step runs in a worker thread, then the policy travels with the request and its custom pattern runs there', async () => {
    const text = recordText(await pool.run(body(), { ...meta, redaction: policy }));
    expect([EMAIL, CARD, EMPLOYEE].filter((s) => text.includes(s))).toEqual([]);
    expect(text).toContain('[EMPLOYEE_ID]');
    expect(recordText(await pool.run(body(), meta))).toContain(EMPLOYEE);
  });
});
