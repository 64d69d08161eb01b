// What a saved-query write carries (reference compat §1.1): slugs, headers, and a revision's `data`
// ({formatting?, filtering?, windowing?}; output-only `trace_ids`/`traces` dropped; any other key
// → 422 naming it). The filtering is checked with the same compiler span and trace queries use, so
// a stored revision is always usable, and stored normalised so a sent filter round-trips.
import { z } from 'zod';
import type { QueryHeader } from '@llm/events';
import { RequestValidationError, issuesOf } from '@llm/http';
import { compileFilter } from '@llm/span-filter';
import type { revisionData } from '@llm/contracts';

// The write bodies (slug, header, revision data) are @llm/contracts' (saved-query-writes.ts).

/**
 * Parses the body; an unknown key is reported at its own location (the reference's `extra_forbidden`
 * loc ends with the key), not at the object holding it.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined) throw new RequestValidationError([{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issues = r.error.issues.flatMap((i) => (i.code === 'unrecognized_keys'
    ? i.keys.map((k) => ({ loc: ['body', ...i.path.map(String), k], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }))
    : issuesOf(new z.ZodError([i]), 'body')));
  throw new RequestValidationError(issues);
}

const nullIfEmpty = (v: unknown): string => (v === undefined || v === null ? '' : JSON.stringify(v));

export function headerOf(h: { name?: string | null; description?: string | null; tags?: unknown; meta?: unknown; flags?: unknown }): QueryHeader {
  return { name: h.name ?? '', description: h.description ?? '', tags_json: nullIfEmpty(h.tags), meta_json: nullIfEmpty(h.meta), flags_json: nullIfEmpty(h.flags) };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const dropNulls = (o: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

/** `{"conditions":[]}` → `{"operator":"and","conditions":[]}`; null `options` dropped; nested groups alike. */
export function normaliseFiltering(f: unknown): unknown {
  if (!isObject(f)) return f;
  const out: Record<string, unknown> = { operator: 'and', ...dropNulls(f) };
  if (Array.isArray(f.conditions)) {
    out.conditions = f.conditions.map((c) => {
      if (!isObject(c)) return c;
      if (Array.isArray(c.conditions)) return normaliseFiltering(c);
      return c.options === null ? Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'options')) : c;
    });
  }
  return out;
}

/** The stored data as JSON text ('' = none): only formatting, filtering and windowing persist. */
export function storedData(data: z.infer<typeof revisionData> | null | undefined): string {
  if (!data) return '';
  const out: Record<string, unknown> = {};
  if (data.formatting) { const f = dropNulls(data.formatting); if (Object.keys(f).length) out.formatting = f; }
  if (data.filtering !== undefined && data.filtering !== null) {
    const c = compileFilter(data.filtering, { projectParam: 'project_id_param', root: 'query_revision.data.filtering' });
    if (!c.ok) {
      throw new RequestValidationError(c.errors.map((e) => ({ loc: ['body', 'query_revision', 'data', 'filtering', ...e.path.slice(1)], msg: e.message, type: 'value_error' })));
    }
    out.filtering = normaliseFiltering(data.filtering);
  }
  if (data.windowing) { const w = dropNulls(data.windowing); if (Object.keys(w).length) out.windowing = w; }
  return Object.keys(out).length ? JSON.stringify(out) : '';
}
