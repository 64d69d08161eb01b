// Every user value reaches ClickHouse as a query parameter (`{name:Type}` in the text, the value on
// the side). The sink hands out the placeholders; types are always code constants.

export interface SqlParam {
  /** ClickHouse type of the parameter, e.g. `String`, `Array(String)`, `DateTime64(6,'UTC')`. */
  type: string;
  value: unknown;
}

export type SqlParams = Record<string, SqlParam>;

export interface ParamSink {
  /** Registers a value and returns the placeholder to put in the SQL text. */
  ref(type: string, value: unknown): string;
  /** A lambda variable name unique within the statement (nested `arrayExists` must not shadow). */
  lambdaVar(): string;
  readonly params: SqlParams;
  readonly size: number;
}

export function createParamSink(prefix: string): ParamSink {
  const params: SqlParams = {};
  let n = 0;
  let lambdas = 0;
  return {
    ref(type, value) {
      const name = `${prefix}${n++}`;
      params[name] = { type, value };
      return `{${name}:${type}}`;
    },
    lambdaVar() {
      return `x${lambdas++}`;
    },
    params,
    get size() {
      return n;
    },
  };
}

/** ClickHouse parameter names are identifiers; anything else is a programming error. */
export function assertParamName(name: string, what: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`${what} '${name}' is not a valid query parameter name`);
}
