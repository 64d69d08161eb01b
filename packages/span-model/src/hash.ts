import { createHash } from 'node:crypto';

import { hexToDashedUuid } from './ids.ts';

/**
 * A deterministic dashed UUID for a payload: the first 128 bits of its SHA-256.
 * The only `node:*` import of the package, kept here so the rest stays portable.
 * (The reference system uses BLAKE2b-128 over a slightly different payload; the value is an opaque
 * dedupe key, so only determinism matters.)
 */
export function deterministicUuid(payload: string): string {
  return hexToDashedUuid(createHash('sha256').update(payload).digest('hex').slice(0, 32));
}
