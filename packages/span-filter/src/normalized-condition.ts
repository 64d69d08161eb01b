// A condition after the structural parse, with defaults applied: what the per-field compilers see.
import type { ConditionOperator } from './filtering-schema.ts';

export interface NormalizedCondition {
  field: string;
  key: string | undefined;
  /** `undefined` = no value given; `null` is a value (JSON has no undefined). */
  value: unknown;
  operator: ConditionOperator;
  caseSensitive: boolean;
  exactMatch: boolean;
  all: boolean;
}
