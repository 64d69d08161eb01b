// Given/when/then tests of the trusted session service's signed assertions.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSessionAssertionVerifier, sessionAssertionEnv, signSessionAssertion } from '../src/index.ts';

const A = 'a'.repeat(32);
const B = 'b'.repeat(40);
const T = 1_700_000_000;
const claim = { sid: 's'.repeat(24), identities: ['email:otp', 'social:github'] };
const verifier = (secrets = [A], nowSeconds = T) => createSessionAssertionVerifier({ secrets, now: () => nowSeconds * 1000 });

describe('session assertions', () => {
  it('when the service signs this session and these identities, then the assertion verifies', () => {
    const header = signSessionAssertion(A, claim, T);
    expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
    expect(verifier().verify(header, claim)).toEqual({ ok: true, value: { timestamp: T } });
  });

  it('when computed by hand as documented, then the signature is the same (HMAC-SHA256 of "<t>.<sid>.<identities>")', () => {
    const mac = createHmac('sha256', A).update(`${T}.${claim.sid}.email:otp,social:github`).digest('hex');
    expect(verifier().verify(`t=${T},v1=${mac}`, claim).ok).toBe(true);
    expect(verifier().verify(`t=${T}, v1=${mac.toUpperCase()}`, claim).ok).toBe(true);
  });

  it('when the assertion was made for another session, other identities or another order, then it is refused', () => {
    const header = signSessionAssertion(A, claim, T);
    for (const other of [{ ...claim, sid: 't'.repeat(24) }, { ...claim, identities: ['email:otp'] }, { ...claim, identities: ['social:github', 'email:otp'] }]) {
      expect(verifier().verify(header, other)).toEqual({ ok: false, error: 'bad_signature' });
    }
  });

  it('when signed with an unknown secret, then it is refused; during a rotation either secret verifies', () => {
    expect(verifier([A]).verify(signSessionAssertion(B, claim, T), claim)).toEqual({ ok: false, error: 'bad_signature' });
    expect(verifier([B, A]).verify(signSessionAssertion(A, claim, T), claim).ok).toBe(true);
    expect(verifier([B, A]).verify(signSessionAssertion(B, claim, T), claim).ok).toBe(true);
    // The service may send one signature per secret it holds.
    const both = `${signSessionAssertion(B, claim, T)},v1=${signSessionAssertion(A, claim, T).split('v1=')[1]}`;
    expect(verifier([A]).verify(both, claim).ok).toBe(true);
  });

  it('when the timestamp is more than 300 s away from our clock either way, then it is stale', () => {
    expect(verifier([A], T + 300).verify(signSessionAssertion(A, claim, T), claim).ok).toBe(true);
    expect(verifier([A], T + 301).verify(signSessionAssertion(A, claim, T), claim)).toEqual({ ok: false, error: 'stale' });
    expect(verifier([A], T - 301).verify(signSessionAssertion(A, claim, T), claim)).toEqual({ ok: false, error: 'stale' });
  });

  it('when the header is absent, repeated or malformed, then it is refused with the reason', () => {
    const good = signSessionAssertion(A, claim, T);
    expect(verifier().verify(undefined, claim)).toEqual({ ok: false, error: 'missing' });
    expect(verifier().verify('', claim)).toEqual({ ok: false, error: 'missing' });
    expect(verifier().verify([good], claim).ok).toBe(true);
    expect(verifier().verify([good, good], claim)).toEqual({ ok: false, error: 'malformed' });
    // Node joins repeated headers with ", ": two timestamps are refused.
    expect(verifier().verify(`${good}, ${good}`, claim)).toEqual({ ok: false, error: 'malformed' });
    for (const bad of ['t=1700000000', 'v1=' + 'a'.repeat(64), `t=abc,v1=${'a'.repeat(64)}`, `t=${T},v1=${'a'.repeat(63)}`, `t=${T},v1=${'g'.repeat(64)}`, 'garbage', 'x'.repeat(2000)]) {
      expect(verifier().verify(bad, claim)).toEqual({ ok: false, error: 'malformed' });
    }
  });

  it('when a secret is shorter than 32 bytes, then no verifier is made and the environment is refused without echoing it', () => {
    expect(() => createSessionAssertionVerifier({ secrets: ['short'] })).toThrow(/shorter than 32 bytes/);
    const r = sessionAssertionEnv.safeParse({ SESSION_ASSERTION_SECRETS: 'tiny-secret-value' });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).not.toContain('tiny-secret-value');
    expect(sessionAssertionEnv.parse({}).SESSION_ASSERTION_SECRETS).toBeUndefined();
    expect(sessionAssertionEnv.parse({ SESSION_ASSERTION_SECRETS: ` ${A} ,${B}` }).SESSION_ASSERTION_SECRETS).toEqual([A, B]);
  });
});
