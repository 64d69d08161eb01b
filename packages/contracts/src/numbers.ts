// Numbers as the stores and the SQL we write can take them, checked once at the request boundary.
// JSON has no Infinity or NaN (zod's number refuses them too), but it has 1e308 and 2^60, which
// become `LIMIT 1e+308` or an int4 overflow further in; every number a request carries is an
// integer or a finite number within stated bounds. A query string's number is text: `queryNumber`
// reads only a plain decimal spelling (no `NaN`, `Infinity`, hex or blanks, at most 32 characters)
// and then applies the same bounds, so `?limit=1e308` is a 422 like `{"limit": 1e308}`.
import { z } from 'zod';

/** Bounds per kind of number (docs/limits-and-failures.md, "Input limits"). */
export const NUMBER_LIMITS = {
  /** Postgres `integer`, and the largest page size, depth or count a request may name. */
  int32Max: 2_147_483_647,
  int32Min: -2_147_483_648,
  /** Characters of a number in a query string. */
  queryText: 32,
} as const;

export interface IntOptions { min?: number; max?: number; label?: string }

/** An integer within [min, max] (default: Postgres `integer`). */
export function int({ min = NUMBER_LIMITS.int32Min, max = NUMBER_LIMITS.int32Max, label }: IntOptions = {}): z.ZodNumber {
  const the = label === undefined ? '' : `${label} `;
  return z.number({ error: `${the}must be a number` })
    .int({ error: `${the}must be an integer` })
    .min(min, { error: `${the}must be at least ${min}` })
    .max(max, { error: `${the}must be at most ${max}` });
}

/** A finite number within [min, max]. */
export function finite({ min, max, label }: { min: number; max: number; label?: string }): z.ZodNumber {
  const the = label === undefined ? '' : `${label} `;
  return z.number({ error: `${the}must be a finite number` })
    .min(min, { error: `${the}must be at least ${min}` })
    .max(max, { error: `${the}must be at most ${max}` });
}

/** Named presets; add `.nullish()`, `.positive()` per field. */
export const ints = {
  /** Any Postgres `integer`: depths, versions, limits whose meaning the handler clamps. */
  int32: int(),
  /** Page sizes (0 = the route's default where it says so). */
  limit: int({ min: 0, label: 'limit' }),
} as const;

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A number sent as query-string text, read as JSON would read it and then checked by `schema`
 * (`queryNumber(ints.limit)`). A number already parsed (a JSON body) goes straight to `schema`.
 */
export function queryNumber<S extends z.ZodType<number, number>>(schema: S) {
  return z.union([
    z.number(),
    z.string().max(NUMBER_LIMITS.queryText, { error: `must be at most ${NUMBER_LIMITS.queryText} characters` })
      .regex(DECIMAL, { error: 'must be a decimal number' }).transform(Number),
  ], { error: 'must be a number' }).pipe(schema);
}
