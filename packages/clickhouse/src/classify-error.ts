// Which ClickHouse failures can never succeed for the same rows (the data does not parse or does not
// fit its column) and which are capacity or availability (too many parts, memory, disk, timeouts,
// read-only replicas, the server restarting). Capacity is never poison: the records wait.
// See @llm/errors FailureClass. Codes: ClickHouse src/Common/ErrorCodes.cpp.
import { classifyUnknownError, isNetworkError, type FailureClass } from '@llm/errors';

/** Error codes about the content of an insert or of a statement built from it. */
const DETERMINISTIC = new Set([
  6, // CANNOT_PARSE_TEXT
  25, // CANNOT_PARSE_ESCAPE_SEQUENCE
  26, // CANNOT_PARSE_QUOTED_STRING
  27, // CANNOT_PARSE_INPUT_ASSERTION_FAILED
  38, // CANNOT_PARSE_DATE
  41, // CANNOT_PARSE_DATETIME
  43, // ILLEGAL_TYPE_OF_ARGUMENT
  53, // TYPE_MISMATCH
  62, // SYNTAX_ERROR
  69, // ARGUMENT_OUT_OF_BOUND
  70, // CANNOT_CONVERT_TYPE
  72, // CANNOT_PARSE_NUMBER
  117, // INCORRECT_DATA
  131, // TOO_LARGE_STRING_SIZE
  128, // TOO_LARGE_ARRAY_SIZE
  130, // CANNOT_READ_ARRAY_FROM_TEXT
  167, // TOO_DEEP_AST
  168, // TOO_BIG_AST
  190, // SIZES_OF_ARRAYS_DONT_MATCH
  306, // TOO_DEEP_RECURSION
  321, // VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
  349, // CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN
  407, // DECIMAL_OVERFLOW
  457, // BAD_QUERY_PARAMETER
]);

export function classifyClickhouseError(err: unknown): FailureClass {
  if (isNetworkError(err)) return 'transient';
  const code = Number((err as { code?: unknown } | null)?.code);
  if (Number.isInteger(code) && code > 0) return DETERMINISTIC.has(code) ? 'deterministic' : 'transient';
  return classifyUnknownError(err);
}
