import { describe, expect, it } from 'vitest';
import { classifyClickhouseError } from '../src/classify-error.ts';

const chError = (code: number, type: string): Error => Object.assign(new Error(`${type}: …`), { code: String(code), type });

describe('classifyClickhouseError', () => {
  it('when ClickHouse is out of capacity (parts, memory, disk, timeouts, read-only), then it is transient and never poison', () => {
    for (const [code, type] of [[252, 'TOO_MANY_PARTS'], [241, 'MEMORY_LIMIT_EXCEEDED'], [243, 'NOT_ENOUGH_SPACE'], [159, 'TIMEOUT_EXCEEDED'],
      [202, 'TOO_MANY_SIMULTANEOUS_QUERIES'], [209, 'SOCKET_TIMEOUT'], [242, 'TABLE_IS_READ_ONLY'], [164, 'READONLY'], [173, 'CANNOT_ALLOCATE_MEMORY'],
      [395, 'FUNCTION_THROW_IF_VALUE_IS_NON_ZERO']] as const) {
      expect(classifyClickhouseError(chError(code, type)), type).toBe('transient');
    }
  });
  it('when ClickHouse refuses the rows themselves (unparsable, out of range, type mismatch), then it is deterministic', () => {
    for (const [code, type] of [[27, 'CANNOT_PARSE_INPUT_ASSERTION_FAILED'], [41, 'CANNOT_PARSE_DATETIME'], [53, 'TYPE_MISMATCH'],
      [321, 'VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE'], [131, 'TOO_LARGE_STRING_SIZE'], [117, 'INCORRECT_DATA']] as const) {
      expect(classifyClickhouseError(chError(code, type)), type).toBe('deterministic');
    }
  });
  it('when the HTTP connection fails, then it is transient', () => {
    expect(classifyClickhouseError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe('transient');
    expect(classifyClickhouseError(new Error('Timeout error.'))).toBe('transient');
  });
});
