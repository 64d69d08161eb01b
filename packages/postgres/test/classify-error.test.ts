import { describe, expect, it } from 'vitest';
import { classifyPostgresError } from '../src/classify-error.ts';

const pgError = (code: string, message = 'x'): Error => Object.assign(new Error(message), { code });

describe('classifyPostgresError', () => {
  it('when Postgres refuses the data (NUL in text or jsonb, bad encoding, constraint, index row too big), then it is deterministic', () => {
    for (const code of ['22P05', '22021', '22003', '23505', '23502', '54000', '42804', '0A000']) expect(classifyPostgresError(pgError(code)), code).toBe('deterministic');
  });
  it('when Postgres is away, restarting, out of connections or in a serialization conflict, then it is transient', () => {
    for (const code of ['08006', '57P01', '57P03', '53300', '53100', '40001', '40P01', '55P03', 'XX000']) expect(classifyPostgresError(pgError(code)), code).toBe('transient');
  });
  it('when the schema is not what this version expects (a migration not run), then it waits rather than dropping records', () => {
    expect(classifyPostgresError(pgError('42P01'))).toBe('transient');
    expect(classifyPostgresError(pgError('42703'))).toBe('transient');
  });
  it('when the socket fails, then it is transient', () => {
    expect(classifyPostgresError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe('transient');
    expect(classifyPostgresError(new Error('Connection terminated unexpectedly'))).toBe('transient');
  });
  it('when our own code fails on the record (stack overflow, type error), then it is deterministic', () => {
    expect(classifyPostgresError(new RangeError('Maximum call stack size exceeded'))).toBe('deterministic');
    expect(classifyPostgresError(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe('deterministic');
    expect(classifyPostgresError(new Error('something odd'))).toBe('transient');
  });
});
