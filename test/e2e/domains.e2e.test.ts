// Organization domains end to end: the lifecycle against a real DNS server on loopback that the
// tests publish TXT records on, read-your-writes, the cross-organization rule (also under a real
// race), tenancy, entitlement and bad input.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeEvent, topicsFor } from '@llm/events';
import { createKafkaClient } from '@llm/kafka';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { startTxtDnsServer, type TxtDnsServer } from '@llm/testing/dns-server';

const hex = (n: number): string => randomBytes(n).toString('hex');
let dns: TxtDnsServer;
let t: TestApp;
let a: TestAccount;
let b: TestAccount;

beforeAll(async () => {
  dns = await startTxtDnsServer();
  t = await startTestApp({ DNS_SERVERS: `127.0.0.1:${dns.port}` });
  [a, b] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
});
afterAll(async () => { await t?.stop(); await dns?.close().catch(() => undefined); });

async function call(method: string, path: string, acc: TestAccount, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const publish = (d: { dns: { name: string; value: string } }): void => dns.publish(d.dns.name, [d.dns.value]);
const newDomain = (): string => `${hex(4)}.example.org`;

describe('organization domains', () => {
  it('when a domain is created, published and verified, then each step is visible at once', async () => {
    const domain = newDomain();
    const created = await call('POST', '/organizations/domains/', a, { domain: domain.toUpperCase(), name: 'Main' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ slug: domain, name: 'Main', flags: { is_verified: false }, organization_id: a.organizationId });
    expect(created.body.token).toMatch(/^[0-9a-f]{32}$/);
    expect(created.body.dns).toEqual({ type: 'TXT', name: `_agenta-verification.${domain}`, value: `_agenta-verification=${created.body.token}`, expires_at: expect.any(String) });
    const listed = await call('GET', '/organizations/domains/', a);
    expect(listed.body.map((d: { id: string }) => d.id)).toContain(created.body.id);

    const absent = await call('POST', '/organizations/domains/verify', a, { domain_id: created.body.id });
    expect(absent.status).toBe(400);
    expect(absent.body.detail).toMatch(/Domain verification failed/);
    dns.publish(created.body.dns.name, [`_agenta-verification=${hex(16)}`]);
    expect((await call('POST', '/organizations/domains/verify', a, { domain_id: created.body.id })).status).toBe(400);
    publish(created.body);
    const verified = await call('POST', '/organizations/domains/verify', a, { domain_id: created.body.id });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ id: created.body.id, flags: { is_verified: true }, token: null });
    expect(verified.body.dns).toBeUndefined();
    expect((await call('POST', '/organizations/domains/verify', a, { domain_id: created.body.id })).body.detail).toBe('Domain already verified');

    // State table: refresh is for unverified domains, reset for verified ones.
    expect((await call('POST', `/organizations/domains/${created.body.id}/refresh`, a)).status).toBe(409);
    const reset = await call('POST', `/organizations/domains/${created.body.id}/reset`, a);
    expect(reset.status).toBe(200);
    expect(reset.body.flags.is_verified).toBe(false);
    expect(reset.body.token).not.toBe(created.body.token);
    expect((await call('POST', `/organizations/domains/${created.body.id}/reset`, a)).status).toBe(409);
    const refreshed = await call('POST', `/organizations/domains/${created.body.id}/refresh`, a);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.token).not.toBe(reset.body.token);
    // The old record no longer proves anything.
    expect((await call('POST', '/organizations/domains/verify', a, { domain_id: created.body.id })).status).toBe(400);
    dns.withdraw(created.body.dns.name);

    const del = await call('DELETE', `/organizations/domains/${created.body.id}`, a);
    expect(del.status).toBe(204);
    expect((await call('GET', '/organizations/domains/', a)).body.map((d: { id: string }) => d.id)).not.toContain(created.body.id);
    expect((await call('POST', '/organizations/domains/verify', a, { domain_id: created.body.id })).status).toBe(404);
  });

  it('when one organization has verified a domain, then another can neither claim nor verify it, and cannot see it', async () => {
    const domain = newDomain();
    const mineB = await call('POST', '/organizations/domains/', b, { domain });
    const mineA = await call('POST', '/organizations/domains/', a, { domain });
    expect(mineA.status).toBe(200);
    publish(mineA.body);
    expect((await call('POST', '/organizations/domains/verify', a, { domain_id: mineA.body.id })).status).toBe(200);
    expect((await call('POST', '/organizations/domains/', b, { domain })).status).toBe(409);
    dns.publish(mineB.body.dns.name, [mineA.body.dns.value, mineB.body.dns.value]);
    const late = await call('POST', '/organizations/domains/verify', b, { domain_id: mineB.body.id });
    expect(late.status).toBe(409);
    expect(late.body.detail).toMatch(/already verified by another organization/);
    // Tenancy: B does not see A's domain and cannot act on it.
    expect((await call('GET', '/organizations/domains/', b)).body.map((d: { id: string }) => d.id)).not.toContain(mineA.body.id);
    expect((await call('POST', `/organizations/domains/${mineA.body.id}/reset`, b)).status).toBe(404);
    expect((await call('DELETE', `/organizations/domains/${mineA.body.id}`, b)).status).toBe(404);
  });

  it('when two organizations verify the same domain at the same moment, then exactly one wins', async () => {
    const domain = newDomain();
    const [da, db] = await Promise.all([call('POST', '/organizations/domains/', a, { domain }), call('POST', '/organizations/domains/', b, { domain })]);
    dns.publish(da.body.dns.name, [da.body.dns.value, db.body.dns.value]);
    const results = await Promise.all([
      call('POST', '/organizations/domains/verify', a, { domain_id: da.body.id }),
      call('POST', '/organizations/domains/verify', b, { domain_id: db.body.id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('when a token is older than 48 hours, then verification asks for a refresh', async () => {
    const created = await call('POST', '/organizations/domains/', a, { domain: newDomain() });
    // White-box: re-issue the same token with an issue time 49 hours ago, as the command would have.
    const kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'test' });
    const producer = await kafka.producer();
    const topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 2, spansRetentionMs: 3600_000, dlqRetentionMs: 3600_000 });
    const issuedAt = Date.now() - 49 * 3600_000;
    await producer.send(topics.accounts, [{
      key: `domain:${created.body.slug}`,
      value: encodeEvent('accounts.domain.token_issued', {
        domain_id: created.body.id, organization_id: a.organizationId, domain: created.body.slug, name: '', description: '',
        token: created.body.token, issued_at_us: issuedAt * 1000,
      }, { organizationId: a.organizationId, aggregateId: `domain:${created.body.id}` }),
    }]);
    await producer.close();
    const old = await eventually(() => call('GET', '/organizations/domains/', a), (r) => r.body.some((d: { id: string; created_at: string }) => d.id === created.body.id && Date.parse(d.created_at) < Date.now() - 48 * 3600_000));
    expect(old.body.find((d: { id: string }) => d.id === created.body.id).dns.expires_at < new Date().toISOString()).toBe(true);
    publish(created.body);
    const r = await call('POST', '/organizations/domains/verify', a, { domain_id: created.body.id });
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('Verification token expired after 48 hours. Please refresh the token.');
    const refreshed = await call('POST', `/organizations/domains/${created.body.id}/refresh`, a);
    publish(refreshed.body);
    expect((await call('POST', '/organizations/domains/verify', a, { domain_id: created.body.id })).status).toBe(200);
  });

  it('when the body is malformed or the name is not a domain, then 422 naming the field', async () => {
    for (const body of [{}, { domain: 'not a domain' }, { domain: '192.168.1.1' }, { domain: 'localhost' }, { domain: 'x.org', extra: 1 }]) {
      const r = await call('POST', '/organizations/domains/', a, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
    }
    expect((await call('POST', '/organizations/domains/verify', a, { domain_id: 'nope' })).status).toBe(404);
    expect((await call('POST', '/organizations/domains/verify', a, {})).status).toBe(422);
  });

  // Last: it stops the DNS server.
  it('when the DNS server does not answer, then 503 with Retry-After, not "unverified"', async () => {
    const created = await call('POST', '/organizations/domains/', a, { domain: newDomain() });
    await dns.close();
    const r = await fetch(`${t.baseUrl}/organizations/domains/verify`, { method: 'POST', headers: { ...a.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ domain_id: created.body.id }) });
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBeTruthy();
  });
});
