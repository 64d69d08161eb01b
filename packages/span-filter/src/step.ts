// Expected failures of the compiler are values (a user's bad filter is not exceptional). `at` is the
// location relative to the element being compiled; callers prepend their own path.

export type Path = Array<string | number>;
export type Fail = { ok: false; at: Path; message: string };
export type Step<T> = { ok: true; value: T } | Fail;

export function done<T>(value: T): Step<T> {
  return { ok: true, value };
}

export function fail(message: string, at: Path = []): Fail {
  return { ok: false, at, message };
}

/** Prefixes the location of a failure with the path of the enclosing element. */
export function within(at: Path, f: Fail): Fail {
  return { ok: false, at: [...at, ...f.at], message: f.message };
}

/** `filtering.conditions[1].value[0]` */
export function formatPath(path: Path): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  return out;
}

/** User text echoed in an error message, clipped so a hostile megabyte does not come back verbatim. */
export function show(value: unknown): string {
  const s = typeof value === 'string' ? `'${value}'` : JSON.stringify(value) ?? String(value);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
