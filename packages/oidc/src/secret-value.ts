// A plaintext secret that refuses to be printed. Logs, JSON bodies and `util.inspect` see
// `[redacted]`; only an explicit `reveal()` (at the point of use, e.g. the token request) yields the
// value. This makes "never log the client secret" a property of the type, not of every call site.
import { inspect } from 'node:util';

const REDACTED = '[redacted]';

export class SecretValue {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

export const revealSecret = (secret: string | SecretValue): string => (typeof secret === 'string' ? secret : secret.reveal());
