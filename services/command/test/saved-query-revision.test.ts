import { describe, expect, it } from 'vitest';
import { savedQueryRevisionInput, SAVED_QUERY_SLUG } from '@llm/contracts';
import { checkRevisionContent } from '../src/domain/saved-query-revision.ts';
import { newQuerySlug } from '../src/domain/saved-query-slug.ts';

const input = (x: unknown) => savedQueryRevisionInput.parse(x);

describe('saved-query revision content', () => {
  it('when filtering and windowing are usable, then they are stored as JSON text with the formatting', () => {
    const c = checkRevisionContent(input({
      data: { filtering: '{"conditions":[{"field":"span_name","value":"x"}]}', windowing: { limit: 5, order: 'ascending' } },
      formatting: { focus: 'trace' },
      message: 'first',
    }));
    expect(c).toEqual({
      ok: true,
      value: { filtering_json: '{"conditions":[{"field":"span_name","value":"x"}]}', windowing_json: '{"limit":5,"order":"ascending"}', focus: 'trace', format: '', message: 'first' },
    });
  });

  it('when nothing is given, then the revision matches everything (empty texts)', () => {
    expect(checkRevisionContent(input({}))).toMatchObject({ ok: true, value: { filtering_json: '', windowing_json: '', focus: '' } });
  });

  it('when the filtering uses an unknown operator, then the problem names the condition', () => {
    const c = checkRevisionContent(input({ data: { filtering: { conditions: [{ field: 'span_name', operator: 'nearly', value: 'x' }] } } }));
    expect(c.ok).toBe(false);
    if (c.ok) return;
    expect(c.part).toBe('filtering');
    expect(c.problems[0]!.message).toMatch(/^query_revision\.data\.filtering\.conditions\[0\].*nearly/);
  });

  it('when the windowing is unusable or carries a cursor, then a windowing problem with its location', () => {
    const bad = checkRevisionContent(input({ data: { windowing: { limit: 0 } } }));
    expect(bad).toMatchObject({ ok: false, part: 'windowing', problems: [{ loc: ['query_revision', 'data', 'windowing', 'limit'] }] });
    const backwards = checkRevisionContent(input({ data: { windowing: { oldest: '2025-01-02T00:00:00Z', newest: '2025-01-01T00:00:00Z' } } }));
    expect(backwards).toMatchObject({ ok: false, part: 'windowing' });
  });
});

describe('generated slugs', () => {
  it('when the query has a name, then the slug is readable with a random suffix', () => {
    expect(newQuerySlug('Errors in Checkout — EU', 'a1b2c3')).toBe('errors-in-checkout-eu-a1b2c3');
    expect(newQuerySlug('Café', 'a1b2c3')).toBe('cafe-a1b2c3');
  });

  it('when there is no usable name, then a random slug', () => {
    expect(newQuerySlug(undefined, 'a1b2c3')).toBe('query-a1b2c3');
    expect(newQuerySlug('!!!', 'a1b2c3')).toBe('query-a1b2c3');
  });

  it('when the name is long, then the slug still keeps the slug rule', () => {
    const s = newQuerySlug('x'.repeat(300), 'a1b2c3');
    expect(SAVED_QUERY_SLUG.test(s)).toBe(true);
  });
});
