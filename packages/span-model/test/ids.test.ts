import { describe, expect, it } from 'vitest';

import { parseSpanId, parseTraceId, parseUuid } from '../src/ids.ts';

const HEX32 = '0af7651916cd43dd8448eb211c80319c';

describe('parseTraceId', () => {
  it.each([
    ['32 lowercase hex', HEX32],
    ['32 uppercase hex', HEX32.toUpperCase()],
    ['a dashed UUID', '0af76519-16cd-43dd-8448-eb211c80319c'],
    ['a dashed uppercase UUID', '0AF76519-16CD-43DD-8448-EB211C80319C'],
    ['0x + 32 hex', `0x${HEX32}`],
    ['0X + 32 uppercase hex', `0X${HEX32.toUpperCase()}`],
  ])('when given %s, then returns 32 lowercase hex', (_, input) => {
    expect(parseTraceId(input)).toEqual({ ok: true, value: HEX32 });
  });

  it.each([
    ['16 hex', 'b7ad6b7169203331'],
    ['31 hex', HEX32.slice(1)],
    ['non-hex characters', `${HEX32.slice(1)}g`],
    ['0x + dashed UUID', '0x0af76519-16cd-43dd-8448-eb211c80319c'],
    ['misplaced dashes', '0af7651916cd-43dd-8448-eb211c80319c'],
    ['an empty string', ''],
    ['a number', 42],
    ['undefined', undefined],
  ])('when given %s, then returns an error', (_, input) => {
    const r = parseTraceId(input);
    expect(r.ok).toBe(false);
  });

  it('when the input is huge, then the error message stays short', () => {
    const r = parseTraceId('z'.repeat(10_000));
    expect(r.ok === false && r.error.length < 200).toBe(true);
  });
});

describe('parseSpanId', () => {
  it.each([
    ['16 hex', 'b7ad6b7169203331', 'b7ad6b7169203331'],
    ['16 uppercase hex', 'B7AD6B7169203331', 'b7ad6b7169203331'],
    ['0x + 16 hex', '0xB7AD6B7169203331', 'b7ad6b7169203331'],
    ['32 hex', HEX32.toUpperCase(), HEX32],
    ['a dashed UUID', '0af76519-16cd-43dd-8448-eb211c80319c', HEX32],
  ])('when given %s, then returns lowercase hex as sent (never doubled)', (_, input, expected) => {
    expect(parseSpanId(input)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['15 hex', 'b7ad6b716920333'],
    ['20 hex', 'b7ad6b71692033311234'],
    ['non-hex', 'b7ad6b716920333x'],
    ['null', null],
  ])('when given %s, then returns an error', (_, input) => {
    expect(parseSpanId(input).ok).toBe(false);
  });
});

describe('parseUuid', () => {
  it('when given 32 hex, then returns the dashed lowercase UUID', () => {
    expect(parseUuid(HEX32.toUpperCase())).toEqual({ ok: true, value: '0af76519-16cd-43dd-8448-eb211c80319c' });
  });

  it('when given something else, then returns an error', () => {
    expect(parseUuid('not-a-uuid').ok).toBe(false);
  });
});
