// The SQL that reads one spec's value from a span row, in two steps: `rawSql` reads the source once
// per row (a column, a map entry, or the JSON text at the path), `viewSql` turns that into what the
// spec's type summarises, with NULL (or an empty array) where the value has another JSON type —
// values of the wrong type are ignored, as in the reference.
import type { ConcreteMetricType } from './metric-spec.ts';
import type { MetricSource } from './metric-source.ts';
import type { ParamBag } from './sql-params.ts';

/** A roll-up map with some non-zero component (what the API shows as a cumulative object). */
const anyNonZero = (map: string): string => `arrayExists(x -> x != 0, mapValues(${map}))`;

const isJsonNumber = (r: string): string => `JSONType(${r}) IN ('Int64', 'UInt64', 'Double')`;

/** The source expression of spec `i` over a span row. Column names come from metric-source.ts. */
export function rawSql(source: MetricSource, i: number, bag: ParamBag): string {
  switch (source.kind) {
    case 'number-column':
      return source.column;
    case 'string-column':
      return `CAST(${source.column}, 'String')`;
    case 'map-object':
      return source.column;
    case 'map-entry': {
      const key = bag.ref(`s${i}_key`, 'String', source.key);
      const present = source.rollup ? ` AND ${anyNonZero(source.column)}` : '';
      return `if(mapContains(${source.column}, ${key})${present}, ${source.column}[${key}], NULL)`;
    }
    case 'json': {
      // One String parameter per segment: JSON* functions take the path as variadic arguments.
      const path = source.segments.map((s, j) => bag.ref(`s${i}_p${j}`, 'String', s));
      return `JSONExtractRaw(attributes, ${path.join(', ')})`;
    }
  }
}

/** What `type` summarises, as an expression of the raw value `r` (a code-generated column alias). */
export function viewSql(type: ConcreteMetricType, source: MetricSource, r: string): string {
  const kind = source.kind;
  switch (type) {
    case 'numeric/continuous':
    case 'numeric/discrete':
      if (kind === 'number-column') return `toNullable(toFloat64(${r}))`;
      if (kind === 'map-entry') return r;
      if (kind === 'json') return `if(${isJsonNumber(r)}, JSONExtractFloat(${r}), NULL)`;
      return "CAST(NULL, 'Nullable(Float64)')";
    case 'binary':
      if (kind === 'json') return `if(JSONType(${r}) = 'Bool', toUInt8(JSONExtractBool(${r})), NULL)`;
      return "CAST(NULL, 'Nullable(UInt8)')";
    case 'categorical/single':
    case 'string':
      if (kind === 'string-column') return `toNullable(${r})`;
      if (kind === 'json') return `if(JSONType(${r}) = 'String', JSONExtractString(${r}), NULL)`;
      return "CAST(NULL, 'Nullable(String)')";
    case 'categorical/multiple':
      if (kind === 'json') return `arrayMap(e -> JSONExtractString(e), arrayFilter(e -> JSONType(e) = 'String', JSONExtractArrayRaw(${r})))`;
      return "CAST([], 'Array(String)')";
    case 'json':
      if (kind === 'json') return `toUInt8(JSONType(${r}) = 'Object')`;
      if (source.kind === 'map-object') return `toUInt8(${source.rollup ? anyNonZero(r) : `notEmpty(${r})`})`;
      return 'toUInt8(0)';
  }
}
