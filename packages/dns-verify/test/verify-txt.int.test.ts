import { createSocket } from 'node:dgram';
import { AppError } from '@llm/errors';
import { startTxtDnsServer, type TxtDnsServer } from '@llm/testing/dns-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsLookupError } from '../src/dns-lookup-error.ts';
import { generateToken } from '../src/verification-token.ts';
import { verifyTxt } from '../src/verify-txt.ts';

let dns: TxtDnsServer;
beforeAll(async () => {
  dns = await startTxtDnsServer();
});
afterAll(async () => {
  await dns.close();
});

const opts = () => ({ servers: [dns.server], timeoutMs: 2_000 });
// Each test claims its own domain, so published records never leak between tests.
const freshDomain = (): string => `org-${generateToken().slice(0, 8)}.example`;

describe('verifyTxt', () => {
  it('when no record is published, then the domain is not verified and nothing was found', async () => {
    const domain = freshDomain();
    expect(await verifyTxt(domain, generateToken(), opts())).toEqual({
      verified: false,
      found: [],
      record: { type: 'TXT', name: `_agenta-verification.${domain}`, value: expect.stringMatching(/^_agenta-verification=[0-9a-f]{32}$/) },
    });
  });

  it('when the record holds another token, then it is not verified and the found value is reported', async () => {
    const domain = freshDomain();
    dns.publish(`_agenta-verification.${domain}`, [`_agenta-verification=${generateToken()}`]);
    const r = await verifyTxt(domain, generateToken(), opts());
    expect(r.verified).toBe(false);
    expect(r.found).toHaveLength(1);
  });

  it('when the right value is among several TXT values, then it is verified', async () => {
    const domain = freshDomain();
    const token = generateToken();
    dns.publish(`_agenta-verification.${domain}`, ['google-site-verification=xyz', `_agenta-verification=${generateToken()}`, `_agenta-verification=${token}`]);
    const r = await verifyTxt(domain, token, opts());
    expect(r.verified).toBe(true);
    expect(r.found).toHaveLength(3);
  });

  it('when the value arrives in chunks or wrapped in console quotes, then it is still recognised', async () => {
    const token = generateToken();
    const chunked = freshDomain();
    dns.publish(`_agenta-verification.${chunked}`, [['_agenta-verification=', token.slice(0, 10), token.slice(10)]]);
    expect((await verifyTxt(chunked, token, opts())).verified).toBe(true);
    const quoted = freshDomain();
    dns.publish(`_agenta-verification.${quoted}`, [`"_agenta-verification=${token}"`]);
    expect((await verifyTxt(quoted, token, opts())).verified).toBe(true);
  });

  it('when the value differs in anything but quoting (prefix spelling, case, extra text), then it is not verified', async () => {
    const domain = freshDomain();
    const token = generateToken();
    dns.publish(`_agenta-verification.${domain}`, [`agenta-verification=${token}`, `_agenta-verification=${token.toUpperCase()}`, `_agenta-verification=${token} extra`, token]);
    expect((await verifyTxt(domain, token, opts())).verified).toBe(false);
  });

  it('when the record is published at the bare domain instead of the challenge name, then it is not verified', async () => {
    const domain = freshDomain();
    const token = generateToken();
    dns.publish(domain, [`_agenta-verification=${token}`]);
    expect((await verifyTxt(domain, token, opts())).verified).toBe(false);
  });

  it('when the record is withdrawn, then the domain no longer verifies', async () => {
    const domain = freshDomain();
    const token = generateToken();
    dns.publish(`_agenta-verification.${domain}`, [`_agenta-verification=${token}`]);
    expect((await verifyTxt(domain, token, opts())).verified).toBe(true);
    dns.withdraw(`_agenta-verification.${domain}`);
    expect((await verifyTxt(domain, token, opts())).verified).toBe(false);
  });

  it('when the domain is given in another spelling, then the normalised name is looked up', async () => {
    const token = generateToken();
    dns.publish('_agenta-verification.xn--bcher-kva.example', [`_agenta-verification=${token}`]);
    const r = await verifyTxt('  Bücher.EXAMPLE. ', token, opts());
    expect(r).toMatchObject({ verified: true, record: { name: '_agenta-verification.xn--bcher-kva.example' } });
  });

  it('when the resolver is down, then verification throws DnsLookupError instead of answering "unverified"', async () => {
    const s = createSocket('udp4');
    await new Promise<void>((resolve) => s.bind(0, '127.0.0.1', resolve));
    const port = s.address().port;
    await new Promise<void>((resolve) => s.close(() => resolve()));
    await expect(verifyTxt(freshDomain(), generateToken(), { servers: [`127.0.0.1:${port}`], timeoutMs: 1_000 })).rejects.toBeInstanceOf(DnsLookupError);
  });

  it('when the domain is not a domain name, then it is an invalid AppError and nothing is looked up', async () => {
    const err = await verifyTxt('10.0.0.1', generateToken(), { servers: ['192.0.2.1'], timeoutMs: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ kind: 'invalid', code: 'invalid_domain' });
  });
});
