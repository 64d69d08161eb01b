// A filtering object (reference §5.2) → one parameterised ClickHouse boolean expression over the
// span table, always confined to the caller's project. User values and keys never enter the SQL
// text; they travel as query parameters. An invalid filter is a list of errors naming each bad
// condition, never a query that silently matches nothing.
import { compileCondition } from './compile-condition.ts';
import { ConditionSchema, FilteringLevelSchema, type LogicalOperator } from './filtering-schema.ts';
import { MAX_FILTER_CONDITIONS, MAX_FILTER_DEPTH, MAX_FILTER_PARAMS } from './limits.ts';
import { assertParamName, createParamSink, type ParamSink, type SqlParams } from './sql-params.ts';
import { formatPath, type Path } from './step.ts';

export interface FilterError {
  /** Where in the request body, e.g. `['filtering', 'conditions', 1, 'value', 0]`. */
  path: Path;
  /** Self-contained, starting with the rendered path: `filtering.conditions[1]: operator 'gt' is …`. */
  message: string;
}

export type CompileResult = { ok: true; sql: string; params: SqlParams } | { ok: false; errors: FilterError[] };

export interface CompileFilterContext {
  /** Name of the String parameter that holds the caller's project id; the caller supplies its value. */
  projectParam: string;
  /** Prefix of the generated parameter names (default `f`: f0, f1, …). */
  paramPrefix?: string;
  /** First segment of error paths: the name of the filter in the request (default `filtering`). */
  root?: string;
}

const MATCH_ALL = '1';

interface Walk {
  sink: ParamSink;
  errors: FilterError[];
  /** Conditions and nested filtering objects seen so far. */
  seen: number;
}

/**
 * Compiles `filtering` (an object, its JSON text, or null/undefined/'' for "everything") into
 * `(project_id = {<projectParam>:String}) AND (<expression>)`. The project clause comes first and the
 * user's expression is parenthesised whole, so no `or` in it can reach rows of another project.
 */
export function compileFilter(filtering: unknown, ctx: CompileFilterContext): CompileResult {
  const prefix = ctx.paramPrefix ?? 'f';
  assertParamName(ctx.projectParam, 'projectParam');
  assertParamName(prefix, 'paramPrefix');
  if (ctx.projectParam.startsWith(prefix) && /^\d+$/.test(ctx.projectParam.slice(prefix.length))) {
    throw new Error(`projectParam '${ctx.projectParam}' collides with the generated parameter names`);
  }
  const root: Path = [ctx.root ?? 'filtering'];
  const input = readInput(filtering);
  if (input.error !== undefined) return { ok: false, errors: [error(root, input.error)] };
  const walk: Walk = { sink: createParamSink(prefix), errors: [], seen: 0 };
  const body = input.value === undefined ? MATCH_ALL : compileLevel(input.value, root, 1, walk);
  if (walk.errors.length === 0 && walk.sink.size > MAX_FILTER_PARAMS) {
    walk.errors.push(error(root, `filter is too large (more than ${MAX_FILTER_PARAMS} values and key segments)`));
  }
  if (walk.errors.length > 0) return { ok: false, errors: walk.errors };
  return { ok: true, sql: `(project_id = {${ctx.projectParam}:String}) AND (${body})`, params: walk.sink.params };
}

function readInput(filtering: unknown): { value?: unknown; error?: string } {
  if (filtering === undefined || filtering === null) return {};
  if (typeof filtering !== 'string') return { value: filtering };
  if (filtering.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(filtering);
    return value === null ? {} : { value };
  } catch {
    return { error: 'is not valid JSON' };
  }
}

function compileLevel(raw: unknown, path: Path, depth: number, walk: Walk): string {
  if (depth > MAX_FILTER_DEPTH) {
    walk.errors.push(error(path, `filtering nests deeper than ${MAX_FILTER_DEPTH} levels`));
    return MATCH_ALL;
  }
  const parsed = FilteringLevelSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) walk.errors.push(error([...path, ...toPath(issue.path)], issue.message));
    return MATCH_ALL;
  }
  const conditions = parsed.data.conditions ?? [];
  const parts: string[] = [];
  for (let i = 0; i < conditions.length; i++) {
    const childPath = [...path, 'conditions', i];
    if (++walk.seen > MAX_FILTER_CONDITIONS) {
      if (walk.seen === MAX_FILTER_CONDITIONS + 1) {
        walk.errors.push(error(childPath, `filter has more than ${MAX_FILTER_CONDITIONS} conditions`));
      }
      return MATCH_ALL;
    }
    parts.push(compileChild(conditions[i], childPath, depth, walk));
  }
  return combine(parsed.data.operator, parts, path, walk);
}

function compileChild(raw: unknown, path: Path, depth: number, walk: Walk): string {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    walk.errors.push(error(path, 'must be a condition ({field, operator, value, …}) or a filtering object ({operator, conditions})'));
    return MATCH_ALL;
  }
  const isCondition = Object.hasOwn(raw, 'field');
  const isLevel = Object.hasOwn(raw, 'conditions') || (!isCondition && Object.hasOwn(raw, 'operator'));
  if (isCondition && isLevel) {
    walk.errors.push(error(path, "has both 'field' and 'conditions': a condition or a filtering object, not both"));
    return MATCH_ALL;
  }
  return isLevel ? compileLevel(raw, path, depth + 1, walk) : compileLeaf(raw, path, walk);
}

function compileLeaf(raw: unknown, path: Path, walk: Walk): string {
  const parsed = ConditionSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) walk.errors.push(error([...path, ...toPath(issue.path)], issue.message));
    return MATCH_ALL;
  }
  const r = compileCondition(parsed.data, walk.sink);
  if (!r.ok) {
    walk.errors.push(error([...path, ...r.at], r.message));
    return MATCH_ALL;
  }
  return r.value;
}

/** Empty `and`/`or` levels constrain nothing (like an absent filter); negations must negate something. */
function combine(op: LogicalOperator, parts: string[], path: Path, walk: Walk): string {
  const joined = (glue: string): string => (parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(glue));
  switch (op) {
    case 'and':
      return parts.length === 0 ? MATCH_ALL : joined(' AND ');
    case 'or':
      return parts.length === 0 ? MATCH_ALL : joined(' OR ');
    case 'not':
      // The reference silently returns nothing here; a client negating a list means nand or nor.
      if (parts.length !== 1) {
        walk.errors.push(error(path, `operator 'not' needs exactly one condition, got ${parts.length} (use 'nand' or 'nor' to negate several)`));
        return MATCH_ALL;
      }
      return `NOT (${parts[0]!})`;
    case 'nand':
    case 'nor':
      if (parts.length === 0) {
        walk.errors.push(error(path, `operator '${op}' needs at least one condition`));
        return MATCH_ALL;
      }
      return `NOT (${joined(op === 'nand' ? ' AND ' : ' OR ')})`;
  }
}

function error(path: Path, message: string): FilterError {
  return { path, message: `${formatPath(path)}: ${message}` };
}

function toPath(p: readonly PropertyKey[]): Path {
  return p.map((s) => (typeof s === 'number' ? s : String(s)));
}
