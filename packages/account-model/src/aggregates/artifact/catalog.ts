// The workflow catalog (E§2.5 "Catalog", E§2.6, E§2.7 "Routes"): the static templates, presets,
// ag-types and code harnesses that `/evaluators/catalog/…`, `/applications/catalog/…` and
// `/workflows/catalog/…` serve, and the data a simple evaluator naming a builtin template starts
// from (E§2.5 `/simple/evaluators`). Pure and static: nothing here reads or writes anything.
//
// The reference fixes the template and preset keys and the shape of the answers; the names,
// descriptions, categories, JSON schemas, defaults and preset values are ours. Schemas use the
// keywords JSON Schema draft 2020-12 shares with earlier drafts (no `$schema`, so any validator
// reads them) plus two annotations for forms: `x-ag-type` (one of the CATALOG_TYPES keys, or
// `grouped_choice` for the model picker) and `choices` (provider → model names).
//
// Role flags and the URI kind come from WORKFLOW_HANDLERS, so a template's flags are the ones a
// commit of its URI infers. Every accessor returns a copy: callers may change what they get.
import { DEFAULT_PROVIDER, WORKFLOW_HANDLERS, parseWorkflowUri, type Handler } from './kinds/workflow.ts';

// --- Exported shapes -----------------------------------------------------------------------------

export interface CatalogFlags { is_archived: boolean; is_recommended: boolean; is_application: boolean; is_evaluator: boolean; is_snippet: boolean }

export interface CatalogTemplate {
  key: string;
  name: string;
  description: string;
  categories: string[];
  flags: CatalogFlags;
  data: {
    uri: string;
    schemas: { parameters: Record<string, unknown>; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };
    parameters?: Record<string, unknown>;
  };
}

export interface CatalogPreset {
  key: string;
  name: string;
  description: string;
  categories: string[];
  flags: CatalogFlags;
  data: { uri: string; parameters: Record<string, unknown> };
}

export interface CatalogType { key: string; json_schema: Record<string, unknown> }

export interface CatalogHarness { key: string; name: string; description: string; json_schema: Record<string, unknown> }

export type CatalogRole = 'application' | 'evaluator' | 'workflow';

// --- Schema helpers ------------------------------------------------------------------------------

type JsonSchema = Record<string, unknown>;

const string = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', description, ...extra });
const boolean = (description: string, value: boolean): JsonSchema => ({ type: 'boolean', description, default: value });
const number = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'number', description, ...extra });
const stringList = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'array', description, items: { type: 'string' }, ...extra });
const object = (properties: Record<string, JsonSchema>, extra: JsonSchema = {}): JsonSchema => ({ type: 'object', properties, ...extra });

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The defaults a parameters schema declares: each property's `default`, nested objects recursed. */
function defaultsOf(schema: JsonSchema): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  if (!isRecord(schema.properties)) return defaults;
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!isRecord(property)) continue;
    if (Object.hasOwn(property, 'default')) {
      defaults[name] = structuredClone(property.default);
    } else if (property.type === 'object') {
      const nested = defaultsOf(property);
      if (Object.keys(nested).length > 0) defaults[name] = nested;
    }
  }
  return defaults;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

// --- Types (the `x-ag-type` registry) -----------------------------------------------------------

const MODEL_CHOICES: Record<string, string[]> = {
  openai: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'o3-mini', 'o4-mini'],
  anthropic: [
    'anthropic/claude-opus-4-1-20250805', 'anthropic/claude-sonnet-4-20250514', 'anthropic/claude-3-7-sonnet-20250219',
    'anthropic/claude-3-5-haiku-20241022',
  ],
  gemini: ['gemini/gemini-2.5-pro', 'gemini/gemini-2.5-flash', 'gemini/gemini-2.0-flash'],
  mistral: ['mistral/mistral-large-latest', 'mistral/mistral-small-latest', 'mistral/codestral-latest'],
  groq: ['groq/llama-3.3-70b-versatile', 'groq/llama-3.1-8b-instant'],
  deepseek: ['deepseek/deepseek-chat', 'deepseek/deepseek-reasoner'],
};

const DEFAULT_MODEL = 'gpt-4o-mini';

const MODEL: JsonSchema = {
  type: 'string',
  'x-ag-type': 'grouped_choice',
  title: 'Model',
  description: 'The model to call, picked from the providers\' lists (any other model name the project\'s providers serve is accepted too).',
  choices: MODEL_CHOICES,
};

const CONTENT_PART = object({
  type: string('The kind of part.', { enum: ['text', 'image_url', 'file'] }),
  text: string('The text, for a text part.'),
  image_url: object({ url: string('An http(s) or data: URL.'), detail: string('Image detail.', { enum: ['auto', 'low', 'high'] }) }, { required: ['url'] }),
  file: object({ file_id: string('A provider file id.'), file_data: string('Base64 file contents.'), filename: string('The file name.') }),
}, { required: ['type'] });

const MESSAGE = object({
  role: string('Who speaks.', { enum: ['system', 'developer', 'user', 'assistant', 'tool'] }),
  content: {
    description: 'Text, or a list of text/image/file parts; null for an assistant turn made only of tool calls. Text may hold `{{variable}}` placeholders.',
    anyOf: [{ type: 'string' }, { type: 'array', items: CONTENT_PART }, { type: 'null' }],
  },
  name: string('An optional participant name.'),
  tool_call_id: string('For a tool message: the call it answers.'),
  tool_calls: { type: 'array', description: 'For an assistant message: the tool calls it makes.', items: { type: 'object' } },
}, { 'x-ag-type': 'message', title: 'Message', required: ['role'] });

const MESSAGES: JsonSchema = { type: 'array', 'x-ag-type': 'messages', title: 'Messages', description: 'A conversation, in order.', items: MESSAGE };

const JSON_SCHEMA_TYPE: JsonSchema = {
  type: 'object',
  'x-ag-type': 'json-schema',
  title: 'JSON Schema',
  description: 'A JSON Schema document (draft 2020-12), e.g. for structured model output.',
};

const LLM_CONFIG = object({
  model: MODEL,
  temperature: number('Sampling temperature.', { minimum: 0, maximum: 2 }),
  max_tokens: { type: 'integer', description: 'Most tokens to generate.', minimum: 1 },
  top_p: number('Nucleus sampling mass.', { minimum: 0, maximum: 1 }),
  frequency_penalty: number('Penalty for frequent tokens.', { minimum: -2, maximum: 2 }),
  presence_penalty: number('Penalty for tokens already present.', { minimum: -2, maximum: 2 }),
  reasoning_effort: string('Reasoning effort, for reasoning models.', { enum: ['minimal', 'low', 'medium', 'high'] }),
  response_format: object({
    type: string('Plain text, any JSON object, or JSON matching a schema.', { enum: ['text', 'json_object', 'json_schema'] }),
    json_schema: object({ name: string('The schema\'s name.'), schema: JSON_SCHEMA_TYPE, strict: { type: 'boolean' } }),
  }, { required: ['type'] }),
  tools: { type: 'array', description: 'Tool (function) definitions the model may call.', items: { type: 'object' } },
  tool_choice: { description: 'Whether and which tool the model must call.', anyOf: [{ type: 'string', enum: ['none', 'auto', 'required'] }, { type: 'object' }] },
}, { 'x-ag-type': 'llm-config', title: 'Model configuration', required: ['model'] });

const PROMPT_TEMPLATE = object({
  messages: MESSAGES,
  template_format: string('How placeholders in message text are written.', { enum: ['curly', 'fstring', 'jinja2'], default: 'curly' }),
  input_keys: stringList('The variables the messages use; the inputs must provide them.'),
  llm_config: LLM_CONFIG,
}, { 'x-ag-type': 'prompt-template', title: 'Prompt template', required: ['messages'] });

const CODE: JsonSchema = { type: 'string', 'x-ag-type': 'code', title: 'Code', description: 'Source code, run by the harness of its runtime.' };

export const CATALOG_TYPES: readonly CatalogType[] = deepFreeze([
  { key: 'prompt-template', json_schema: PROMPT_TEMPLATE },
  { key: 'model', json_schema: MODEL },
  { key: 'message', json_schema: MESSAGE },
  { key: 'messages', json_schema: MESSAGES },
  { key: 'llm-config', json_schema: LLM_CONFIG },
  { key: 'json-schema', json_schema: JSON_SCHEMA_TYPE },
  { key: 'code', json_schema: CODE },
]);

export function catalogType(key: string): CatalogType | undefined {
  const found = CATALOG_TYPES.find((type) => type.key === key);
  return found && structuredClone(found);
}

// --- Harnesses -----------------------------------------------------------------------------------

const HARNESS_CALL = object({
  inputs: { type: 'object', description: 'The testcase\'s inputs (or the invocation\'s inputs when no testcase runs).' },
  outputs: { description: 'What the application under evaluation answered: any JSON value.' },
  testcase: { type: 'object', description: 'The whole testcase row, expected answers included; {} when there is none.' },
  parameters: { type: 'object', description: 'The workflow revision\'s parameters.' },
}, { required: ['inputs', 'outputs', 'testcase', 'parameters'] });

const harness = (key: string, name: string, description: string): CatalogHarness => ({ key, name, description, json_schema: HARNESS_CALL });

export const CATALOG_HARNESSES: readonly CatalogHarness[] = deepFreeze([
  harness('python', 'Python', 'Python 3. The script defines `evaluate(inputs, outputs, testcase, parameters)`; its number (0..1) or bool is the score.'),
  harness('javascript', 'JavaScript', 'JavaScript (ES2022). The script defines `function evaluate(inputs, outputs, testcase, parameters)`; its number (0..1) or boolean is the score.'),
  harness('typescript', 'TypeScript', 'TypeScript, type-stripped and run as JavaScript. Same `evaluate(inputs, outputs, testcase, parameters)` contract.'),
]);

export function catalogHarness(key: string): CatalogHarness | undefined {
  const found = CATALOG_HARNESSES.find((h) => h.key === key);
  return found && structuredClone(found);
}

// --- Shared parameters and outputs ---------------------------------------------------------------

const CORRECT_ANSWER_KEY = string('The testcase column holding the expected answer.', { default: 'correct_answer' });
const CASE_SENSITIVE = boolean('Whether letter case must match.', true);

const SUCCESS = object({ success: { type: 'boolean', description: 'Whether the output passed.' } }, { required: ['success'] });
const SCORE = object({ score: number('The score, from 0 (worst) to 1 (best).', { minimum: 0, maximum: 1 }) }, { required: ['score'] });
const SCORE_AND_SUCCESS = object({
  score: number('The score, from 0 (worst) to 1 (best).', { minimum: 0, maximum: 1 }),
  success: { type: 'boolean', description: 'Whether the score reached the threshold.' },
}, { required: ['score'] });

const PROMPT_DEFAULT = {
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: '{{input}}' },
  ],
  template_format: 'curly',
  input_keys: ['input'],
  llm_config: { model: DEFAULT_MODEL, temperature: 0.7 },
};

const JUDGE_USER_MESSAGE = { role: 'user', content: 'Inputs:\n{{inputs}}\n\nOutput:\n{{outputs}}\n\nExpected answer:\n{{correct_answer}}\n\nScore:' };
const judge = (instructions: string) => [
  { role: 'system', content: `${instructions} Reply with a single number between 0 and 1 and nothing else.` },
  JUDGE_USER_MESSAGE,
];

const PROMPT_TEMPLATE_MESSAGES = (value: unknown[]): JsonSchema => ({
  type: 'array',
  'x-ag-type': 'prompt-template',
  title: 'Judge prompt',
  description: 'The messages sent to the judge model. `{{inputs}}`, `{{outputs}}` and `{{correct_answer}}` are filled in per testcase.',
  items: MESSAGE,
  default: value,
});

// --- Code samples (the custom-code presets; Python is also the template's default) ---------------

const PYTHON_CODE = `import json
from typing import Any, Dict


def evaluate(inputs: Dict[str, Any], outputs: Any, testcase: Dict[str, Any], parameters: Dict[str, Any]) -> float:
    """1.0 when the output equals the expected answer exactly, else 0.0."""
    expected = testcase.get(parameters.get("correct_answer_key", "correct_answer"))
    if expected is None:
        return 0.0
    actual = outputs if isinstance(outputs, str) else json.dumps(outputs)
    wanted = expected if isinstance(expected, str) else json.dumps(expected)
    return 1.0 if actual == wanted else 0.0
`;

const JAVASCRIPT_CODE = `// 1 when the output equals the expected answer exactly, else 0.
function evaluate(inputs, outputs, testcase, parameters) {
  const key = (parameters && parameters.correct_answer_key) || 'correct_answer';
  const expected = testcase ? testcase[key] : undefined;
  if (expected === undefined || expected === null) return 0.0;
  const actual = typeof outputs === 'string' ? outputs : JSON.stringify(outputs);
  const wanted = typeof expected === 'string' ? expected : JSON.stringify(expected);
  return actual === wanted ? 1.0 : 0.0;
}
`;

const TYPESCRIPT_CODE = `// 1 when the output equals the expected answer exactly, else 0.
function evaluate(
  inputs: Record<string, unknown>,
  outputs: unknown,
  testcase: Record<string, unknown>,
  parameters: Record<string, unknown>,
): number {
  const key = typeof parameters.correct_answer_key === 'string' ? parameters.correct_answer_key : 'correct_answer';
  const expected = testcase[key];
  if (expected === undefined || expected === null) return 0.0;
  const actual = typeof outputs === 'string' ? outputs : JSON.stringify(outputs);
  const wanted = typeof expected === 'string' ? expected : JSON.stringify(expected);
  return actual === wanted ? 1.0 : 0.0;
}
`;

// --- Templates -----------------------------------------------------------------------------------

interface PresetDecl { key: string; name: string; description: string; parameters: Record<string, unknown> }

interface TemplateDecl {
  key: string;
  name: string;
  description: string;
  categories: string[];
  recommended?: boolean;
  archived?: boolean;
  /** The parameters schema; `data.parameters` are its defaults. */
  parameters: JsonSchema;
  outputs?: JsonSchema;
  presets?: PresetDecl[];
}

const NO_PARAMETERS = object({});

const DECLARATIONS: TemplateDecl[] = [
  {
    key: 'auto_exact_match', name: 'Exact match', recommended: true, categories: ['classifiers'],
    description: 'Passes when the output equals the expected answer character for character.',
    parameters: object({ correct_answer_key: CORRECT_ANSWER_KEY }, { required: ['correct_answer_key'] }),
    outputs: SUCCESS,
  },
  {
    key: 'auto_regex_test', name: 'Regex test', categories: ['classifiers'],
    description: 'Passes when the output matches (or, if so set, does not match) a regular expression.',
    parameters: object({
      regex_pattern: string('The regular expression searched for in the output.', { format: 'regex' }),
      regex_should_match: boolean('Pass on a match (true) or on no match (false).', true),
      case_sensitive: CASE_SENSITIVE,
    }),
    outputs: SUCCESS,
    presets: [
      { key: 'starts_with', name: 'Starts with', description: 'The output begins with a prefix.', parameters: { regex_pattern: '^prefix' } },
      { key: 'ends_with', name: 'Ends with', description: 'The output ends with a suffix.', parameters: { regex_pattern: 'suffix$' } },
      { key: 'contains', name: 'Contains', description: 'The output contains a word.', parameters: { regex_pattern: 'word' } },
      { key: 'contains_any', name: 'Contains any', description: 'The output contains at least one of several words.', parameters: { regex_pattern: '(first|second)' } },
      {
        key: 'contains_all', name: 'Contains all', description: 'The output contains every one of several words, in any order.',
        parameters: { regex_pattern: '^(?=[\\s\\S]*first)(?=[\\s\\S]*second)' },
      },
    ],
  },
  {
    key: 'json_multi_field_match', name: 'JSON multi-field match', categories: ['classifiers', 'json'],
    description: 'Compares chosen fields of a JSON output with the same fields of the expected JSON answer; scores each field and their mean.',
    parameters: object({
      fields: stringList('The fields to compare; dotted paths reach nested fields.', { default: [] }),
      correct_answer_key: CORRECT_ANSWER_KEY,
    }, { required: ['fields'] }),
    outputs: object({
      aggregate_score: number('The share of fields that match, from 0 to 1.', { minimum: 0, maximum: 1 }),
    }, { required: ['aggregate_score'], additionalProperties: { type: 'number', description: 'Per field: 1 when it matches, else 0.' } }),
  },
  {
    key: 'auto_webhook_test', name: 'Webhook', categories: ['custom'],
    description: 'POSTs the inputs, output and expected answer to a URL; the number it answers is the score.',
    parameters: object({
      webhook_url: string('The URL called for each testcase (required to run).', { format: 'uri' }),
      correct_answer_key: CORRECT_ANSWER_KEY,
    }),
    outputs: SCORE_AND_SUCCESS,
  },
  {
    key: 'auto_custom_code_run', name: 'Code evaluation', recommended: true, categories: ['custom'],
    description: 'Runs your `evaluate` function on each testcase; the number it returns is the score.',
    parameters: object({
      code: { ...CODE, default: PYTHON_CODE },
      runtime: string('The language of the code (the harness that runs it).', { enum: ['python', 'javascript', 'typescript'], default: 'python' }),
      correct_answer_key: CORRECT_ANSWER_KEY,
    }, { required: ['code', 'runtime'] }),
    outputs: SCORE_AND_SUCCESS,
    presets: [
      { key: 'python_default', name: 'Python: exact match', description: 'Scores 1 when the output equals the expected answer.', parameters: { code: PYTHON_CODE, runtime: 'python' } },
      { key: 'javascript_default', name: 'JavaScript: exact match', description: 'Scores 1 when the output equals the expected answer.', parameters: { code: JAVASCRIPT_CODE, runtime: 'javascript' } },
      { key: 'typescript_default', name: 'TypeScript: exact match', description: 'Scores 1 when the output equals the expected answer.', parameters: { code: TYPESCRIPT_CODE, runtime: 'typescript' } },
    ],
  },
  {
    key: 'auto_ai_critique', name: 'LLM-as-a-judge', recommended: true, categories: ['llm'],
    description: 'Asks a model to grade the output with a prompt you write; the number it answers is the score.',
    parameters: object({
      prompt_template: PROMPT_TEMPLATE_MESSAGES(judge(
        'You are an impartial evaluator. Judge how well the output of an AI application fulfils the task in the inputs and agrees with the expected answer, when one is given. 1 means fully correct.',
      )),
      model: { ...MODEL, default: DEFAULT_MODEL },
      correct_answer_key: CORRECT_ANSWER_KEY,
    }, { required: ['prompt_template', 'model'] }),
    outputs: SCORE_AND_SUCCESS,
    presets: [
      {
        key: 'hallucination', name: 'Hallucination', description: 'Penalises claims that neither the inputs nor the expected answer support.',
        parameters: {
          prompt_template: judge('You check AI answers for hallucinations: claims the inputs and the expected answer do not support. 1 means every claim in the output is supported; 0 means its main claims are invented.'),
          model: DEFAULT_MODEL,
        },
      },
      {
        key: 'conciseness', name: 'Conciseness', description: 'Rewards outputs that say what is needed and nothing more.',
        parameters: {
          prompt_template: judge('You rate how concise AI answers are. 1 means the output says what the task needs with no padding, repetition or digression; 0 means it is mostly filler.'),
          model: DEFAULT_MODEL,
        },
      },
      {
        key: 'answer_relevancy', name: 'Answer relevancy', description: 'Rewards outputs that address the question actually asked.',
        parameters: {
          prompt_template: judge('You rate how relevant AI answers are to the question in the inputs. 1 means the output answers exactly what was asked; 0 means it answers something else.'),
          model: DEFAULT_MODEL,
        },
      },
      {
        key: 'helpfulness', name: 'Helpfulness', description: 'Rewards outputs that would actually help the person asking.',
        parameters: {
          prompt_template: judge('You rate how helpful AI answers are to the person asking. 1 means the output is correct, complete and actionable; 0 means it does not help at all.'),
          model: DEFAULT_MODEL,
        },
      },
    ],
  },
  {
    key: 'auto_contains_json', name: 'Contains JSON', categories: ['classifiers', 'json'],
    description: 'Passes when the output holds a parsable JSON object.',
    parameters: NO_PARAMETERS,
    outputs: SUCCESS,
  },
  {
    key: 'auto_json_diff', name: 'JSON diff', recommended: true, categories: ['similarity', 'json'],
    description: 'Compares a JSON output with the expected JSON answer field by field; the score is the share that agrees.',
    parameters: object({
      compare_schema_only: boolean('Compare only keys and value types, not values.', false),
      predict_keys: boolean('Also penalise keys the output has that the expected answer lacks.', false),
      case_insensitive_keys: boolean('Treat keys that differ only in letter case as the same key.', false),
      correct_answer_key: CORRECT_ANSWER_KEY,
    }),
    outputs: SCORE_AND_SUCCESS,
  },
  {
    key: 'auto_levenshtein_distance', name: 'Levenshtein distance', categories: ['similarity'],
    description: 'The edit distance between the output and the expected answer; passes within a threshold, when one is set.',
    parameters: object({
      case_sensitive: CASE_SENSITIVE,
      threshold: { type: 'integer', description: 'The largest distance that still passes; without it there is no pass/fail.', minimum: 0 },
      correct_answer_key: CORRECT_ANSWER_KEY,
    }),
    outputs: object({
      score: number('The Levenshtein distance (0 = identical).', { minimum: 0 }),
      success: { type: 'boolean', description: 'Whether the distance is within the threshold.' },
    }, { required: ['score'] }),
  },
  {
    key: 'auto_similarity_match', name: 'Similarity match', categories: ['similarity'],
    description: 'The word-overlap similarity of the output and the expected answer; passes at or above a threshold.',
    parameters: object({
      similarity_threshold: number('The least similarity that passes, from 0 to 1.', { minimum: 0, maximum: 1, default: 0.5 }),
      correct_answer_key: CORRECT_ANSWER_KEY,
    }),
    outputs: SCORE_AND_SUCCESS,
  },
  {
    key: 'auto_semantic_similarity', name: 'Semantic similarity', categories: ['similarity', 'llm'],
    description: 'The cosine similarity of the embeddings of the output and of the expected answer.',
    parameters: object({
      embedding_model: string('The embedding model.', { default: 'text-embedding-3-small' }),
      correct_answer_key: CORRECT_ANSWER_KEY,
    }),
    outputs: SCORE,
  },
  {
    key: 'match', name: 'Match', categories: ['classifiers'],
    description: 'One configurable matcher: exact, contains, prefix, suffix, regex or JSON equality, on the whole output or a field of it.',
    parameters: object({
      mode: string('How the output is compared with the reference.', {
        enum: ['exact', 'contains', 'starts_with', 'ends_with', 'regex', 'json_equal'], default: 'exact',
      }),
      pattern: string('For contains/starts_with/ends_with/regex: the text or expression; without it the expected answer is used.'),
      path: string('A dotted path into a JSON output; empty compares the whole output.', { default: '' }),
      case_sensitive: CASE_SENSITIVE,
      correct_answer_key: CORRECT_ANSWER_KEY,
    }, { required: ['mode'] }),
    outputs: object({
      success: { type: 'boolean', description: 'Whether the output matched.' },
      score: number('1 on a match, else 0.', { minimum: 0, maximum: 1 }),
    }, { required: ['success'] }),
  },
  {
    key: 'prompt', name: 'Prompt', recommended: true, categories: ['llm'],
    description: 'A prompt template sent to a model: messages with `{{variable}}` placeholders filled from the inputs, and the model configuration.',
    parameters: object({ prompt: { ...PROMPT_TEMPLATE, default: PROMPT_DEFAULT } }, { required: ['prompt'] }),
  },
  {
    key: 'echo', name: 'Echo', categories: ['utility'],
    description: 'Answers with its inputs, unchanged. Useful to try a pipeline without a model.',
    parameters: NO_PARAMETERS,
  },
  {
    key: 'llm', name: 'LLM call', categories: ['llm'],
    description: 'One model call: the prompt\'s messages and model configuration, with structured output when the configuration asks for it.',
    parameters: object({ prompt: { ...PROMPT_TEMPLATE, default: PROMPT_DEFAULT } }, { required: ['prompt'] }),
  },
  // Archived: listed only on request, still valid in stored revisions.
  {
    key: 'field_match_test', name: 'JSON field match', archived: true, categories: ['classifiers', 'json'],
    description: 'Passes when one field of a JSON output equals the expected answer. Superseded by JSON multi-field match.',
    parameters: object({ json_field: string('The field of the output compared.'), correct_answer_key: CORRECT_ANSWER_KEY }),
    outputs: SUCCESS,
  },
  {
    key: 'auto_starts_with', name: 'Starts with', archived: true, categories: ['classifiers'],
    description: 'Passes when the output begins with a prefix. Superseded by the regex test.',
    parameters: object({ prefix: string('The prefix.', { default: '' }), case_sensitive: CASE_SENSITIVE }),
    outputs: SUCCESS,
  },
  {
    key: 'auto_ends_with', name: 'Ends with', archived: true, categories: ['classifiers'],
    description: 'Passes when the output ends with a suffix. Superseded by the regex test.',
    parameters: object({ suffix: string('The suffix.', { default: '' }), case_sensitive: CASE_SENSITIVE }),
    outputs: SUCCESS,
  },
  {
    key: 'auto_contains', name: 'Contains', archived: true, categories: ['classifiers'],
    description: 'Passes when the output contains a substring. Superseded by the regex test.',
    parameters: object({ substring: string('The substring.', { default: '' }), case_sensitive: CASE_SENSITIVE }),
    outputs: SUCCESS,
  },
  {
    key: 'auto_contains_any', name: 'Contains any', archived: true, categories: ['classifiers'],
    description: 'Passes when the output contains at least one of several substrings. Superseded by the regex test.',
    parameters: object({ substrings: stringList('The substrings.', { default: [] }), case_sensitive: CASE_SENSITIVE }),
    outputs: SUCCESS,
  },
  {
    key: 'auto_contains_all', name: 'Contains all', archived: true, categories: ['classifiers'],
    description: 'Passes when the output contains every one of several substrings. Superseded by the regex test.',
    parameters: object({ substrings: stringList('The substrings.', { default: [] }), case_sensitive: CASE_SENSITIVE }),
    outputs: SUCCESS,
  },
  // `agenta:custom:` handlers: the revision's own script or URL does the work.
  {
    key: 'code', name: 'Code', categories: ['custom'],
    description: 'Your own code, run by the harness of its runtime (see the catalog harnesses).',
    parameters: object({
      script: { ...CODE, description: 'The code; the revision\'s `script` holds what runs.' },
      runtime: string('The harness that runs the code.', { enum: ['python', 'javascript', 'typescript'], default: 'python' }),
    }),
  },
  {
    key: 'hook', name: 'Hook', categories: ['custom'],
    description: 'Your own HTTP service, called with the inputs (and, as an evaluator, the outputs and testcase).',
    parameters: object({
      url: string('The service URL; the revision\'s `url` holds what is called.', { format: 'uri' }),
      headers: { type: 'object', description: 'Extra request headers.', additionalProperties: { type: 'string' } },
    }),
  },
  {
    key: 'feedback', name: 'Human feedback', categories: ['human'],
    description: 'Annotations people record on traces; nothing runs automatically.',
    parameters: NO_PARAMETERS,
    outputs: { type: 'object', description: 'The annotation\'s fields, as the evaluator defines them.', additionalProperties: true },
  },
  {
    key: 'mock', name: 'Mock', categories: ['utility'],
    description: 'A stand-in for tests: answers with a canned response chosen by `key`.',
    parameters: object({
      key: string('Which canned response to give.'),
      kwargs: { type: 'object', description: 'Extra arguments for the canned response.' },
    }),
  },
];

// --- Built tables --------------------------------------------------------------------------------

interface Entry { template: CatalogTemplate; presets: CatalogPreset[]; kind: Handler['kind'] }

function handlerOf(key: string): Handler {
  const handler = Object.hasOwn(WORKFLOW_HANDLERS, key) ? WORKFLOW_HANDLERS[key] : undefined;
  if (!handler) throw new Error(`Catalog template '${key}' names no workflow handler.`);
  return handler;
}

function build(decl: TemplateDecl): Entry {
  const handler = handlerOf(decl.key);
  const { is_application, is_evaluator, is_snippet } = handler.roles;
  const flags: CatalogFlags = { is_archived: decl.archived === true, is_recommended: decl.recommended === true, is_application, is_evaluator, is_snippet };
  const uri = `${DEFAULT_PROVIDER}:${handler.kind}:${decl.key}:v0`;
  const defaults = defaultsOf(decl.parameters);
  const template: CatalogTemplate = {
    key: decl.key,
    name: decl.name,
    description: decl.description,
    categories: decl.categories,
    flags,
    data: { uri, schemas: { parameters: decl.parameters, ...(decl.outputs ? { outputs: decl.outputs } : {}) }, parameters: defaults },
  };
  const presets = (decl.presets ?? []).map((preset): CatalogPreset => ({
    key: preset.key,
    name: preset.name,
    description: preset.description,
    categories: decl.categories,
    flags,
    data: { uri, parameters: { ...structuredClone(defaults), ...preset.parameters } },
  }));
  return { template, presets, kind: handler.kind };
}

const ENTRIES: readonly Entry[] = deepFreeze(DECLARATIONS.map(build));
const BY_KEY: ReadonlyMap<string, Entry> = new Map(ENTRIES.map((entry) => [entry.template.key, entry]));

function playsRole(template: CatalogTemplate, role: CatalogRole): boolean {
  if (role === 'workflow') return true;
  return role === 'evaluator' ? template.flags.is_evaluator : template.flags.is_application;
}

function entryFor(role: CatalogRole, key: string): Entry | undefined {
  const entry = BY_KEY.get(key);
  return entry && playsRole(entry.template, role) ? entry : undefined;
}

// --- Accessors -----------------------------------------------------------------------------------

/** Templates a role's catalog lists: evaluators → evaluator-capable handlers; applications → application-capable; workflows → all. Archived ones only with includeArchived. Order: as declared. */
export function catalogTemplates(role: CatalogRole, includeArchived: boolean): CatalogTemplate[] {
  return ENTRIES
    .filter(({ template }) => playsRole(template, role) && (includeArchived || !template.flags.is_archived))
    .map(({ template }) => structuredClone(template));
}

/** One template by key for that role (archived included), else undefined. */
export function catalogTemplate(role: CatalogRole, key: string): CatalogTemplate | undefined {
  const entry = entryFor(role, key);
  return entry && structuredClone(entry.template);
}

/** The template's presets ([] for an unknown template or one without presets). */
export function catalogPresets(role: CatalogRole, templateKey: string): CatalogPreset[] {
  return structuredClone(entryFor(role, templateKey)?.presets ?? []);
}

export function catalogPreset(role: CatalogRole, templateKey: string, presetKey: string): CatalogPreset | undefined {
  const preset = entryFor(role, templateKey)?.presets.find((p) => p.key === presetKey);
  return preset && structuredClone(preset);
}

/**
 * The data a simple evaluator with `agenta:builtin:<key>:v0` (or any version) starts from: the template's uri, schemas and parameter defaults; undefined for other URIs.
 * The URI is read as E§2.7 reads every workflow URI, so shorter forms (`builtin:<key>:v0`, `<key>`) name the same template;
 * archived templates hydrate too, `agenta:custom:` ones do not. The uri is returned as given.
 */
export function hydratedEvaluatorData(uri: string): { uri: string; schemas: CatalogTemplate['data']['schemas']; parameters: Record<string, unknown> } | undefined {
  const parsed = parseWorkflowUri(uri);
  if (parsed?.provider !== DEFAULT_PROVIDER || parsed.kind !== 'builtin') return undefined;
  const entry = BY_KEY.get(parsed.key);
  if (entry?.kind !== 'builtin') return undefined;
  return { uri, schemas: structuredClone(entry.template.data.schemas), parameters: structuredClone(entry.template.data.parameters ?? {}) };
}
