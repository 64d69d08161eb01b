import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateSigningSecret, signatureHeader, verifySignature } from '../src/signature.ts';

describe('signatureHeader', () => {
  it('when signing, then v1 is the hex HMAC-SHA256 of "<t>.<body>" (fixed vector)', () => {
    // Computed independently with Python: hmac.new(b"whsec_test", b'1700000000.{"a":1}', sha256).hexdigest()
    expect(signatureHeader('whsec_test', '{"a":1}', 1_700_000_000)).toBe('t=1700000000,v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789');
    const body = '{"x":"\\u00e9"}';
    const expected = createHmac('sha256', 'k').update(`1700000123.${body}`).digest('hex');
    expect(signatureHeader('k', body, 1_700_000_123.9)).toBe(`t=1700000123,v1=${expected}`);
  });
});

describe('verifySignature', () => {
  const body = '{"event":{"event_type":"webhooks.subscriptions.tested"}}';
  const t = 1_700_000_000;
  const header = signatureHeader('s3cret', body, t);

  it('when the body, secret and time match, then it verifies (string or Buffer body)', () => {
    expect(verifySignature('s3cret', body, header, { now: t + 10 })).toBe(true);
    expect(verifySignature('s3cret', Buffer.from(body), header, { now: t - 10 })).toBe(true);
    expect(verifySignature('s3cret', body, `v1=${header.split('v1=')[1]}, t=${t}`, { now: t })).toBe(true);
  });

  it('when anything differs, then it does not verify', () => {
    expect(verifySignature('other', body, header, { now: t })).toBe(false);
    expect(verifySignature('s3cret', `${body} `, header, { now: t })).toBe(false);
    expect(verifySignature('s3cret', body, header.replace('t=1700000000', 't=1700000001'), { now: t })).toBe(false);
  });

  it('when the timestamp is outside the tolerance, then it is refused', () => {
    expect(verifySignature('s3cret', body, header, { now: t + 301 })).toBe(false);
    expect(verifySignature('s3cret', body, header, { now: t - 301 })).toBe(false);
    expect(verifySignature('s3cret', body, header, { now: t + 301, toleranceSeconds: 600 })).toBe(true);
  });

  it('when the header is malformed, then it is false, never an exception', () => {
    for (const h of [undefined, null, '', 't=', 'v1=abc', 't=abc,v1=00', `t=${t}`, `t=${t},v1=zz`, 'x'.repeat(10_000), `t=${t},v1=${'0'.repeat(64)}`]) {
      expect(verifySignature('s3cret', body, h, { now: t })).toBe(false);
    }
  });
});

describe('generateSigningSecret', () => {
  it('when generated, then it is 32 characters of [A-Za-z0-9], different each time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const s = generateSigningSecret();
      expect(s).toMatch(/^[A-Za-z0-9]{32}$/);
      seen.add(s);
    }
    expect(seen.size).toBe(200);
  });

  it('when many are generated, then every character of the alphabet appears, roughly evenly', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) for (const c of generateSigningSecret()) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 64,000 draws / 62 ≈ 1032 each; a biased generator (byte % 62) would give the first 8 ~25 % more.
    for (const n of counts.values()) expect(n).toBeGreaterThan(850);
    for (const n of counts.values()) expect(n).toBeLessThan(1220);
  });
});
