// The record count behind `ops export`'s progress bar: line ends, except inside CSV quotes.
import { describe, expect, it } from 'vitest';
import { recordCounter } from '../src/commands/export.ts';

const feed = (format: 'jsonl' | 'csv', chunks: string[]): number => {
  const c = recordCounter(format);
  for (const s of chunks) c.add(new TextEncoder().encode(s));
  return c.records;
};

describe('ops export record counter', () => {
  it('when JSON Lines arrive in arbitrary chunks, then each line end is one record', () => {
    expect(feed('jsonl', ['{"a":"x\\ny"}\n{"a', '":2}\n', '{"a":3}\n'])).toBe(3);
  });

  it('when CSV fields hold quoted line breaks and doubled quotes across chunks, then only record ends count, header excluded', () => {
    expect(feed('csv', ['a,b\r\n', '1,"two\r\nlines"\r\n2,"say ""hi', '"""\r\n3,x\r\n'])).toBe(3);
    expect(feed('csv', ['a,b\r\n'])).toBe(0);
  });
});
