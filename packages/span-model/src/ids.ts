import { err, ok, type Result } from './result.ts';

const HEX32 = /^[0-9a-fA-F]{32}$/;
const HEX16 = /^[0-9a-fA-F]{16}$/;
const DASHED_UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function stripHexPrefix(s: string): string {
  return s.length > 2 && s.charCodeAt(0) === 48 && (s.charCodeAt(1) === 120 || s.charCodeAt(1) === 88) ? s.slice(2) : s;
}

/** Trace id → 32 lowercase hex. Accepts 32 hex, a dashed UUID, or `0x` + 32 hex, in any case. */
export function parseTraceId(input: unknown): Result<string> {
  if (typeof input !== 'string') return err('must be a string');
  const s = stripHexPrefix(input);
  if (HEX32.test(s)) return ok(s.toLowerCase());
  if (s === input && DASHED_UUID.test(s)) return ok(s.replaceAll('-', '').toLowerCase());
  return err(`'${clip(input)}' is not a trace id (32 hex characters or a UUID)`);
}

/**
 * Span id → lowercase hex exactly as sent: 16 hex (OTel) stays 16 hex; 32 hex or a dashed UUID
 * becomes 32 hex. Unlike the reference system we never double a 16-hex id into a UUID, so every
 * accepted id round-trips.
 */
export function parseSpanId(input: unknown): Result<string> {
  if (typeof input !== 'string') return err('must be a string');
  const s = stripHexPrefix(input);
  if (HEX16.test(s) || HEX32.test(s)) return ok(s.toLowerCase());
  if (s === input && DASHED_UUID.test(s)) return ok(s.replaceAll('-', '').toLowerCase());
  return err(`'${clip(input)}' is not a span id (16 or 32 hex characters or a UUID)`);
}

/** Entity ids inside references (`ag.references.*.id`) → dashed lowercase UUID; 32 hex accepted. */
export function parseUuid(input: unknown): Result<string> {
  if (typeof input !== 'string') return err('must be a string');
  if (DASHED_UUID.test(input)) return ok(input.toLowerCase());
  if (HEX32.test(input)) return ok(hexToDashedUuid(input.toLowerCase()));
  return err(`'${clip(input)}' is not a UUID`);
}

export function hexToDashedUuid(hex32: string): string {
  return `${hex32.slice(0, 8)}-${hex32.slice(8, 12)}-${hex32.slice(12, 16)}-${hex32.slice(16, 20)}-${hex32.slice(20, 32)}`;
}

// Error messages echo the input; a hostile multi-megabyte id must not blow up the error body.
function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
