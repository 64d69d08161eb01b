import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliveryIdOf } from '../src/delivery-id.ts';

// An independent UUIDv5 (RFC 9562 §5.5) with node's crypto, to check the derivation chain.
function v5(name: string, ns: string): string {
  const h = createHash('sha1').update(Buffer.from(ns.replace(/-/g, ''), 'hex')).update(name).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

const EVENT = '0190a5b2-7c3e-7a10-8000-000000000001';
const SUB = '0190a5b2-7c3e-7a10-8000-0000000000ff';

describe('deliveryIdOf', () => {
  it('when derived, then it equals Python uuid5(uuid5(uuid5(DNS,"agenta"),"webhooks.delivery"), "<event>:<sub>")', () => {
    // Python: uuid.uuid5(uuid.uuid5(uuid.uuid5(uuid.NAMESPACE_DNS, "agenta"), "webhooks.delivery"), f"{EVENT}:{SUB}")
    expect(deliveryIdOf(EVENT, SUB)).toBe('9ee5e94c-9bee-5093-81c2-ef8a0eb2ac3a');
    const ns = v5('webhooks.delivery', v5('agenta', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'));
    expect(ns).toBe('4125a513-fdff-5939-bf37-12f9bdd4c56b');
    expect(deliveryIdOf(EVENT, SUB)).toBe(v5(`${EVENT}:${SUB}`, ns));
  });

  it('when ids are given in upper case, then the same id comes out; other pairs differ', () => {
    expect(deliveryIdOf(EVENT.toUpperCase(), SUB.toUpperCase())).toBe(deliveryIdOf(EVENT, SUB));
    expect(deliveryIdOf(SUB, EVENT)).not.toBe(deliveryIdOf(EVENT, SUB));
  });
});
