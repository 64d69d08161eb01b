// Which SSO client secrets the rotation must seal again (domain/sso-reseal.ts): those sealed directly
// under a key of the ring, and only those; a value no key of the ring or the key store opens is reported.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptSecret, SecretsKeyring } from '@llm/oidc';
import { newDataKey, sealData } from '@llm/vault';
import { isRingSealed, planReseal } from '../src/vault/domain/sso-reseal.ts';

const A = new SecretsKeyring([randomBytes(32)]);
const B = randomBytes(32);
const ringBA = new SecretsKeyring([B, randomBytes(32)]);
const ring = (...keys: Buffer[]) => new SecretsKeyring(keys);
const row = (sealed: string, version = 4) => ({ id: '00000000-0000-4000-8000-000000000001', organization_id: '00000000-0000-4000-8000-00000000000a', client_secret_sealed: sealed, version });

describe('planReseal', () => {
  const old = randomBytes(32);
  const withOld = ring(B, old);
  const legacy = encryptSecret('client-secret', ring(old));

  it('when the secret is sealed directly under a ring key, then it is re-sealed at the version read, with the secret in clear', () => {
    expect(isRingSealed(legacy, withOld)).toBe(true);
    const plan = planReseal(row(legacy), withOld, false);
    expect(plan).toMatchObject({ action: 'reseal', version: 4, providerId: row(legacy).id });
    if (plan.action !== 'reseal') throw new Error('not a re-seal');
    expect(plan.secret.reveal()).toBe('client-secret');
    // The plan prints without the secret.
    expect(JSON.stringify(plan)).not.toContain('client-secret');
  });

  it('when the secret is under the provider data key, then it is current; without a data key, it is reported as unknown_key', () => {
    const sealed = sealData(newDataKey(), 'client-secret', { ownerId: row('').organization_id, secretId: row('').id, kind: 'sso_provider' });
    expect(isRingSealed(sealed, withOld)).toBe(false);
    expect(planReseal(row(sealed), withOld, true)).toEqual({ action: 'current', providerId: row('').id });
    expect(planReseal(row(sealed), withOld, false)).toMatchObject({ action: 'failed', reason: 'unknown_key' });
    // Sealed under a ring key that has left the ring: the same report.
    expect(planReseal(row(encryptSecret('s', A)), ringBA, false)).toMatchObject({ action: 'failed', reason: 'unknown_key' });
  });

  it('when a ring-sealed value was tampered with, then it is reported, not re-sealed', () => {
    const parts = legacy.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(planReseal(row(parts.join('.')), withOld, false)).toMatchObject({ action: 'failed', reason: 'authentication_failed' });
  });
});
