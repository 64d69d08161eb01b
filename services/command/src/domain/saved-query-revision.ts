// What a saved-query revision stores, checked at commit time with the same compiler the span and
// trace queries use, so a stored revision is always usable: resolving it later can only fail for
// reasons of the request (a bad cursor, a focus conflict), never because of what was saved.
import type { SavedQueryRevisionInput } from '@llm/contracts';
import type { QueryRevisionInfo } from '@llm/events';
import { compileFilter, compileWindowing } from '@llm/span-filter';

export type RevisionContent = Omit<QueryRevisionInfo, 'id' | 'slug' | 'version'>;

export interface RevisionProblem {
  /** Where in the body, e.g. ['query_revision', 'data', 'windowing', 'limit']. */
  loc: (string | number)[];
  message: string;
}

export type RevisionCheck =
  | { ok: true; value: RevisionContent }
  | { ok: false; part: 'filtering' | 'windowing'; problems: RevisionProblem[] };

const DATA = ['query_revision', 'data'];

export function checkRevisionContent(input: SavedQueryRevisionInput): RevisionCheck {
  const { filtering, windowing } = input.data;
  const focus = input.formatting.focus ?? 'span';

  const f = compileFilter(filtering, { projectParam: 'project_id_param', root: `${DATA.join('.')}.filtering` });
  if (!f.ok) return { ok: false, part: 'filtering', problems: f.errors.map((e) => ({ loc: [...DATA, 'filtering', ...e.path.slice(1)], message: e.message })) };

  const w = compileWindowing(windowing, focus, { root: `${DATA.join('.')}.windowing` });
  if (!w.ok) return { ok: false, part: 'windowing', problems: w.errors.map((e) => ({ loc: [...DATA, 'windowing', ...e.path.slice(1)], message: e.message })) };
  // A cursor is a position in one walk through the results, not part of a query; a revision that
  // stored one would resume a stranger's walk on every use.
  if (w.cursor !== undefined) {
    return { ok: false, part: 'windowing', problems: [{ loc: [...DATA, 'windowing', 'next'], message: `${DATA.join('.')}.windowing.next: a cursor cannot be saved in a query revision` }] };
  }

  return {
    ok: true,
    value: {
      filtering_json: jsonText(filtering),
      windowing_json: jsonText(windowing),
      focus: input.formatting.focus ?? '',
      format: input.formatting.format ?? '',
      message: input.message ?? '',
    },
  };
}

/** The compiler also takes filtering as JSON text (deprecated endpoints); the stored form is an object. */
function jsonText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') {
    if (v.trim() === '') return '';
    const parsed: unknown = JSON.parse(v);
    return parsed === null ? '' : JSON.stringify(parsed);
  }
  return JSON.stringify(v);
}
