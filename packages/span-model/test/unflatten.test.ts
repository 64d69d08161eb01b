import { describe, expect, it } from 'vitest';

import { unflatten } from '../src/unflatten.ts';

describe('unflatten', () => {
  it('when keys are dotted, then they become nested paths', () => {
    expect(unflatten({ 'ag.data.inputs.country': 'France', 'ag.data.outputs': 'Paris', plain: 1 })).toEqual({
      ag: { data: { inputs: { country: 'France' }, outputs: 'Paris' } },
      plain: 1,
    });
  });

  it('when a segment is numeric, then it creates an array', () => {
    expect(unflatten({ 'some.more.array.0': 'a', 'some.more.array.1': 'b', 'msgs.0.role': 'user', 'msgs.0.content': 'hi' })).toEqual({
      some: { more: { array: ['a', 'b'] } },
      msgs: [{ role: 'user', content: 'hi' }],
    });
  });

  it('when indexes skip, then the holes are null', () => {
    expect(unflatten({ 'a.2': 'c' })).toEqual({ a: [null, null, 'c'] });
  });

  it('when an index is huge, then it is an object key rather than a huge array', () => {
    expect(unflatten({ 'a.99999999': 1 })).toEqual({ a: { '99999999': 1 } });
  });

  it('when flat and nested forms mix, then they merge (nested first)', () => {
    expect(unflatten({ ag: { data: { inputs: { a: 1 } } }, 'ag.data.inputs.country': 'FR' })).toEqual({
      ag: { data: { inputs: { a: 1, country: 'FR' } } },
    });
  });

  it('when flat and nested forms mix, then they merge (flat first)', () => {
    expect(unflatten({ 'ag.data.inputs.country': 'FR', ag: { data: { outputs: 'x' } } })).toEqual({
      ag: { data: { inputs: { country: 'FR' }, outputs: 'x' } },
    });
  });

  it('when two scalars land on one path, then the later key wins', () => {
    expect(unflatten({ 'a.b': 1, a: { b: 2 } })).toEqual({ a: { b: 2 } });
  });

  it('when a deeper key lands under a scalar, then the scalar stays and the deeper value is kept beside it', () => {
    expect(unflatten({ 'ai.prompt': '{"system":"s"}', 'ai.prompt.messages': '[]' })).toEqual({
      ai: { prompt: '{"system":"s"}', 'prompt.messages': '[]' },
    });
  });

  it('when a scalar lands on an existing object, then the result is the same as in the other order', () => {
    expect(unflatten({ 'ai.prompt.messages': '[]', 'ai.prompt': '{"system":"s"}' })).toEqual({
      ai: { prompt: '{"system":"s"}', 'prompt.messages': '[]' },
    });
  });

  it('when a non-numeric key lands under an array, then the array becomes an object keyed by index', () => {
    expect(unflatten({ 'x.0': 'a', 'x.name': 'n' })).toEqual({ x: { '0': 'a', name: 'n' } });
  });

  it('when a nested value has dotted keys, then they are left alone (user data)', () => {
    expect(unflatten({ ag: { data: { inputs: { 'file.txt': 'content' } } } })).toEqual({
      ag: { data: { inputs: { 'file.txt': 'content' } } },
    });
  });

  it('when merging into an object from the input, then the input is not mutated', () => {
    const nested = { data: { inputs: { a: 1 } } };
    const input = { ag: nested, 'ag.data.inputs.b': 2 };
    const snapshot = structuredClone(input);
    unflatten(input);
    expect(input).toEqual(snapshot);
  });

  it('when a key is __proto__, then it is an own key and no prototype changes', () => {
    const input = JSON.parse('{"a.__proto__.polluted": 1, "__proto__": {"x": 1}}') as Record<string, never>;
    const out = unflatten(input);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
  });
});
