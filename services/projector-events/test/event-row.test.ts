import { describe, expect, it } from 'vitest';
import { decodeEvent, encodeEvent } from '@llm/events';
import { platformEventRow } from '../src/domain/event-row.ts';

const project = '0195F0A0-0000-7000-8000-000000000001';
const id = '0195f0a0-0000-7000-8000-00000000000a';
const decoded = (attributes: string, meta: { requestId?: string; eventId?: string; timeUs?: number } = {}) => {
  const d = decodeEvent(encodeEvent('platform.event.recorded', { event_type: 'traces.queried', request_type: 'router2', status_code: '', status_message: '', attributes_json: attributes, user_id: 'u1' },
    { projectId: project, eventId: id, timeUs: Date.UTC(2025, 0, 1) * 1000 + 7, ...meta }));
  if (!d.ok) throw new Error(d.error);
  return d.value;
};

describe('platform event row', () => {
  it('when a record maps, then ids are canonical, user_id is present and the time keeps its microseconds', () => {
    const r = platformEventRow(decoded('{"count":1}', { requestId: 'req-1' }), Date.UTC(2025, 0, 1, 0, 0, 1));
    if (!r.ok) throw new Error(r.error);
    expect(r.value).toMatchObject({ project_id: project.toLowerCase(), event_id: id, request_type: 'unknown', timestamp: '2025-01-01 00:00:00.000007', created_at: '2025-01-01 00:00:01.000000' });
    expect(JSON.parse(r.value.attributes)).toEqual({ user_id: 'u1', count: 1 });
    // A request id that is not a UUID maps to the same UUID every time (replays agree).
    expect(r.value.request_id).toMatch(/^[0-9a-f-]{36}$/);
    const again = platformEventRow(decoded('{"count":1}', { requestId: 'req-1' }), 0);
    expect(again.ok && again.value.request_id).toBe(r.value.request_id);
  });

  it('when a record cannot be a row, then it is an error (dead-lettered by the consumer)', () => {
    expect(platformEventRow(decoded('[1]'), 0).ok).toBe(false);
    expect(platformEventRow(decoded('{'), 0).ok).toBe(false);
    expect(platformEventRow(decoded('{}', { eventId: 'nope' }), 0).ok).toBe(false);
    expect(platformEventRow(decoded('{}', { timeUs: Date.UTC(1800, 0, 1) * 1000 }), 0).ok).toBe(false);
  });
});
