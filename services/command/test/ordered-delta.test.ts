// A workflow commit's ordered delta (ordered-delta.ts): each operation on a copy of the base data,
// in order; the first that cannot apply names its index and reason; the base is never changed.
import { describe, expect, it } from 'vitest';
import type { WorkflowOperation } from '@llm/contracts';
import { applyOperations } from '../src/artifacts/domain/ordered-delta.ts';

const base = () => ({
  uri: 'agenta:builtin:completion:v0',
  parameters: { prompt: { messages: [{ role: 'system', content: 'Be brief. Be kind.' }, { role: 'user', content: '{{q}}' }], temperature: 0.2 } },
});
const run = (...ops: WorkflowOperation[]) => applyOperations(base(), ops);

describe('ordered workflow deltas', () => {
  it('sets, merges and removes along a path of keys and indices, in order', () => {
    const r = run(
      { operation: 'set', target: ['parameters', 'prompt', 'temperature'], value: 0.7 },
      { operation: 'merge', target: ['parameters', 'prompt'], value: { model: 'gpt-4o', temperature: 0.9 } },
      { operation: 'set', target: ['parameters', 'extra', 'depth'], value: 2 },
      { operation: 'remove', target: ['parameters', 'prompt', 'messages', 1] },
    );
    expect(r).toEqual({ ok: true, data: {
      uri: 'agenta:builtin:completion:v0',
      parameters: { prompt: { messages: [{ role: 'system', content: 'Be brief. Be kind.' }], temperature: 0.9, model: 'gpt-4o' }, extra: { depth: 2 } },
    } });
  });

  it('edits text by occurrence: the first by default, all, or exactly one', () => {
    const at: WorkflowOperation['target'] = ['parameters', 'prompt', 'messages', 0, 'content'];
    const text = (r: ReturnType<typeof run>) => (r.ok ? (r.data.parameters as any).prompt.messages[0].content : r.failure);
    expect(text(run({ operation: 'edit_text', target: at, edits: [{ old: 'Be', new: 'Stay' }] }))).toBe('Stay brief. Be kind.');
    expect(text(run({ operation: 'edit_text', target: at, edits: [{ old: 'Be', new: 'Stay' }], match_mode: 'all' }))).toBe('Stay brief. Stay kind.');
    expect(text(run({ operation: 'edit_text', target: at, edits: [{ old: 'brief', new: 'short' }, { old: 'short', new: 'terse' }], match_mode: 'exact' }))).toBe('Be terse. Be kind.');
    expect(text(run({ operation: 'edit_text', target: at, edits: [{ old: 'Be', new: 'x' }], match_mode: 'exact' }))).toMatchObject({ index: 0, code: 'text_ambiguous' });
    expect(text(run({ operation: 'edit_text', target: at, edits: [{ old: 'absent', new: 'x' }] }))).toMatchObject({ code: 'text_not_found' });
    expect(text(run({ operation: 'edit_text', target: ['parameters', 'prompt', 'temperature'], edits: [{ old: '0', new: '1' }] }))).toMatchObject({ code: 'target_type' });
  });

  it('adds, replaces and removes array items', () => {
    const msgs = ['parameters', 'prompt', 'messages'];
    const r = run(
      { operation: 'add_item', target: msgs, value: { role: 'assistant', content: 'ok' } },
      { operation: 'replace_item', target: [...msgs, 0], value: { role: 'system', content: 'New.' } },
      { operation: 'remove_item', target: [...msgs, 1] },
      { operation: 'add_item', target: ['parameters', 'tools'], value: 'search' },
    );
    expect(r.ok && (r.data.parameters as any).prompt.messages).toEqual([{ role: 'system', content: 'New.' }, { role: 'assistant', content: 'ok' }]);
    expect(r.ok && (r.data.parameters as any).tools).toEqual(['search']);
  });

  it('fails on the first operation that cannot apply, naming its index; the base is untouched', () => {
    const b = base();
    const r = applyOperations(b, [
      { operation: 'set', target: ['parameters', 'prompt', 'temperature'], value: 1 },
      { operation: 'remove', target: ['parameters', 'missing'] },
      { operation: 'set', target: ['uri'], value: 'never applied' },
    ]);
    expect(r).toMatchObject({ ok: false, failure: { index: 1, code: 'target_not_found' } });
    expect(b).toEqual(base());
    expect(run({ operation: 'remove_item', target: ['parameters', 'prompt', 'messages', 5] })).toMatchObject({ ok: false, failure: { code: 'target_not_found' } });
    expect(run({ operation: 'replace_item', target: ['parameters', 'prompt'], value: 1 })).toMatchObject({ ok: false, failure: { code: 'target_type' } });
    expect(run({ operation: 'merge', target: ['uri'], value: { a: 1 } })).toMatchObject({ ok: false, failure: { code: 'target_type' } });
    expect(run({ operation: 'remove', target: [] })).toMatchObject({ ok: false, failure: { code: 'target_required' } });
    expect(run({ operation: 'set', target: ['parameters', 'prompt', 'messages', 'x'], value: 1 })).toMatchObject({ ok: false, failure: { code: 'target_type' } });
  });

  it('sets or merges the data itself with an empty target', () => {
    expect(run({ operation: 'set', target: [], value: { uri: 'agenta:custom:mock:v0' } })).toEqual({ ok: true, data: { uri: 'agenta:custom:mock:v0' } });
    expect(run({ operation: 'merge', target: [], value: { url: 'http://x' } })).toMatchObject({ ok: true, data: { url: 'http://x', uri: 'agenta:builtin:completion:v0' } });
    expect(run({ operation: 'set', target: [], value: 3 })).toMatchObject({ ok: false, failure: { code: 'value_type' } });
  });

  it('treats __proto__ as an ordinary key: no operation reaches a prototype', () => {
    const r = run(
      { operation: 'set', target: ['__proto__', 'polluted'], value: 'yes' },
      { operation: 'merge', target: ['parameters', '__proto__'], value: { polluted: 'yes' } },
      { operation: 'add_item', target: ['constructor', 'prototype', 'list'], value: 1 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(r.ok && Object.hasOwn(r.data, '__proto__')).toBe(true);
    expect(r.ok && Object.getPrototypeOf(r.data)).toBe(Object.prototype);
    expect(r.ok && JSON.parse(JSON.stringify(r.data)).constructor.prototype.list).toEqual([1]);
    expect(run({ operation: 'remove', target: ['__proto__', 'hasOwnProperty'] })).toMatchObject({ ok: false, failure: { code: 'target_not_found' } });
    expect(run({ operation: 'remove', target: ['toString'] })).toMatchObject({ ok: false, failure: { code: 'target_not_found' } });
    expect(typeof Object.prototype.hasOwnProperty).toBe('function');
  });
});
