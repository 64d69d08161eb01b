// The string operators over any text expression. Case-insensitive unless asked otherwise: users
// search names and messages by what they read, not by the case it was typed in.
import type { StringOperator } from './filtering-schema.ts';

export interface StringMatchOptions {
  caseSensitive: boolean;
  /** Turns `matches` from a substring test into equality. */
  exactMatch: boolean;
}

/** `pattern` is a placeholder, never the user's text. */
export function stringMatch(expr: string, op: StringOperator, pattern: string, o: StringMatchOptions): string {
  return o.caseSensitive ? caseSensitive(expr, op, pattern, o.exactMatch) : caseInsensitive(expr, op, pattern, o.exactMatch);
}

function caseSensitive(expr: string, op: StringOperator, p: string, exact: boolean): string {
  switch (op) {
    case 'startswith':
      return `startsWith(${expr}, ${p})`;
    case 'endswith':
      return `endsWith(${expr}, ${p})`;
    case 'matches':
      if (exact) return `${expr} = ${p}`;
      return `position(${expr}, ${p}) > 0`;
    case 'contains':
      return `position(${expr}, ${p}) > 0`;
    case 'like':
      return `like(${expr}, ${p})`;
  }
}

function caseInsensitive(expr: string, op: StringOperator, p: string, exact: boolean): string {
  switch (op) {
    case 'startswith':
      return `startsWith(lowerUTF8(${expr}), lowerUTF8(${p}))`;
    case 'endswith':
      return `endsWith(lowerUTF8(${expr}), lowerUTF8(${p}))`;
    case 'matches':
      if (exact) return `lowerUTF8(${expr}) = lowerUTF8(${p})`;
      return `positionCaseInsensitiveUTF8(${expr}, ${p}) > 0`;
    case 'contains':
      return `positionCaseInsensitiveUTF8(${expr}, ${p}) > 0`;
    case 'like':
      return `ilike(${expr}, ${p})`;
  }
}
