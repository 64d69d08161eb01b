// Examples for the document's request and response bodies. A body with a hand-written example
// (EXAMPLES, for the calls a client makes first) shows it; every other body gets one built from its
// JSON Schema: the smallest value that satisfies the schema, with realistic values chosen by field
// name and format (ids, times, e-mails, URLs). packages/openapi/test/examples.test.ts validates every
// example of the document against its schema, so a contract change cannot leave a wrong example.
import type { JsonObject } from './openapi-document.ts';

type Schema = JsonObject & {
  $ref?: string; type?: string | string[]; const?: unknown; enum?: unknown[]; default?: unknown; examples?: unknown[];
  anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[]; properties?: Record<string, Schema>; required?: string[];
  additionalProperties?: Schema | boolean; propertyNames?: Schema; items?: Schema; prefixItems?: Schema[]; minItems?: number;
  format?: string; pattern?: string; minLength?: number; maxLength?: number;
  minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number;
};

const UUID = '0190f3a1-7c2e-7a51-9b3d-4f6e8a2c1d05';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';
const TIME = '2026-01-15T09:30:00.000Z';

/** A realistic string for a field, by its name and format; the generator checks it against the schema before using it. */
function stringCandidates(name: string, s: Schema): string[] {
  const n = name.toLowerCase();
  const out: string[] = [];
  if (s.format === 'uuid' || /(^|_)(id|uid)$/.test(n) && !/trace_id|span_id/.test(n)) out.push(UUID);
  if (n.includes('trace_id')) out.push(TRACE_ID);
  if (n.includes('span_id') || n.includes('parent_id')) out.push(SPAN_ID);
  if (s.format === 'date-time' || /(_at|time|timestamp|oldest|newest)$/.test(n)) out.push(TIME);
  if (s.format === 'date') out.push('2026-01-15');
  if (s.format === 'email' || n.includes('email')) out.push('ada@example.com');
  if (s.format === 'uri' || s.format === 'url' || /url|uri|issuer/.test(n)) out.push('https://example.com/hook');
  if (n.includes('domain')) out.push('example.com');
  if (n === 'slug' || n.endsWith('_slug')) out.push('my-query');
  if (n === 'name' || n.endsWith('_name')) out.push('My project');
  if (n === 'kind') out.push('provider_key');
  if (n === 'role') out.push('editor');
  if (n === 'plan') out.push('cloud_v0_pro');
  if (n === 'prefix') out.push('Xy12Ab34');
  if (n === 'key' || n === 'value') out.push('sk-example-0000');
  if (n === 'version') out.push('1');
  // Fallbacks, in turn, for a pattern the name did not anticipate: a word, a hex id, an identity.
  out.push('example', 'a', UUID, TIME, '1', TRACE_ID, SPAN_ID, 'email:otp');
  return out;
}

function patternOk(s: Schema, v: string): boolean {
  if (typeof s.pattern !== 'string') return true;
  try { return new RegExp(s.pattern, 'u').test(v); } catch { return true; }
}

function stringFor(name: string, s: Schema): string {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Infinity;
  for (const c of stringCandidates(name, s)) {
    const v = c.length < min ? c.padEnd(min, 'x') : c;
    if (v.length <= max && patternOk(s, v)) return v;
  }
  return 'x'.repeat(Math.max(min, 1)).slice(0, Math.max(1, Math.min(max, Math.max(min, 1))));
}

function numberFor(name: string, s: Schema, integer: boolean): number {
  if (name === 'rate' && !integer) return 0.5;
  if (name === 'count' && (s.minimum ?? 0) <= 1) return 1;
  let lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 0.5) : undefined);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 0.5) : undefined);
  lo ??= Math.min(hi ?? 1, 1);
  let v = Math.max(lo, Math.min(hi ?? Math.max(lo, 10), 10));
  if (integer) v = Math.ceil(v);
  if (hi !== undefined && v > hi) v = hi;
  return v;
}

export class ExampleBuilder {
  constructor(private readonly components: Record<string, JsonObject>) {}

  private resolve(s: Schema): Schema {
    let cur = s;
    for (let i = 0; i < 16 && typeof cur.$ref === 'string'; i++) {
      const name = cur.$ref.replace('#/components/schemas/', '');
      const target = this.components[name] as Schema | undefined;
      if (!target) return {};
      const { $ref: _r, ...rest } = cur;
      cur = { ...target, ...rest };
    }
    return cur;
  }

  /** An instance of the schema (`name` is the property it fills, for realistic values). */
  build(schema: JsonObject, name = '', depth = 0): unknown {
    const s = this.resolve(schema as Schema);
    if (s.examples?.length) return s.examples[0];
    if ('const' in s) return s.const;
    if (s.enum?.length) return s.enum.find((v) => v !== null) ?? s.enum[0];
    if (s.default !== undefined) return s.default;
    const options = s.anyOf ?? s.oneOf;
    if (options?.length) {
      const nonNull = options.filter((o) => this.resolve(o).type !== 'null');
      return this.build((nonNull[0] ?? options[0])!, name, depth);
    }
    if (s.allOf?.length) {
      const parts = s.allOf.map((p) => this.build(p, name, depth));
      return parts.every((p) => p && typeof p === 'object' && !Array.isArray(p)) ? Object.assign({}, ...parts) : parts[0];
    }
    const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') ?? s.type[0] : s.type;
    switch (type) {
      case 'string': return stringFor(name, s);
      case 'integer': return numberFor(name, s, true);
      case 'number': return numberFor(name, s, false);
      case 'boolean': return true;
      case 'null': return null;
      case 'array': {
        const item = s.prefixItems?.[0] ?? s.items;
        if (!item || depth > 6) return [];
        const n = Math.max(s.minItems ?? 0, depth > 3 ? 0 : 1);
        return Array.from({ length: n }, () => this.build(item, name, depth + 1));
      }
      case 'object': return this.object(s, depth);
      default:
        // Any JSON value (a free-form field): an object with one attribute reads best.
        if (s.properties) return this.object(s, depth);
        return depth > 2 ? 'example' : { key: 'value' };
    }
  }

  private object(s: Schema, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required = new Set(s.required ?? []);
    const props = Object.entries(s.properties ?? {});
    // An object of optional fields below the top is often "one of these" (a reference by id, slug
    // or name): it shows its first field only.
    const onlyFirst = depth > 0 && required.size === 0;
    for (const [i, [k, v]] of props.entries()) {
      // Optional fields are shown near the top (they document the shape); deeper, only what is required.
      if (!required.has(k) && (onlyFirst ? i > 0 : depth > 1)) continue;
      const value = this.build(v, k, depth + 1);
      if (value === undefined) continue;
      out[k] = value;
    }
    const extra = s.additionalProperties;
    if (!s.properties && extra && typeof extra === 'object' && depth < 3) {
      const key = s.propertyNames ? stringFor('entry', this.resolve(s.propertyNames)) : 'entry';
      out[key] = this.build(extra, key, depth + 1);
    }
    return out;
  }
}

const TRACE_REQUEST = {
  trace: {
    trace_id: TRACE_ID,
    spans: {
      chat: {
        trace_id: TRACE_ID, span_id: SPAN_ID, span_name: 'chat', span_kind: 'SPAN_KIND_CLIENT',
        start_time: '2026-01-15T09:30:00.000Z', end_time: '2026-01-15T09:30:01.250Z', status_code: 'STATUS_CODE_OK',
        attributes: { ag: { type: { span: 'llm' }, data: { inputs: { prompt: 'Hello' }, outputs: { completion: 'Hi there' } } } },
      },
    },
  },
};

const SECRET = { header: { name: 'OpenAI key' }, secret: { kind: 'provider_key', data: { kind: 'openai', provider: { key: 'sk-example-0000' } } } };

/** Hand-written examples of the calls a client makes first, by route id (`request` / `response` bodies). */
export const EXAMPLES: Record<string, { request?: unknown; response?: unknown }> = {
  'keys.create': { request: { name: 'CI exporter' } },
  'projects.redaction.set': { request: { detectors: ['email', 'phone', 'card', 'iban', 'api_key', 'token'], custom: [{ name: 'employee_id', pattern: 'EMP-[0-9]{6}' }], apply_to: 'all' } },
  'secrets.create': { request: SECRET },
  'secrets.update': { request: SECRET },
  'vault.secrets.create': { request: SECRET },
  'vault.secrets.update': { request: SECRET },
  'auth.discover': {
    request: { email: 'ada@example.com' },
    response: { exists: true, methods: { 'email:otp': true, 'social:google': true, sso: { providers: [{ id: UUID, slug: 'okta', third_party_id: 'sso:acme:okta' }] } } },
  },
  'traces.create': {
    request: TRACE_REQUEST,
    response: { count: 1, trace_id: TRACE_ID },
  },
};
