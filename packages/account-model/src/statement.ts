// One SQL statement of a projection: the projector runs a fact's statements in its batch transaction.
export interface SqlStatement {
  text: string;
  values: unknown[];
}
