import { deterministicUuid } from './hash.ts';
import { HASHED_REFERENCE_KEYS } from './reference-keys.ts';
import type { SpanHash, SpanLink, SpanReference } from './span.ts';

/**
 * Reference §1.3 "Hash": a dedupe key over what a span points at — its references (keyed by
 * reference key, testset variant/revision excluded) and its links that carry `attributes.key`.
 * Two annotations of the same thing by the same evaluator get the same hash.
 * Returns `[]` when there is nothing to hash.
 */
export function computeSpanHashes(references: readonly SpanReference[], links: readonly SpanLink[] | undefined): SpanHash[] {
  const entries = new Map<string, string>();
  for (const ref of references) {
    const key = ref.attributes?.key;
    if (typeof key !== 'string' || !HASHED_REFERENCE_KEYS.has(key)) continue;
    // Fields in sorted order (id, slug, version), space-free JSON.
    const fields: string[] = [];
    if (ref.id !== undefined) fields.push(`"id":${JSON.stringify(ref.id)}`);
    if (ref.slug !== undefined) fields.push(`"slug":${JSON.stringify(ref.slug)}`);
    if (ref.version !== undefined) fields.push(`"version":${JSON.stringify(ref.version)}`);
    entries.set(key, `{${fields.join(',')}}`);
  }
  if (links !== undefined) {
    for (const link of links) {
      const key = link.attributes?.key;
      if (typeof key !== 'string') continue;
      entries.set(key, `{"span_id":${JSON.stringify(link.span_id)},"trace_id":${JSON.stringify(link.trace_id)}}`);
    }
  }
  if (entries.size === 0) return [];
  const keys = [...entries.keys()].sort();
  const payload = `{${keys.map((k) => `${JSON.stringify(k)}:${entries.get(k) as string}`).join(',')}}`;
  return [{ id: deterministicUuid(payload), attributes: { key: 'indirect' } }];
}
