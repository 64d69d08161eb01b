// Query parameters of the generated statements. Every user value (path segments, map keys, bins,
// vmin/vmax, window bounds) reaches ClickHouse as `{name:Type}`; the SQL text only ever holds code
// constants. Names are `a_*`, apart from the filter's `f*` and the project parameter.
import type { SqlParams } from '@llm/span-filter';

export class ParamBag {
  readonly params: SqlParams = {};

  constructor(private readonly prefix = 'a_') {}

  /** Registers a value under a fresh or given name; returns the placeholder. */
  ref(name: string, type: string, value: unknown): string {
    const key = `${this.prefix}${name}`;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`bad parameter name '${key}'`);
    if (Object.hasOwn(this.params, key)) throw new Error(`parameter '${key}' registered twice`);
    this.params[key] = { type, value };
    return `{${key}:${type}}`;
  }
}

/** Parameter values as the ClickHouse client takes them. */
export function paramValues(...sets: SqlParams[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const set of sets) for (const [k, v] of Object.entries(set)) out[k] = v.value;
  return out;
}

/** `db.table`, validated: identifiers are code constants, never user text. */
export function qualifiedTable(table: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$/.test(table)) throw new Error(`bad table name '${table}'`);
  return table;
}
