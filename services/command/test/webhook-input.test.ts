// The shaping rules of webhook subscription requests (domain/webhook-input.ts): full replace, the
// event form and back, answers without nulls, and the query's windowing.
import { describe, expect, it } from 'vitest';
import type { WebhookRow } from '@llm/account-model';
import { AppError } from '@llm/errors';
import { RequestValidationError } from '@llm/http';
import {
  checkSubscriptionFields, checkTemplate, requireSecretFor, SUBSCRIPTION_JSON_MAX_BYTES, secretNameOf, subscriptionFromRow, subscriptionOf, subscriptionView, webhookFilterOf, webhookInfo,
} from '../src/webhooks/domain/webhook-input.ts';

const ids = { id: '0190a000-0000-7000-8000-000000000001', projectId: '0190a000-0000-7000-8000-000000000002', secretId: '0190a000-0000-7000-8000-000000000003' };
const row = (over: Partial<WebhookRow> = {}): WebhookRow => ({
  id: ids.id, project_id: ids.projectId, name: null, description: null, tags: null, meta: null, is_active: true, url: 'https://h.example/x',
  headers: null, payload_fields: null, auth_mode: 'signature', event_types: null, secret_id: ids.secretId,
  created_at: new Date('2025-01-01T00:00:00Z'), updated_at: null, created_by_id: null, updated_by_id: null, version: 1, ...over,
});

describe('webhook input', () => {
  it('when a body omits fields, then a full replace nulls them and re-activates', () => {
    const s = subscriptionOf({ data: { url: 'https://h.example/x' } }, ids);
    expect(s).toMatchObject({ name: null, description: null, tags: null, meta: null, isActive: true, headers: null, payloadFields: undefined, authMode: 'signature', eventTypes: null });
    expect(subscriptionOf({ data: { url: 'https://h.example/x' }, flags: { is_active: false } }, ids).isActive).toBe(false);
    expect(subscriptionOf({ data: { url: 'https://h.example/x' }, flags: { is_active: false } }, ids, true).isActive).toBe(true);
  });

  it('when a subscription becomes an event, then JSON fields are text, empty for null, and a null event list means all', () => {
    const all = webhookInfo(subscriptionOf({ data: { url: 'https://h.example/x' } }, ids));
    expect(all).toMatchObject({ tags_json: '', meta_json: '', headers_json: '', payload_fields_json: '', all_event_types: true, event_types: [], auth_mode: 'signature', name: '' });
    const none = webhookInfo(subscriptionOf({ name: 'n', tags: { a: 1 }, data: { url: 'https://h.example/x', event_types: [], payload_fields: { x: '$.event' } } }, ids));
    expect(none).toMatchObject({ name: 'n', tags_json: '{"a":1}', payload_fields_json: '{"x":"$.event"}', all_event_types: false, event_types: [] });
  });

  it('when a row is answered, then nulls are omitted and the secret only when given', () => {
    const v = subscriptionView(row());
    expect(v).toEqual({ id: ids.id, created_at: '2025-01-01T00:00:00.000Z', flags: { is_active: true }, data: { url: 'https://h.example/x', auth_mode: 'signature' }, secret_id: ids.secretId });
    expect(subscriptionView(row({ event_types: [] }), 's').data.event_types).toEqual([]);
    expect(subscriptionView(row(), 's').secret).toBe('s');
    expect(subscriptionFromRow(row({ is_active: false, auth_mode: 'authorization' }))).toMatchObject({ isActive: false, authMode: 'authorization', payloadFields: undefined });
  });

  it('when a query is windowed, then limits below 1 are 1 and next bounds the ids; flags and meta are not filters', () => {
    expect(webhookFilterOf({})).toEqual({});
    expect(webhookFilterOf({ windowing: { limit: 0, next: ids.id } })).toEqual({ limit: 1, before: ids.id });
    expect(webhookFilterOf({ subscription: { name: 'a', description: 'b', tags: { k: 1 }, flags: { is_active: false }, meta: { m: 1 } } })).toEqual({ name: 'a', description: 'b', tags: { k: 1 } });
  });

  it('when authorization mode has no secret or a template nests too deep, then it is refused', () => {
    expect(() => requireSecretFor('authorization', undefined)).toThrow(AppError);
    expect(() => requireSecretFor('signature', undefined)).not.toThrow();
    let deep: unknown = 1;
    for (let i = 0; i < 11; i++) deep = [deep];
    expect(() => checkTemplate(deep, ['subscription'])).toThrow(RequestValidationError);
    expect(() => checkTemplate({ a: '$.x' }, ['subscription'])).not.toThrow();
    expect(secretNameOf(null)).toBe('webhook-subscription');
    expect(secretNameOf('n')).toBe('webhook-n');
  });

  it('when an authorization-mode secret cannot be a header value, then it is a 400 before anything is stored or sent', () => {
    for (const bad of ['Bearer a\r\nX-Injected: 1', 'a\nb', 'a\u0000b', 'caf\u00e9', 'emoji \u{1F600}', 'del\u007f', '\u0100']) {
      let error: unknown;
      try {
        requireSecretFor('authorization', bad);
      } catch (err) {
        error = err;
      }
      expect(error, JSON.stringify(bad)).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('webhook_secret_invalid');
      expect(() => checkSubscriptionFields({ data: { url: 'https://h.example/x', auth_mode: 'authorization' }, secret: bad }, ['subscription'])).toThrow(AppError);
    }
    for (const good of ['Bearer abc.DEF-123_~+/=', 'Basic dXNlcjpwYXNz', 'token\twith tab', '!"#$%&\'()*,:;<>?@[\\]^`{|}']) {
      expect(() => requireSecretFor('authorization', good)).not.toThrow();
      expect(() => checkSubscriptionFields({ data: { url: 'https://h.example/x', auth_mode: 'authorization' }, secret: good }, ['subscription'])).not.toThrow();
    }
    // Signature mode signs with the secret and never sends it: any text is fine.
    expect(() => requireSecretFor('signature', 'a\nb')).not.toThrow();
    expect(() => checkSubscriptionFields({ data: { url: 'https://h.example/x' }, secret: 'a\nb' }, ['subscription'])).not.toThrow();
    // An edit without a secret keeps the stored one.
    expect(() => checkSubscriptionFields({ data: { url: 'https://h.example/x', auth_mode: 'authorization' } }, ['subscription'])).not.toThrow();
  });

  it('when tags or meta are over 64 KiB of JSON, then it is a 422 on that field; the template is checked too', () => {
    const url = 'https://h.example/x';
    const fits = { v: 'x'.repeat(SUBSCRIPTION_JSON_MAX_BYTES - 8) };
    expect(Buffer.byteLength(JSON.stringify(fits))).toBe(SUBSCRIPTION_JSON_MAX_BYTES);
    expect(() => checkSubscriptionFields({ tags: fits, meta: fits, data: { url } }, ['subscription'])).not.toThrow();
    // UTF-8 bytes count: 'é' is two.
    const over = { v: 'é'.repeat(SUBSCRIPTION_JSON_MAX_BYTES / 2) };
    for (const field of ['tags', 'meta'] as const) {
      let error: unknown;
      try {
        checkSubscriptionFields({ [field]: over, data: { url } }, ['subscription']);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues).toEqual([{ loc: ['body', 'subscription', field], msg: `${field} must be at most 65536 bytes of JSON`, type: 'value_error' }]);
    }
    let deep: unknown = 1;
    for (let i = 0; i < 11; i++) deep = [deep];
    expect(() => checkSubscriptionFields({ data: { url, payload_fields: deep } }, ['subscription'])).toThrow(RequestValidationError);
  });
});
