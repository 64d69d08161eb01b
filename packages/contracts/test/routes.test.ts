import { describe, expect, it } from 'vitest';
import { ROUTES, routesOf, stripApiPrefix } from '@llm/contracts';

describe('route table', () => {
  it('when paths carry /api prefixes, then any number of them is stripped', () => {
    expect(stripApiPrefix('/api/traces/x')).toBe('/traces/x');
    expect(stripApiPrefix('/api/api/spans?trace_id=1')).toBe('/spans?trace_id=1');
    expect(stripApiPrefix('/apis/x')).toBe('/apis/x');
    expect(stripApiPrefix('/api')).toBe('/');
  });

  it('when every route is listed, then each belongs to exactly one side and no method+path repeats', () => {
    const seen = new Set<string>();
    for (const r of Object.values(ROUTES)) {
      const k = `${r.method} ${r.path}`;
      expect(seen.has(k)).toBe(false);
      seen.add(k);
    }
    expect(routesOf('command').length + routesOf('query').length + routesOf('projector').length).toBe(Object.keys(ROUTES).length);
  });
});
