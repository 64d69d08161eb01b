// The static workflow catalog (E§2.5 "Catalog", E§2.6, E§2.7 "Routes"): which templates each role
// lists, the presets, the ag-type and harness registries, and that every default and preset is
// valid under the schemas the catalog itself publishes.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  CATALOG_HARNESSES, CATALOG_TYPES, catalogHarness, catalogPreset, catalogPresets, catalogTemplate, catalogTemplates, catalogType,
  hydratedEvaluatorData, type CatalogRole,
} from '../src/aggregates/artifact/catalog.ts';
import { WORKFLOW_HANDLERS, inferRevisionFlags } from '../src/aggregates/artifact/kinds/workflow.ts';

const ACTIVE = [
  'auto_exact_match', 'auto_regex_test', 'json_multi_field_match', 'auto_webhook_test', 'auto_custom_code_run', 'auto_ai_critique',
  'auto_contains_json', 'auto_json_diff', 'auto_levenshtein_distance', 'auto_similarity_match', 'auto_semantic_similarity', 'match',
  'prompt', 'echo', 'llm',
];
const ARCHIVED = ['field_match_test', 'auto_starts_with', 'auto_ends_with', 'auto_contains', 'auto_contains_any', 'auto_contains_all'];
const CUSTOM = ['code', 'hook', 'feedback', 'mock'];

const keys = (role: CatalogRole, includeArchived = false) => catalogTemplates(role, includeArchived).map((t) => t.key);

/** A validator that also checks the two formats the catalog uses (ajv ships none). */
function validator(): Ajv {
  const ajv = new Ajv({ strict: false });
  ajv.addFormat('uri', (value: string) => URL.canParse(value));
  ajv.addFormat('regex', (value: string) => {
    try {
      new RegExp(value);
      return true;
    } catch {
      return false;
    }
  });
  return ajv;
}

describe('catalog templates by role', () => {
  it('given the workflow catalog, when listed with archived ones, then it has every template in declared order with its URI kind', () => {
    const templates = catalogTemplates('workflow', true);
    expect(templates.map((t) => t.key)).toEqual([...ACTIVE, ...ARCHIVED, ...CUSTOM]);
    for (const t of templates) {
      expect(t.data.uri).toBe(`agenta:${CUSTOM.includes(t.key) ? 'custom' : 'builtin'}:${t.key}:v0`);
    }
  });

  it('given the evaluator catalog, when listed, then it has the evaluator-capable templates only, never completion or chat', () => {
    const listed = keys('evaluator');
    expect(listed).not.toContain('completion');
    expect(listed).not.toContain('chat');
    expect(listed).toEqual(expect.arrayContaining(['auto_exact_match', 'auto_ai_critique', 'prompt', 'feedback']));
    for (const t of catalogTemplates('evaluator', true)) expect(t.flags.is_evaluator).toBe(true);
  });

  it('given the application catalog, when listed, then it has prompt, echo, llm and mock and no evaluator-only template', () => {
    const listed = keys('application');
    expect(listed).toEqual(expect.arrayContaining(['prompt', 'echo', 'llm', 'mock']));
    expect(listed).not.toContain('auto_exact_match');
    expect(listed).not.toContain('feedback');
    for (const t of catalogTemplates('application', true)) expect(t.flags.is_application).toBe(true);
  });

  it('given archived templates, when listed without include_archived, then they are hidden; with it, they are shown flagged', () => {
    for (const key of ARCHIVED) expect(keys('evaluator')).not.toContain(key);
    const withArchived = catalogTemplates('evaluator', true);
    for (const key of ARCHIVED) expect(withArchived.find((t) => t.key === key)?.flags.is_archived).toBe(true);
    expect(withArchived.filter((t) => t.flags.is_archived).map((t) => t.key)).toEqual(ARCHIVED);
  });

  it('given a template, then its role flags are the ones a commit of its URI infers', () => {
    for (const t of catalogTemplates('workflow', true)) {
      const inferred = inferRevisionFlags({ uri: t.data.uri });
      if (!inferred.ok) throw new Error(`${t.key}: ${inferred.message}`);
      const { is_application, is_evaluator, is_snippet } = inferred.flags;
      expect({ is_application, is_evaluator, is_snippet }).toEqual({ is_application: t.flags.is_application, is_evaluator: t.flags.is_evaluator, is_snippet: t.flags.is_snippet });
      expect(Object.hasOwn(WORKFLOW_HANDLERS, t.key)).toBe(true);
    }
  });

  it('given the recommended templates, then they are the common ones', () => {
    expect(catalogTemplates('workflow', true).filter((t) => t.flags.is_recommended).map((t) => t.key))
      .toEqual(['auto_exact_match', 'auto_custom_code_run', 'auto_ai_critique', 'auto_json_diff', 'prompt']);
  });

  it('when a template is fetched by key, then archived ones are found, other roles\' and unknown ones are not', () => {
    expect(catalogTemplate('evaluator', 'auto_contains')?.flags.is_archived).toBe(true);
    expect(catalogTemplate('application', 'auto_exact_match')).toBeUndefined();
    expect(catalogTemplate('workflow', 'auto_exact_match')?.key).toBe('auto_exact_match');
    expect(catalogTemplate('workflow', 'completion')).toBeUndefined();
    expect(catalogTemplate('evaluator', 'nope')).toBeUndefined();
  });

  it('when a returned template is changed, then the catalog is not', () => {
    const t = catalogTemplate('evaluator', 'auto_exact_match');
    if (!t) throw new Error('missing');
    t.name = 'changed';
    t.data.schemas.parameters.type = 'string';
    expect(catalogTemplate('evaluator', 'auto_exact_match')?.name).toBe('Exact match');
    expect(catalogTemplate('evaluator', 'auto_exact_match')?.data.schemas.parameters.type).toBe('object');
  });
});

describe('catalog presets', () => {
  it.each([
    ['auto_ai_critique', ['hallucination', 'conciseness', 'answer_relevancy', 'helpfulness']],
    ['auto_custom_code_run', ['python_default', 'javascript_default', 'typescript_default']],
    ['auto_regex_test', ['starts_with', 'ends_with', 'contains', 'contains_any', 'contains_all']],
  ])('given %s, when its presets are listed, then they are %j, with the template\'s uri and flags', (key, expected) => {
    const template = catalogTemplate('evaluator', key);
    const presets = catalogPresets('evaluator', key);
    expect(presets.map((p) => p.key)).toEqual(expected);
    for (const p of presets) {
      expect(p.data.uri).toBe(template?.data.uri);
      expect(p.flags).toEqual(template?.flags);
      expect(catalogPreset('evaluator', key, p.key)).toEqual(p);
    }
  });

  it('given an unknown template, one without presets or an unknown preset, then there are none', () => {
    expect(catalogPresets('evaluator', 'nope')).toEqual([]);
    expect(catalogPresets('evaluator', 'auto_exact_match')).toEqual([]);
    expect(catalogPresets('application', 'auto_ai_critique')).toEqual([]);
    expect(catalogPreset('evaluator', 'auto_regex_test', 'nope')).toBeUndefined();
  });

  it('given a preset, then its parameters are the template defaults overridden by its values', () => {
    const preset = catalogPreset('evaluator', 'auto_custom_code_run', 'javascript_default');
    expect(preset?.data.parameters).toMatchObject({ runtime: 'javascript', correct_answer_key: 'correct_answer' });
    expect(preset?.data.parameters.code).toContain('function evaluate(');
    const critique = catalogPreset('evaluator', 'auto_ai_critique', 'hallucination');
    expect(JSON.stringify(critique?.data.parameters.prompt_template)).toContain('{{outputs}}');
    expect(critique?.data.parameters.model).toBe('gpt-4o-mini');
  });

  it('given the regex presets, then their patterns match what their names say', () => {
    const pattern = (key: string) => new RegExp(String(catalogPreset('evaluator', 'auto_regex_test', key)?.data.parameters.regex_pattern));
    expect(pattern('starts_with').test('prefix and more')).toBe(true);
    expect(pattern('ends_with').test('more and suffix')).toBe(true);
    expect(pattern('contains_any').test('only second here')).toBe(true);
    expect(pattern('contains_all').test('second, then\nfirst')).toBe(true);
    expect(pattern('contains_all').test('only first')).toBe(false);
  });
});

describe('catalog schemas', () => {
  const ajv = validator();

  it('given every template, then its defaults validate against its parameters schema and its outputs schema compiles', () => {
    for (const t of catalogTemplates('workflow', true)) {
      const validate = ajv.compile(t.data.schemas.parameters);
      expect(validate(t.data.parameters), `${t.key}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      if (t.data.schemas.outputs) expect(() => ajv.compile(t.data.schemas.outputs ?? {}), t.key).not.toThrow();
    }
  });

  it('given every evaluator-only template, then it declares an outputs object schema', () => {
    for (const t of catalogTemplates('evaluator', true).filter((t) => !t.flags.is_application)) {
      expect(t.data.schemas.outputs?.type, t.key).toBe('object');
    }
  });

  it('given every preset, then its parameters validate against its template\'s parameters schema', () => {
    for (const t of catalogTemplates('workflow', true)) {
      const validate = ajv.compile(t.data.schemas.parameters);
      for (const p of catalogPresets('workflow', t.key)) {
        expect(validate(p.data.parameters), `${t.key}/${p.key}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
  });

  it('given the schemas, when a parameter has the wrong type, then it is refused', () => {
    const regex = catalogTemplate('evaluator', 'auto_regex_test');
    const similarity = catalogTemplate('evaluator', 'auto_similarity_match');
    const webhook = catalogTemplate('evaluator', 'auto_webhook_test');
    if (!regex || !similarity || !webhook) throw new Error('missing');
    expect(ajv.validate(regex.data.schemas.parameters, { regex_pattern: '(' })).toBe(false);
    expect(ajv.validate(regex.data.schemas.parameters, { regex_should_match: 'yes' })).toBe(false);
    expect(ajv.validate(similarity.data.schemas.parameters, { similarity_threshold: 2 })).toBe(false);
    expect(ajv.validate(webhook.data.schemas.parameters, { webhook_url: 'not a url' })).toBe(false);
    expect(ajv.validate(webhook.data.schemas.parameters, { webhook_url: 'https://example.com/score' })).toBe(true);
  });

  it('given the exact-match template, then its defaults are the schema defaults', () => {
    expect(catalogTemplate('evaluator', 'auto_exact_match')?.data.parameters).toEqual({ correct_answer_key: 'correct_answer' });
    expect(catalogTemplate('evaluator', 'auto_regex_test')?.data.parameters).toEqual({ regex_should_match: true, case_sensitive: true });
    expect(catalogTemplate('evaluator', 'auto_similarity_match')?.data.parameters).toMatchObject({ similarity_threshold: 0.5 });
  });
});

describe('catalog types and harnesses', () => {
  const ajv = validator();

  it('given the type registry, then every type has an x-ag-type and a schema that compiles', () => {
    expect(CATALOG_TYPES.map((t) => t.key)).toEqual(expect.arrayContaining(['prompt-template', 'model', 'message', 'messages', 'llm-config', 'json-schema', 'code']));
    for (const t of CATALOG_TYPES) {
      expect(typeof t.json_schema['x-ag-type'], t.key).toBe('string');
      expect(() => ajv.compile(t.json_schema), t.key).not.toThrow();
    }
  });

  it('when prompt-template is looked up, then it is an object with messages, template_format, input_keys and llm_config', () => {
    const schema = catalogType('prompt-template')?.json_schema;
    expect(schema).toMatchObject({ type: 'object', 'x-ag-type': 'prompt-template' });
    expect(Object.keys(schema?.properties as object)).toEqual(expect.arrayContaining(['messages', 'template_format', 'input_keys', 'llm_config']));
  });

  it('when model is looked up, then it is a grouped choice whose choices map providers to model lists', () => {
    const schema = catalogType('model')?.json_schema;
    expect(schema).toMatchObject({ type: 'string', 'x-ag-type': 'grouped_choice' });
    const choices = schema?.choices;
    expect(choices !== null && typeof choices === 'object' && !Array.isArray(choices)).toBe(true);
    expect((choices as Record<string, string[]>).openai).toEqual(expect.arrayContaining(['gpt-4o', 'gpt-4o-mini']));
  });

  it('when an unknown type or harness is looked up, then there is none', () => {
    expect(catalogType('nope')).toBeUndefined();
    expect(catalogHarness('nope')).toBeUndefined();
  });

  it('given the harnesses, then python, javascript and typescript describe the call the code receives', () => {
    expect(CATALOG_HARNESSES.map((h) => h.key)).toEqual(['python', 'javascript', 'typescript']);
    const schema = catalogHarness('python')?.json_schema;
    expect(schema?.type).toBe('object');
    expect(Object.keys(schema?.properties as object)).toEqual(['inputs', 'outputs', 'testcase', 'parameters']);
  });
});

describe('hydratedEvaluatorData', () => {
  it('given a builtin template URI of any version, then the data is the uri as given, the template schemas and defaults', () => {
    const template = catalogTemplate('evaluator', 'auto_exact_match');
    expect(hydratedEvaluatorData('agenta:builtin:auto_exact_match:v0')).toEqual({
      uri: 'agenta:builtin:auto_exact_match:v0', schemas: template?.data.schemas, parameters: { correct_answer_key: 'correct_answer' },
    });
    expect(hydratedEvaluatorData('agenta:builtin:auto_ai_critique:v3')?.schemas.outputs).toBeDefined();
    expect(hydratedEvaluatorData('agenta:builtin:auto_contains:v0')?.parameters).toEqual({ substring: '', case_sensitive: true });
  });

  it('given other URIs, then there is nothing to hydrate', () => {
    expect(hydratedEvaluatorData('user:custom:x:latest')).toBeUndefined();
    expect(hydratedEvaluatorData('agenta:custom:code:v0')).toBeUndefined();
    expect(hydratedEvaluatorData('agenta:builtin:completion:v0')).toBeUndefined();
    expect(hydratedEvaluatorData('agenta:builtin:nope:v0')).toBeUndefined();
    expect(hydratedEvaluatorData('a:b:c:d:e')).toBeUndefined();
  });
});
