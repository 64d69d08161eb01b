// An annotation's outputs against its evaluator's outputs schema (reference evaluations §2.1), and
// the schema an evaluator created for an annotation gets. Both work on `data.outputs` (the
// reference validates and infers on the whole `data`, so evaluators with real output schemas
// reject correct annotations: a [quirk] not copied); an annotation without `outputs` is checked
// as a whole.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { inferOutputsSchema } from '@llm/evaluation-model';
import { RequestValidationError } from '@llm/http';

const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
const compiled = new Map<string, ValidateFunction | null>();

/** What a schema is checked against: the annotation's `outputs` when it has them, else its whole data. */
export const outputsOf = (data: Record<string, unknown>): unknown => (Object.hasOwn(data, 'outputs') ? data.outputs : data);

/** The schema of an evaluator made for this annotation (an empty object schema when nothing can be inferred). */
export const inferredOutputsSchema = (data: Record<string, unknown>): Record<string, unknown> =>
  (inferOutputsSchema([outputsOf(data)]) ?? { type: 'object', properties: {} }) as Record<string, unknown>;

/** Throws the 422 naming each place the outputs break the schema; a schema that cannot be compiled checks nothing. */
export function checkOutputs(data: Record<string, unknown>, schema: unknown): void {
  if (schema === null || typeof schema !== 'object') return;
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    try { validate = ajv.compile(schema as Record<string, unknown>); } catch { validate = null; }
    if (compiled.size > 1000) compiled.clear();
    compiled.set(key, validate);
  }
  if (!validate || validate(outputsOf(data))) return;
  const base = ['body', 'annotation', 'data', ...(Object.hasOwn(data, 'outputs') ? ['outputs'] : [])];
  throw new RequestValidationError((validate.errors ?? []).map((e: ErrorObject) => ({
    loc: [...base, ...e.instancePath.split('/').filter(Boolean)], msg: e.message ?? 'does not match the evaluator\'s outputs schema', type: 'value_error.json_schema',
  })));
}
