// Expected failures (a malformed id, an ambiguous timestamp) are values, not exceptions: ingest
// rejects spans one by one and must report each reason without try/catch around every field.
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function err<T = never>(error: string): Result<T> {
  return { ok: false, error };
}
