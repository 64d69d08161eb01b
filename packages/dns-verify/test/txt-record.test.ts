import { describe, expect, it } from 'vitest';
import { publishedValue, txtRecord } from '../src/txt-record.ts';

describe('the TXT record to publish', () => {
  it('when a domain and token are given, then name and value follow the reference exactly', () => {
    expect(txtRecord('example.com', '0123456789abcdef0123456789abcdef')).toEqual({
      type: 'TXT',
      name: '_agenta-verification.example.com',
      value: '_agenta-verification=0123456789abcdef0123456789abcdef',
    });
  });

  it('when a published value carries console quoting or whitespace, then that is undone once', () => {
    expect(publishedValue('  "_agenta-verification=abc"  ')).toBe('_agenta-verification=abc');
    expect(publishedValue('_agenta-verification=abc ')).toBe('_agenta-verification=abc');
    expect(publishedValue('""x""')).toBe('"x"');
    expect(publishedValue('"')).toBe('"');
  });
});
