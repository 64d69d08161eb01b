import { describe, expect, it } from 'vitest';

import { cleanAg } from '../src/clean-ag.ts';
import type { JsonObject, JsonValue } from '../src/span.ts';

const EMPTY_METRICS = { duration: {}, errors: {}, tokens: {}, costs: {} };
const APP_ID = '0190c6a1-1b2c-7d3e-8f40-123456789abc';

function unsupported(ag: JsonValue): JsonValue | undefined {
  return cleanAg(ag).unsupported;
}

describe('cleanAg', () => {
  it('when ag is absent, then type, data and metrics are still present', () => {
    expect(cleanAg(undefined)).toEqual({ type: {}, data: {}, metrics: EMPTY_METRICS });
  });

  it('when ag is not an object, then it is kept as unsupported._invalid', () => {
    expect(cleanAg('oops')).toEqual({ type: {}, data: {}, metrics: EMPTY_METRICS, unsupported: { _invalid: 'oops' } });
  });

  it('when ag.unsupported is not an object, then it moves to unsupported._unsupported', () => {
    expect(unsupported({ unsupported: 7 })).toEqual({ _unsupported: 7 });
  });

  it('when ag.unsupported is an object, then later moves merge into it', () => {
    expect(unsupported({ unsupported: { old: 1 }, custom: 2 })).toEqual({ old: 1, custom: 2 });
  });

  describe('type', () => {
    it('when span and trace are valid (any case), then they are kept lower-case', () => {
      expect(cleanAg({ type: { span: 'LLM', trace: 'invocation' } }).type).toEqual({ trace: 'invocation', span: 'llm' });
    });

    it('when span is invalid or keys are unknown, then they move to unsupported.type', () => {
      const ag = cleanAg({ type: { span: 'generation', tree: 'x' } });
      expect(ag.type).toEqual({});
      expect(ag.unsupported).toEqual({ type: { span: 'generation', tree: 'x' } });
    });

    it('when only type.node is given, then it stands in for span', () => {
      expect(cleanAg({ type: { node: 'workflow' } }).type).toEqual({ span: 'workflow' });
    });
  });

  describe('data', () => {
    it('when parameters/inputs/internals are JSON object strings, then they are parsed; outputs stay strings', () => {
      const ag = cleanAg({ data: { parameters: '{"model":"gpt-4o"}', inputs: ' {"q":1}', internals: '{}', outputs: '{"a":1}' } });
      expect(ag.data).toEqual({ parameters: { model: 'gpt-4o' }, inputs: { q: 1 }, internals: {}, outputs: '{"a":1}' });
      expect(ag.unsupported).toBeUndefined();
    });

    it('when inputs is plain text, a list or a number, then it moves to unsupported.data', () => {
      const ag = cleanAg({ data: { inputs: 'hello', parameters: [1], internals: 3, outputs: [1, 2], extra: true } });
      expect(ag.data).toEqual({ outputs: [1, 2] });
      expect(ag.unsupported).toEqual({ data: { inputs: 'hello', parameters: [1], internals: 3, extra: true } });
    });

    it('when a JSON string parses to a list, then it moves to unsupported', () => {
      expect(unsupported({ data: { inputs: '[1,2]' } })).toEqual({ data: { inputs: '[1,2]' } });
    });
  });

  describe('metrics', () => {
    it('when duration and errors are numbers or dicts with total/count/value, then they are numbers', () => {
      const ag = cleanAg({ metrics: { duration: { cumulative: { total: 12.5 } }, errors: { incremental: { count: 2 }, cumulative: 3 } } });
      expect(ag.metrics).toEqual({ ...EMPTY_METRICS, duration: { cumulative: 12.5 }, errors: { incremental: 2, cumulative: 3 } });
    });

    it('when a scalar metric is a bool or has unknown sub-keys, then those move to unsupported.metrics', () => {
      const ag = cleanAg({ metrics: { duration: { cumulative: true, unit: 'ms' }, errors: 4 } });
      expect(ag.metrics).toEqual(EMPTY_METRICS);
      expect(ag.unsupported).toEqual({ metrics: { duration: { cumulative: true, unit: 'ms' }, errors: 4 } });
    });

    it('when tokens/costs vectors hold numbers, then they are kept; a non-number moves alone', () => {
      const ag = cleanAg({
        metrics: {
          tokens: { incremental: { prompt: 10, completion: '5', cache_read: 2 } },
          costs: { incremental: { total: 'abc', prompt: 0.1 }, acc: { total: 1 } },
          latency: 3,
        },
      });
      expect(ag.metrics).toEqual({
        ...EMPTY_METRICS,
        tokens: { incremental: { prompt: 10, completion: 5, cache_read: 2 } },
        costs: { incremental: { prompt: 0.1 } },
      });
      expect(ag.unsupported).toEqual({ metrics: { costs: { incremental: { total: 'abc' }, acc: { total: 1 } }, latency: 3 } });
    });
  });

  describe('references', () => {
    it('when keys are known, then id (as dashed UUID), slug and version (stringified) are kept', () => {
      const ag = cleanAg({
        references: { application: { id: APP_ID.replaceAll('-', '').toUpperCase(), slug: 'my-app', version: 3 }, testset: { slug: 'ts.v1' } },
      });
      expect(ag.references).toEqual({ application: { id: APP_ID, slug: 'my-app', version: '3' }, testset: { slug: 'ts.v1' } });
      expect(ag.unsupported).toBeUndefined();
    });

    it('when a key is unknown, an id is not a UUID or a slug is invalid, then they move to unsupported (not dropped)', () => {
      const ag = cleanAg({ references: { variant: { id: APP_ID }, application: { id: 'nope', slug: 'bad slug!', name: 'x' } } });
      expect(ag.references).toEqual({ application: {} });
      expect(ag.unsupported).toEqual({ references: { variant: { id: APP_ID }, application: { id: 'nope', slug: 'bad slug!', name: 'x' } } });
    });

    it('when ag.refs is sent, then it moves to unsupported (the reference drops it)', () => {
      expect(unsupported({ refs: { application: { id: APP_ID } } })).toEqual({ refs: { application: { id: APP_ID } } });
    });
  });

  describe('session and user', () => {
    it('when they hold an id, then only the id stays; other keys move to unsupported', () => {
      const ag = cleanAg({ session: { id: 's-1', name: 'n' }, user: { id: 42 } });
      expect(ag.session).toEqual({ id: 's-1' });
      expect(ag.user).toEqual({ id: '42' });
      expect(ag.unsupported).toEqual({ session: { name: 'n' } });
    });

    it('when they are not objects, then they move to unsupported', () => {
      expect(unsupported({ session: 'abc' })).toEqual({ session: 'abc' });
    });
  });

  describe('flags, tags, selector', () => {
    it('when values are bools, strings, 0/1 or nested maps, then they are kept (0/1 as bools)', () => {
      const ag = cleanAg({ flags: { is_sdk: 1, is_web: 0 }, tags: { env: 'prod', nested: { ok: true } } });
      expect(ag.flags).toEqual({ is_sdk: true, is_web: false });
      expect(ag.tags).toEqual({ env: 'prod', nested: { ok: true } });
    });

    it('when a tag is another number or a list, then only that tag moves to unsupported', () => {
      const ag = cleanAg({ tags: { env: 'prod', count: 5, nested: { list: [1] } } });
      expect(ag.tags).toEqual({ env: 'prod', nested: {} });
      expect(ag.unsupported).toEqual({ tags: { count: 5, nested: { list: [1] } } });
    });

    it('when a selector value is not a string, then it moves to unsupported', () => {
      const ag = cleanAg({ selector: { key: 'a', n: 1 } });
      expect(ag.selector).toEqual({ key: 'a' });
      expect(ag.unsupported).toEqual({ selector: { n: 1 } });
    });
  });

  describe('meta, exception and unknown sections', () => {
    it('when meta and exception are objects, then they are kept as sent', () => {
      const meta: JsonObject = { request: { model: 'gpt-4o', n: null } };
      const ag = cleanAg({ meta, exception: { type: 'ValueError' } });
      expect(ag.meta).toBe(meta);
      expect(ag.exception).toEqual({ type: 'ValueError' });
    });

    it('when meta.configuration is set and parameters are empty, then it becomes data.parameters', () => {
      const ag = cleanAg({ meta: { configuration: { model: 'gpt-4o' }, system: 'openai' } });
      expect(ag.data).toEqual({ parameters: { model: 'gpt-4o' } });
      expect(ag.meta).toEqual({ system: 'openai' });
    });

    it('when meta.configuration is set but parameters exist, then configuration moves to unsupported', () => {
      const ag = cleanAg({ data: { parameters: { model: 'a' } }, meta: { configuration: { model: 'b' } } });
      expect(ag.data).toEqual({ parameters: { model: 'a' } });
      expect(ag.meta).toEqual({});
      expect(ag.unsupported).toEqual({ meta: { configuration: { model: 'b' } } });
    });

    it('when sections are unknown (agent, hashes, links, custom), then they move to unsupported', () => {
      expect(unsupported({ agent: { id: 'a' }, hashes: [1], links: {}, custom: 'x' })).toEqual({
        agent: { id: 'a' },
        hashes: [1],
        links: {},
        custom: 'x',
      });
    });

    it('when values are null, then they are removed', () => {
      expect(cleanAg({ type: { span: null }, data: { inputs: null }, tags: null, meta: null })).toEqual({
        type: {},
        data: {},
        metrics: EMPTY_METRICS,
      });
    });
  });

  it('when cleaning, then the input is not mutated', () => {
    const input: JsonObject = { data: { inputs: '{"a":1}' }, meta: { configuration: { m: 1 } }, unsupported: { x: 1 }, foo: 1 };
    const snapshot = structuredClone(input);
    cleanAg(input);
    expect(input).toEqual(snapshot);
  });
});
