import { describe, expect, it } from 'vitest';
import { applyAdapters, SEMCONV_ADAPTERS } from '../src/index.ts';
import type { FlatAttributes } from '../src/index.ts';

describe('applyAdapters', () => {
  it('when adapters run, then they run in reference order', () => {
    expect(SEMCONV_ADAPTERS.map((adapter) => adapter.name)).toEqual([
      'openllmetry',
      'openinference',
      'genai-semconv',
      'vercel-ai',
      'agenta',
    ]);
  });

  it('when two adapters set the same key, then the later adapter wins', () => {
    const attrs: FlatAttributes = {
      'llm.model_name': 'from-openinference',
      'gen_ai.response.model': 'from-genai',
      'openinference.span.kind': 'LLM',
      'gen_ai.operation.name': 'embeddings',
    };

    expect(applyAdapters(attrs, 'span')).toMatchObject({
      'ag.meta.response.model': 'from-genai',
      'ag.type.span': 'embedding',
    });
  });

  it('when a later adapter derives no valid span type, then the earlier one is kept', () => {
    const attrs: FlatAttributes = { 'openinference.span.kind': 'RERANKER', 'gen_ai.request.type': 'image' };

    expect(applyAdapters(attrs, 'span')).toHaveProperty(['ag.type.span'], 'rerank');
  });

  it('when adapters output keys, then raw attributes are kept in their order with ag.* keys after them', () => {
    const attrs: FlatAttributes = { 'input.value': 'hello', 'http.route': '/x', 'openinference.span.kind': 'CHAIN' };

    expect(Object.keys(applyAdapters(attrs, 'span'))).toEqual([
      'input.value',
      'http.route',
      'openinference.span.kind',
      'ag.data.inputs',
      'ag.type.span',
    ]);
  });

  it('when no convention matches, then the attributes come back untouched', () => {
    const attrs: FlatAttributes = { 'http.method': 'GET', 'http.status_code': 200 };

    expect(applyAdapters(attrs, 'GET /')).toEqual({ 'http.method': 'GET', 'http.status_code': 200 });
  });

  it('when the client sends an invalid ag.type.span and nothing else, then it is left for span cleaning to drop', () => {
    expect(applyAdapters({ 'ag.type.span': 'banana' }, 'span')).toEqual({ 'ag.type.span': 'banana' });
  });
});
