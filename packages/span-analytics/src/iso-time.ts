// Times in responses: ISO-8601 UTC with `Z`, the 6-digit fraction only when non-zero (as span times).
import { formatTimestamp } from '@llm/span-model';

export function isoUtc(us: number): string {
  const s = formatTimestamp(us);
  return s.endsWith('.000000Z') ? `${s.slice(0, -8)}Z` : s;
}
