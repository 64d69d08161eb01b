import { describe, expect, it } from 'vitest';
import { decodeOne } from '../fixtures/build-request.ts';
import { agentaWorkflow } from '../fixtures/llm-spans.ts';

describe('Agenta default adapter', () => {
  it('when an Agenta SDK span is decoded, then tagged values are decoded and legacy names renamed', () => {
    const { attributes } = decodeOne(agentaWorkflow);

    expect(attributes).toEqual({
      'ag.data.inputs': { country: 'France' },
      'ag.data.outputs': 'Paris',
      'ag.data.internals.retries': 1,
      'ag.meta.configuration': { model: 'gpt-4o', temperature: 0.2 },
      'ag.meta.note': null,
      'ag.tags.env': 'prod',
      'ag.flags.is_sdk': true,
      'ag.session.id': 'session-1',
      'ag.metrics.tokens.incremental.prompt': 30,
      'ag.metrics.tokens.incremental.completion': 5,
      'ag.metrics.costs.incremental.total': 0.0012,
      'ag.metrics.tokens.cumulative.total': 35,
      'ag.references.application.id': '0190c0de-0000-7000-8000-000000000001',
      'ag.references.application_variant.slug': 'default',
      'ag.references.application_revision.version': 3,
      'ag.type.span': 'workflow',
    });
  });

  it('when the client sends a valid ag.type.span, then it is honoured over ag.type.node and adapter types', () => {
    const { attributes } = decodeOne({ 'ag.type.span': 'llm', 'ag.type.node': 'workflow', 'gen_ai.operation.name': 'chat' });

    expect(attributes).toHaveProperty(['ag.type.span'], 'llm');
  });

  it('when ag.type.node is sent without ag.type.span, then it overrides the adapter-derived type', () => {
    const { attributes } = decodeOne({ 'openinference.span.kind': 'LLM', 'ag.type.node': 'Completion' });

    expect(attributes).toHaveProperty(['ag.type.span'], 'completion');
    expect(attributes).not.toHaveProperty(['ag.type.node']);
  });

  it('when ag.type.node is not a span type, then the adapter type wins and the node value stays for quarantine', () => {
    const { attributes } = decodeOne({ 'openinference.span.kind': 'TOOL', 'ag.type.node': 'retriever' });

    expect(attributes).toMatchObject({ 'ag.type.span': 'tool', 'ag.type.node': 'retriever' });
  });

  it('when ag.links.* attributes are present, then the other ag.* features are still extracted', () => {
    const { attributes, links } = decodeOne(
      { 'ag.links.invocation.trace_id': 'abc', 'ag.data.inputs': '@ag.type=json:{"a":1}', 'ag.type.node': 'chain' },
      { links: [{ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', attributes: { key: 'invocation' } }] },
    );

    expect(attributes).toMatchObject({
      'ag.links.invocation.trace_id': 'abc',
      'ag.data.inputs': { a: 1 },
      'ag.type.span': 'chain',
    });
    expect(links).toHaveLength(1);
  });

  it('when a tagged value is not valid JSON, then the original string is kept', () => {
    const { attributes } = decodeOne({ 'ag.data.inputs': '@ag.type=json:{not json' });

    expect(attributes).toHaveProperty(['ag.data.inputs'], '@ag.type=json:{not json');
  });

  it('when ag.* attributes are set, then they win over what other adapters inferred for the same key', () => {
    const { attributes } = decodeOne({
      'gen_ai.usage.input_tokens': 10,
      'ag.metrics.unit.tokens.prompt': 12,
      'gen_ai.response.model': 'from-genai',
      'ag.meta.response.model': 'from-agenta',
    });

    expect(attributes).toMatchObject({
      'ag.metrics.tokens.incremental.prompt': 12,
      'ag.meta.response.model': 'from-agenta',
    });
  });
});
