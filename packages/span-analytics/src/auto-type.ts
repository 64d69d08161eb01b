// `*` (auto) on a JSON path: the interface defines `*` as "auto" (the reference computes nothing for
// it). One small statement counts the JSON types found at each such path over the request's whole
// window; the most frequent one decides the spec's type for every bucket (so buckets stay
// comparable): numbers → numeric/continuous, strings → categorical/single, booleans → binary,
// arrays → categorical/multiple, objects → json. Ties go in that order. No values → nothing computed.
import type { Scope } from './analytics-scope.ts';
import type { Statement } from './analytics-query.ts';
import type { ConcreteMetricType } from './metric-spec.ts';
import type { PlannedSpec } from './planned-spec.ts';
import { ParamBag, qualifiedTable } from './sql-params.ts';
import { rawSql } from './value-sql.ts';

const KINDS: ReadonlyArray<readonly [column: string, predicate: (r: string) => string, type: ConcreteMetricType]> = [
  ['number', (r) => `JSONType(${r}) IN ('Int64', 'UInt64', 'Double')`, 'numeric/continuous'],
  ['string', (r) => `JSONType(${r}) = 'String'`, 'categorical/single'],
  ['boolean', (r) => `JSONType(${r}) = 'Bool'`, 'binary'],
  ['array', (r) => `JSONType(${r}) = 'Array'`, 'categorical/multiple'],
  ['object', (r) => `JSONType(${r}) = 'Object'`, 'json'],
];

/** The probe for every spec that needs one, or undefined when none does. One row: `s<i>_<kind>`. */
export function buildAutoTypeProbe(table: string, scope: Scope, specs: readonly PlannedSpec[]): Statement | undefined {
  const probed = specs.map((p, i) => ({ ...p, i })).filter((p) => p.needsProbe);
  if (probed.length === 0) return undefined;
  const bag = new ParamBag();
  const raws = probed.map(({ source, i }) => `${rawSql(source, i, bag)} AS r${i}`);
  const counts = probed.flatMap(({ i }) => KINDS.map(([kind, predicate]) => `countIf(${predicate(`r${i}`)}) AS s${i}_${kind}`));
  const sql = `SELECT ${counts.join(', ')} FROM (SELECT ${raws.join(', ')} FROM ${qualifiedTable(table)} FINAL WHERE ${scope.where})`;
  return { sql, params: { ...scope.params, ...bag.params } };
}

/** The specs with `*` resolved from the probe's row (specs that needed no probe are unchanged). */
export function resolveAutoTypes(specs: readonly PlannedSpec[], row: Readonly<Record<string, unknown>> | undefined): PlannedSpec[] {
  return specs.map((p, i) => {
    if (!p.needsProbe) return p;
    let best: ConcreteMetricType | undefined;
    let bestCount = 0;
    for (const [kind, , type] of KINDS) {
      const n = Number(row?.[`s${i}_${kind}`] ?? 0);
      if (n > bestCount) {
        best = type;
        bestCount = n;
      }
    }
    return { ...p, type: best, needsProbe: false };
  });
}
