import type { JsonObject, JsonValue } from '@llm/span-model';

/** `value` parsed as JSON when it is a string that parses, else undefined. */
export function parseJson(value: JsonValue | undefined): JsonValue | undefined {
  if (typeof value !== 'string' || !mayBeJson(value)) return undefined;
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

/**
 * Cheap screen before JSON.parse: plain text ("sunny, 21°C") is common in these attributes, and a
 * thrown SyntaxError costs far more than the parse itself.
 */
function mayBeJson(text: string): boolean {
  let i = 0;
  while (i < text.length && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x0a || text.charCodeAt(i) === 0x09 || text.charCodeAt(i) === 0x0d)) i++;
  const c = text.charCodeAt(i);
  if (c === 0x7b /* { */ || c === 0x5b /* [ */ || c === 0x22 /* " */ || c === 0x2d /* - */) return true;
  if (c >= 0x30 && c <= 0x39) return true;
  const rest = text.trim();
  return rest === 'true' || rest === 'false' || rest === 'null';
}
