// Which Postgres failures can never succeed for the same data (SQLSTATE classes of the statement's
// content) and which are the server being away, busy or restarting. See @llm/errors FailureClass.
import { classifyUnknownError, isNetworkError, type FailureClass } from '@llm/errors';

/**
 * Refusals of the data itself: 21 cardinality, 22 data exception (NUL in text or jsonb, bad
 * encoding, out of range), 23 integrity constraint, 54 program limit (index row too big),
 * 0A feature not supported, and class 42 for statements our code built from the record.
 */
const DETERMINISTIC_CLASSES = new Set(['0A', '21', '22', '23', '54', '42']);
/**
 * Class 42 codes that mean the schema or grants are not what this version expects (a migration not
 * yet run, a role changed): an operator fixes those, and the records wait rather than being lost.
 */
const SCHEMA_DRIFT = new Set(['42P01', '42703', '42883', '42501', '42P06', '42P07', '42P10', '42704']);

export function classifyPostgresError(err: unknown): FailureClass {
  if (isNetworkError(err)) return 'transient';
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
    if (SCHEMA_DRIFT.has(code)) return 'transient';
    return DETERMINISTIC_CLASSES.has(code.slice(0, 2)) ? 'deterministic' : 'transient';
  }
  return classifyUnknownError(err);
}
