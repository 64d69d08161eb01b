import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RequestValidationError } from '@llm/http';
import { flatInputs, sourceOf } from '../src/http/flat-inputs.ts';

const req = (query: Record<string, unknown>, body?: unknown): Request => ({ query, body }) as unknown as Request;

function issues(fn: () => unknown): unknown[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof RequestValidationError) return err.issues;
    throw err;
  }
  throw new Error('expected a validation error');
}

describe('flatInputs', () => {
  it('when a name is both a query parameter and a body field, then the body wins; null counts as absent', () => {
    expect(flatInputs(req({ focus: 'span', limit: '5', rate: '0.5' }, { focus: 'trace', rate: null }))).toEqual({ focus: 'trace', limit: 5, rate: 0.5 });
  });

  it('when there is no body, then the query parameters alone are read', () => {
    expect(flatInputs(req({ oldest: '1717200000', filter: '{"conditions":[]}' }))).toEqual({ oldest: '1717200000', filter: '{"conditions":[]}' });
  });

  it('when a key is unknown or a value is bad, then a 422 locates it in the body or the query', () => {
    expect(issues(() => flatInputs(req({}, { filtering: {} })))).toEqual([expect.objectContaining({ loc: ['body'], type: 'unrecognized_keys' })]);
    expect(issues(() => flatInputs(req({ focus: 'all' }, {})))).toEqual([expect.objectContaining({ loc: ['query', 'focus'] })]);
    expect(issues(() => flatInputs(req({}, [1, 2])))).toEqual([expect.objectContaining({ loc: ['body'], msg: 'body must be a JSON object' })]);
  });

  it('when an endpoint passes its own schema, then that schema decides', () => {
    const schema = z.strictObject({ specs: z.unknown().optional(), interval: z.coerce.number().int().optional() });
    expect(flatInputs(req({ interval: '60' }, { specs: [] }), schema)).toEqual({ interval: 60, specs: [] });
    expect(issues(() => flatInputs(req({}, { limit: 1 }), schema))).toHaveLength(1);
  });

  it('when asked where a field came from, then the body wins over the query', () => {
    expect(sourceOf(req({ oldest: 'x' }, { oldest: 'y' }), 'oldest')).toBe('body');
    expect(sourceOf(req({ oldest: 'x' }, {}), 'oldest')).toBe('query');
    expect(sourceOf(req({}, {}), 'oldest')).toBe('body');
  });
});
