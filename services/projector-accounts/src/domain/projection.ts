// What a pure projection of one accounts event yields: the SQL to apply it, or why it is not a fact.

export interface SqlStatement {
  text: string;
  values: unknown[];
}

export type Projection = { status: 'applied'; statements: SqlStatement[] } | { status: 'rejected'; reason: string };
