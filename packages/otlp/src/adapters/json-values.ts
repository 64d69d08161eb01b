import type { JsonObject, JsonValue } from '@llm/span-model';

/** `value` parsed as JSON when it is a string that parses, else undefined. */
export function parseJson(value: JsonValue | undefined): JsonValue | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    return undefined;
  }
}

/** `value` parsed as JSON when it is a string that parses; otherwise `value` unchanged. */
export function parseJsonOrKeep(value: JsonValue): JsonValue {
  const parsed = parseJson(value);
  return parsed === undefined ? value : parsed;
}

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A finite number, or a string holding one (some SDKs stringify counts). */
export function toFiniteNumber(value: JsonValue | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}
