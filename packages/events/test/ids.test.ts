import { describe, expect, it } from 'vitest';
import { NAMESPACE_DNS, derivedEventId, uuidv5, uuidv7 } from '../src/ids.ts';

describe('ids', () => {
  it('uuidv5 matches the RFC 9562 example (python uuid.uuid5(NAMESPACE_DNS, "python.org"))', () => {
    expect(uuidv5('python.org', NAMESPACE_DNS)).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d');
  });
  it('uuidv7 carries the time, the version and the variant, and orders within a millisecond', () => {
    const ids = Array.from({ length: 50 }, () => uuidv7(1_700_000_000_000));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(ids[0]!.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThanOrEqual(1_700_000_000_000);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
  it('a derived event id depends on the position only', () => {
    expect(derivedEventId('t', 0, 5n)).toBe(derivedEventId('t', 0, '5'));
    expect(derivedEventId('t', 0, 5n)).not.toBe(derivedEventId('t', 1, 5n));
  });
});
