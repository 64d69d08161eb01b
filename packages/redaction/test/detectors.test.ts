import { describe, expect, it } from 'vitest';
import type { Span } from '@llm/span-model';
import { compilePolicy, ibanValid, luhnValid, type RedactionPolicy, type Redactor } from '../src/index.ts';

function redactorOf(policy: RedactionPolicy = {}, version = 1): Redactor {
  const c = compilePolicy({ version, policy });
  if (!c.ok) throw new Error(`${c.field}: ${c.reason}`);
  return c.redactor;
}

const text = (s: string, policy?: RedactionPolicy): { out: string; counts: Record<string, number> } => {
  const counts: Record<string, number> = {};
  return { out: redactorOf(policy).redactText(s, counts), counts };
};

describe('built-in detectors', () => {
  it.each<[string, string, string]>([
    ['an e-mail address', 'write to jane.doe+ops@mail.example.co.uk today', 'write to [EMAIL] today'],
    ['a Visa number in groups', 'card 4111 1111 1111 1111 exp 09/27', 'card [CARD] exp 09/27'],
    ['an Amex number with hyphens', 'amex 3782-822463-10005.', 'amex [CARD].'],
    ['a card number written whole', 'pan=5555555555554444', 'pan=[CARD]'],
    ['an IBAN in print format', 'IBAN DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX', 'IBAN [IBAN] BIC COBADEFFXXX'],
    ['an IBAN written whole', 'to GB82WEST12345698765432.', 'to [IBAN].'],
    ['an OpenAI key', 'OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz012345', 'OPENAI_API_KEY=[API_KEY]'],
    ['an AWS access key id', 'aws AKIAIOSFODNN7EXAMPLE', 'aws [API_KEY]'],
    ['a GitHub token', 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'token [API_KEY]'],
    ['a bearer token (the scheme is kept)', 'Authorization: Bearer abc.def-ghi_jkl123', 'Authorization: Bearer [TOKEN]'],
    ['a JWT', 'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl', 'jwt [TOKEN]'],
    ['an IPv4 address', 'from 192.168.1.10, blocked', 'from [IP], blocked'],
    ['an IPv6 address', 'peer 2001:db8:85a3::8a2e:370:7334 left', 'peer [IP] left'],
    ['an international phone number', 'call +44 20 7946 0958 now', 'call [PHONE] now'],
    ['a North American phone number', 'call (415) 555-2671 or 415.555.2672', 'call [PHONE] or [PHONE]'],
    ['a national number with a trunk 0', 'Tel. 030 1234567', 'Tel. [PHONE]'],
  ])('when a value holds %s, then it becomes its placeholder', (_what, input, expected) => {
    expect(text(input).out).toBe(expected);
  });

  it.each<[string, string]>([
    ['a date and a time', 'on 2024-11-28 at 10:30:15'],
    ['a three-part version', 'upgrade to 1.24.3'],
    ['a 16-digit number that fails Luhn', 'reference 4111111111111112'],
    ['a millisecond timestamp', 'ts 1732760000000'],
    ['an order number', 'order ORD-2024-000123'],
    ['a UUID', 'id 0af76519-16cd-43dd-8448-eb211c80319c'],
    ['C++ scope operators', 'std::vector<int> v = a::b();'],
    ['a price', 'total $1,234.50 for 3 items'],
    ['an IBAN with a wrong check', 'DE00 3704 0044 0532 0130 00'],
    ['a word with sk- inside', 'the risk-assessment-of-the-whole-module-and-more'],
  ])('when a value holds %s, then it is kept as written', (_what, input) => {
    expect(text(input)).toEqual({ out: input, counts: {} });
  });

  it('when a value holds several, then each detector counts what it replaced', () => {
    const r = text('a@b.io, c@d.io, 4111111111111111 and 10.0.0.1');
    expect(r.out).toBe('[EMAIL], [EMAIL], [CARD] and [IP]');
    expect(r.counts).toEqual({ email: 2, card: 1, ip: 1 });
  });

  it('when the policy names detectors, then only those run', () => {
    expect(text('a@b.io 10.0.0.1', { detectors: ['ip'] }).out).toBe('a@b.io [IP]');
  });

  it('when a custom pattern is set, then it runs before the built-ins with its placeholder', () => {
    const r = text('EMP-123456 and EMP-654321 at x@y.io', { custom: [{ name: 'employee', pattern: 'EMP-[0-9]{6}' }, { name: 'site', pattern: 'x@y', placeholder: '[SITE]' }] });
    expect(r.out).toBe('[EMPLOYEE] and [EMPLOYEE] at [SITE].io');
    expect(r.counts).toEqual({ employee: 2, site: 1 });
  });

  it('when a custom pattern takes a built-in name, then the policy does not compile', () => {
    expect(compilePolicy({ version: 1, policy: { custom: [{ name: 'email', pattern: 'x' }] } })).toMatchObject({ ok: false, field: 'custom.0.name' });
  });

  it('when checksums are computed, then Luhn and mod-97 agree with known numbers', () => {
    expect([luhnValid('4111 1111 1111 1111'), luhnValid('4111111111111112'), ibanValid('GB82WEST12345698765432'), ibanValid('GB83WEST12345698765432')]).toEqual([true, false, true, false]);
  });
});

function span(attributes: Span['attributes'], extra: Partial<Span> = {}): Span {
  return {
    trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331', span_name: 'chat', span_kind: 'SPAN_KIND_CLIENT', span_type: 'chat',
    trace_type: 'invocation', status_code: 'STATUS_CODE_OK', start_time: '2026-01-01T00:00:00.000000Z', end_time: '2026-01-01T00:00:01.000000Z',
    attributes, events: [], references: [], hashes: [], ...extra,
  };
}

describe('redactSpans', () => {
  const attrs = (): Span['attributes'] => ({
    ag: { type: { span: 'chat' }, data: { inputs: { prompt: 'mail me at a@b.io', list: ['call +1 415 555 2671'] }, outputs: 'sure, a@b.io' }, metrics: {} },
    'http.client_ip': '10.1.2.3',
  });

  it('when the policy applies to inputs, then only ag.data.inputs changes, and the span records counts and version', () => {
    const s = span(attrs());
    redactorOf({ apply_to: 'inputs' }, 7).redactSpans([s]);
    expect(s.attributes).toEqual({
      ag: { type: { span: 'chat' }, data: { inputs: { prompt: 'mail me at [EMAIL]', list: ['call [PHONE]'] }, outputs: 'sure, a@b.io' }, metrics: {} },
      'http.client_ip': '10.1.2.3',
      redaction: { policy_version: 7, counts: { email: 1, phone: 1 } },
    });
  });

  it('when the policy applies to outputs, then only ag.data.outputs changes', () => {
    const s = span(attrs());
    redactorOf({ apply_to: 'outputs' }).redactSpans([s]);
    expect(s.attributes.ag).toMatchObject({ data: { inputs: { prompt: 'mail me at a@b.io' }, outputs: 'sure, [EMAIL]' } });
    expect(s.attributes.redaction).toEqual({ policy_version: 1, counts: { email: 1 } });
  });

  it('when the policy applies to all, then every attribute, event attribute and the status message change, and a client-sent redaction record is replaced', () => {
    const s = span({ ...attrs(), redaction: { policy_version: 99, counts: { leaked: 'x@y.io' } } }, {
      status_message: 'failed for a@b.io', events: [{ name: 'exception', timestamp: '2026-01-01T00:00:00.500000Z', attributes: { 'exception.message': 'key sk-abcdefghijklmnopqrstuvwxyz' } }],
    });
    redactorOf({}, 3).redactSpans([s]);
    expect(s.attributes['http.client_ip']).toBe('[IP]');
    expect(s.status_message).toBe('failed for [EMAIL]');
    expect(s.events[0]!.attributes).toEqual({ 'exception.message': 'key [API_KEY]' });
    expect(s.attributes.redaction).toEqual({ policy_version: 3, counts: { email: 3, phone: 1, ip: 1, api_key: 1 } });
  });

  it('when the policy applies to all, then the span\'s user and session columns are redacted like their attributes', () => {
    const s = span({ ag: { user: { id: 'jane@example.com' }, session: { id: 's-1' } } }, { user_id: 'jane@example.com', session_id: 's-1' });
    redactorOf().redactSpans([s]);
    expect([s.user_id, s.session_id, (s.attributes.ag as { user: { id: string } }).user.id]).toEqual(['[EMAIL]', 's-1', '[EMAIL]']);
    expect(s.attributes.redaction).toEqual({ policy_version: 1, counts: { email: 2 } });
  });

  it('when an attribute is named __proto__, then its value is redacted as an own property', () => {
    const attributes = JSON.parse('{"__proto__": "a@b.io", "x": {"__proto__": ["c@d.io"]}}') as Span['attributes'];
    const s = span(attributes);
    redactorOf().redactSpans([s]);
    expect(JSON.stringify(s.attributes)).toBe('{"__proto__":"[EMAIL]","x":{"__proto__":["[EMAIL]"]},"redaction":{"policy_version":1,"counts":{"email":2}}}');
    expect(Object.getPrototypeOf(s.attributes)).toBe(Object.prototype);
  });
});
