import type { ConfigResult } from '@llm/config';

/** In a main.ts: a configuration failure prints every problem and exits 1. */
export function exitOnBadConfig<T>(r: ConfigResult<T>): T {
  if (r.ok) return r.config;
  console.error(`invalid configuration:\n  ${r.problems.join('\n  ')}`);
  process.exit(1);
}
