import { createSocket, type Socket } from 'node:dgram';
import { startTxtDnsServer, type TxtDnsServer } from '@llm/testing/dns-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsLookupError } from '../src/dns-lookup-error.ts';
import { lookupTxt } from '../src/txt-lookup.ts';

let dns: TxtDnsServer;
beforeAll(async () => {
  dns = await startTxtDnsServer();
});
afterAll(async () => {
  await dns.close();
});

const opts = () => ({ servers: [dns.server], timeoutMs: 2_000 });

async function lookupFailure(work: Promise<unknown>): Promise<DnsLookupError> {
  try {
    await work;
  } catch (err) {
    if (err instanceof DnsLookupError) return err;
    throw err;
  }
  throw new Error('expected the lookup to fail');
}

/** A UDP port with nothing behind it: the kernel answers "port unreachable". */
async function deadPort(): Promise<number> {
  const s = createSocket('udp4');
  await new Promise<void>((resolve) => s.bind(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('lookupTxt against a real DNS server', () => {
  it('when the name does not exist, then the answer is empty, not an error', async () => {
    expect(await lookupTxt('_nothing.absent.example', opts())).toEqual([]);
  });

  it('when the name exists without TXT records, then the answer is empty', async () => {
    dns.publish('empty.example', []);
    expect(await lookupTxt('empty.example', opts())).toEqual([]);
  });

  it('when several records exist, then each comes back, chunked ones joined', async () => {
    dns.publish('multi.example', ['v=spf1 -all', ['part-one;', 'part-two'], 'x'.repeat(600)]);
    const found = await lookupTxt('Multi.Example.', opts());
    expect(found).toHaveLength(3);
    expect(found).toEqual(expect.arrayContaining(['v=spf1 -all', 'part-one;part-two', 'x'.repeat(600)]));
  });

  it('when a record is withdrawn, then the next lookup sees it gone', async () => {
    dns.publish('flip.example', ['here']);
    expect(await lookupTxt('flip.example', opts())).toEqual(['here']);
    dns.withdraw('flip.example');
    expect(await lookupTxt('flip.example', opts())).toEqual([]);
  });

  it('when nothing listens at the resolver address, then the lookup fails with a typed error, not "absent"', async () => {
    const err = await lookupFailure(lookupTxt('anything.example', { servers: [`127.0.0.1:${await deadPort()}`], timeoutMs: 2_000 }));
    expect(err).toMatchObject({ kind: 'unavailable', retryable: true, queriedName: 'anything.example' });
    expect(['dns_failure', 'dns_timeout']).toContain(err.code);
  });

  it('when the resolver never answers, then the lookup gives up within its timeout as dns_timeout', async () => {
    const silent: Socket = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      // The resolver never answers: only the lookup's own timeout can end it (else this test times out).
      const err = await lookupFailure(lookupTxt('slow.example', { servers: [`127.0.0.1:${silent.address().port}`], timeoutMs: 300 }));
      expect(err.code).toBe('dns_timeout');
    } finally {
      silent.close();
    }
  });

  it('when the server list or name is malformed, then it is a programming error (TypeError)', async () => {
    await expect(lookupTxt('x.example', { servers: ['dns.google'] })).rejects.toThrow(TypeError);
    await expect(lookupTxt('  ', opts())).rejects.toThrow(TypeError);
  });
});
