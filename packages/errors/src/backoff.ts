// Capped exponential backoff with 0.5–1 jitter (stripe-node style).
export function backoffMs(attempt: number, baseMs = 100, capMs = 5_000): number {
  const exp = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(exp * (0.5 + Math.random() * 0.5));
}
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
