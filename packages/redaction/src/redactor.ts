// A compiled policy: the detectors in order, applied to a span's attribute values in place (the
// values are already strings of the normalised span, so nothing is copied but a value that changes),
// with the counts and the policy version written on the span as `redaction`.
import type { JsonObject, JsonValue, Span } from '@llm/span-model';
import { BUILT_IN_DETECTORS, DETECTOR_NAMES, DETECTOR_ORDER, hasFourDigits, type Detector } from './detectors.ts';
import { compileLinearPattern } from './linear-pattern.ts';
import type { RedactionScope, VersionedPolicy } from './policy.ts';

/** The span attribute ingest writes: `{ policy_version, counts: { <detector>: <values replaced> } }`. */
export const REDACTION_ATTRIBUTE = 'redaction';

export interface Redactor {
  readonly version: number;
  /** Redacts the spans in place and records the counts on each. */
  redactSpans(spans: Span[]): void;
  /** One value, for tests and the benches; counts added to `counts`. */
  redactText(s: string, counts: Record<string, number>): string;
}

export type CompiledPolicy = { ok: true; redactor: Redactor } | { ok: false; field: string; reason: string };

export function compilePolicy(p: VersionedPolicy): CompiledPolicy {
  const detectors: Detector[] = [];
  const names = new Set<string>(DETECTOR_NAMES);
  // Custom patterns run first: a project's own shapes (an order number) before a detector takes their digits.
  for (const [i, c] of (p.policy.custom ?? []).entries()) {
    if (names.has(c.name)) return { ok: false, field: `custom.${i}.name`, reason: `the name '${c.name}' is taken (built-in detector or an earlier pattern)` };
    names.add(c.name);
    const re = compileLinearPattern(c.pattern);
    if (!re.ok) return { ok: false, field: `custom.${i}.pattern`, reason: re.reason };
    detectors.push({ name: c.name, placeholder: c.placeholder ?? `[${c.name.toUpperCase()}]`, passes: [{ re: re.re }] });
  }
  const chosen = new Set(p.policy.detectors ?? DETECTOR_NAMES);
  for (const n of DETECTOR_ORDER) if (chosen.has(n)) detectors.push(BUILT_IN_DETECTORS[n]);
  // No built-in shape is shorter than 6 characters (a@b.io); a custom pattern may be.
  const minLength = (p.policy.custom ?? []).length > 0 ? 1 : 6;
  return { ok: true, redactor: redactor(p.version, detectors, p.policy.apply_to ?? 'all', minLength) };
}

function redactor(version: number, detectors: readonly Detector[], scope: RedactionScope, minLength: number): Redactor {
  function redactText(s: string, counts: Record<string, number>): string {
    let out = s;
    // Whether the value has 4 digits, asked once (placeholders only remove digits, so the answer on
    // the value as sent covers every later pass).
    let digits: boolean | undefined;
    const fourDigits = (): boolean => (digits ??= hasFourDigits(s));
    for (const d of detectors) {
      if (d.mayMatch && !d.mayMatch(out)) continue;
      if (d.digits && !fourDigits()) continue;
      for (const pass of d.passes) {
        if ('digits' in pass && pass.digits && !fourDigits()) continue;
        if ('scan' in pass) {
          out = pass.scan(out, d.placeholder, (n) => { counts[d.name] = (counts[d.name] ?? 0) + n; });
          continue;
        }
        pass.re.lastIndex = 0;
        out = out.replace(pass.re, (m: string) => {
          if (m.length === 0) return m;
          const r = pass.check ? pass.check(m, d.placeholder) : ([d.placeholder, 1] as const);
          if (!r) return m;
          counts[d.name] = (counts[d.name] ?? 0) + r[1];
          return r[0];
        });
      }
    }
    return out;
  }

  function walk(v: JsonValue, counts: Record<string, number>): JsonValue {
    if (typeof v === 'string') return v.length < minLength ? v : redactText(v, counts);
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = walk(v[i]!, counts);
      return v;
    }
    for (const k of Object.keys(v)) {
      const before = v[k]!;
      const after = walk(before, counts);
      if (after === before) continue;
      // A parsed "__proto__" key is an own property: assignment would hit the prototype setter instead.
      if (k === '__proto__') Object.defineProperty(v, k, { value: after, writable: true, enumerable: true, configurable: true });
      else v[k] = after;
    }
    return v;
  }

  function redactSpan(s: Span): void {
    const counts: Record<string, number> = {};
    const a = s.attributes;
    if (scope === 'all') {
      // What a client sent as `redaction` is replaced below, so it is not scanned.
      if (Object.hasOwn(a, REDACTION_ATTRIBUTE)) delete a[REDACTION_ATTRIBUTE];
      walk(a, counts);
      if (s.status_message) s.status_message = redactText(s.status_message, counts);
      // The span's session and user columns are copies of ag.session.id / ag.user.id (or sent beside
      // them): an e-mail used as a user id must not survive there.
      if (s.session_id) s.session_id = redactText(s.session_id, counts);
      if (s.user_id) s.user_id = redactText(s.user_id, counts);
      for (const e of s.events) if (e.attributes) walk(e.attributes, counts);
    } else {
      const data = dataOf(a);
      if (data && data[scope] !== undefined) data[scope] = walk(data[scope]!, counts);
    }
    a[REDACTION_ATTRIBUTE] = { policy_version: version, counts };
  }

  return {
    version,
    redactText,
    redactSpans(spans) { for (const s of spans) redactSpan(s); },
  };
}

function dataOf(a: JsonObject): JsonObject | undefined {
  const ag = a.ag;
  if (!ag || typeof ag !== 'object' || Array.isArray(ag)) return undefined;
  const data = ag.data;
  return data && typeof data === 'object' && !Array.isArray(data) ? data : undefined;
}
