export {
  LOGICAL_OPERATORS,
  CONDITION_OPERATORS,
  COMPARISON_OPERATORS,
  NUMERIC_OPERATORS,
  STRING_OPERATORS,
  LIST_OPERATORS,
  DICT_OPERATORS,
  EXISTENCE_OPERATORS,
  LogicalOperatorSchema,
  ConditionOperatorSchema,
  ConditionOptionsSchema,
  ConditionSchema,
  FilteringObjectSchema,
  FilteringSchema,
  type LogicalOperator,
  type ConditionOperator,
  type ConditionOptions,
  type Condition,
  type ConditionInput,
  type Filtering,
  type FilteringInput,
} from './filtering-schema.ts';
export { compileFilter, type CompileFilterContext, type CompileResult, type FilterError } from './compile-filter.ts';
export {
  ORDERS,
  WindowingSchema,
  ActivityQuerySchema,
  compileWindowing,
  type CompileWindowingOptions,
  type CompiledWindowing,
  type Focus,
  type Order,
  type Windowing,
  type WindowingInput,
  type WindowingResult,
} from './windowing.ts';
export { encodeCursor, decodeCursor, spanCursor, traceCursor, type WindowCursor } from './cursor.ts';
export { FIELDS, UNRECORDED_FIELDS, type FieldSpec } from './field-catalog.ts';
export type { SqlParam, SqlParams } from './sql-params.ts';
export {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  RATE_BUCKETS,
  MAX_FILTER_DEPTH,
  MAX_FILTER_CONDITIONS,
  MAX_LIST_VALUES,
  MAX_VALUE_DEPTH,
  MAX_KEY_SEGMENTS,
  MAX_FILTER_PARAMS,
} from './limits.ts';
