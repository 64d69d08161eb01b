// Test helper: the compiled SQL with each placeholder replaced by its value, for readable assertions.
// Never used to build real queries.
import type { SqlParams } from '../src/index.ts';

export function render(sql: string, params: SqlParams): string {
  // Parameter types never contain braces, so a placeholder is `{name:` up to the next `}`.
  return sql.replace(/\{([A-Za-z_]\w*):[^{}]*\}/g, (whole, name: string) => {
    const p = params[name];
    return p === undefined ? whole : JSON.stringify(p.value);
  });
}
