// The export formats on their own: pages in, the bytes of one file out, read back with a CSV reader
// written here, JSON.parse and hyparquet (an independent Parquet reader).
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import type { ExportFormat } from '@llm/contracts';
import type { Span } from '@llm/span-model';
import { EXPORT_COLUMNS, isoMicros } from '../src/domain/export-columns.ts';
import { csvField, exportEncoder, microsIso, type ExportPage } from '../src/domain/export-encoders.ts';

function span(i: number, extra: Partial<Span> = {}): Span {
  return {
    trace_id: `${String(i % 3).padStart(2, '0')}${'a'.repeat(30)}`,
    span_id: String(i).padStart(16, '0'),
    span_name: `step ${i}`,
    span_kind: 'SPAN_KIND_INTERNAL',
    span_type: 'task',
    trace_type: 'invocation',
    status_code: 'STATUS_CODE_UNSET',
    start_time: `2025-04-01T00:00:${String(i % 60).padStart(2, '0')}.000123Z`,
    end_time: `2025-04-01T00:01:${String(i % 60).padStart(2, '0')}.5Z`,
    attributes: { ag: { type: { span: 'task' }, data: { inputs: { q: `question ${i}` } }, metrics: { tokens: { incremental: { total: i } }, costs: { cumulative: { total: i / 100 } } } } },
    events: [],
    references: [],
    hashes: [],
    ...extra,
  } as Span;
}

const page = (spans: Span[]): ExportPage => ({ spans, records: spans });

function encode(format: ExportFormat, pages: Span[][]): Uint8Array {
  const e = exportEncoder(format);
  const parts = [e.start(), ...pages.map((p) => e.page(page(p))), e.end()];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** RFC 4180 reader: quoted fields may hold commas, quotes (doubled) and line breaks. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i++; } else field += c;
  }
  return rows;
}

const tricky = span(7, { span_name: 'a "quoted", multi\r\nline name', status_message: 'comma, here', parent_id: '1'.repeat(16) });
const pages = [[span(0), span(1), tricky], [], [span(2), span(3)]];
const all = pages.flat();

describe('export encoders', () => {
  it('when spans are exported as JSON Lines, then each line is one record and the pages follow each other', () => {
    const text = new TextDecoder().decode(encode('jsonl', pages));
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l) as Span)).toEqual(all);
  });

  it('when spans are exported as CSV, then a header names the columns and every field reads back, quotes and line breaks included', () => {
    const rows = readCsv(new TextDecoder().decode(encode('csv', pages)));
    expect(rows[0]).toEqual(EXPORT_COLUMNS.map((c) => c.name));
    expect(rows).toHaveLength(all.length + 1);
    const at = (r: string[], name: string): string => r[EXPORT_COLUMNS.findIndex((c) => c.name === name)]!;
    const t = rows[3]!;
    expect(at(t, 'span_name')).toBe(tricky.span_name);
    expect(at(t, 'status_message')).toBe('comma, here');
    expect(at(t, 'parent_id')).toBe('1'.repeat(16));
    expect(at(t, 'start_time')).toBe('2025-04-01T00:00:07.000123Z');
    expect(at(t, 'duration_ms')).toBe('60499.877');
    expect(at(t, 'tokens_incremental_total')).toBe('7');
    expect(at(t, 'costs_cumulative_total')).toBe('0.07');
    expect(at(t, 'tokens_cumulative_total')).toBe('');
    expect(JSON.parse(at(t, 'attributes'))).toEqual(tricky.attributes);
    expect(at(rows[1]!, 'parent_id')).toBe('');
  });

  it('when spans are exported as Parquet, then the file holds one row group per non-empty page and its rows read back', async () => {
    const bytes = encode('parquet', pages);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const meta = parquetMetadata(file);
    expect(meta.row_groups.map((g) => Number(g.num_rows))).toEqual([3, 2]);
    expect(meta.schema.slice(1).map((s) => s.name)).toEqual(EXPORT_COLUMNS.map((c) => c.name));
    const rows = await parquetReadObjects({ file, utf8: true });
    expect(rows).toHaveLength(all.length);
    expect(rows.map((r) => r.span_id)).toEqual(all.map((s) => s.span_id));
    const t = rows[2]!;
    expect(t.span_name).toBe(tricky.span_name);
    expect(t.parent_id).toBe('1'.repeat(16));
    expect(rows[0]!.parent_id).toBeNull();
    expect(t.start_time).toEqual(new Date('2025-04-01T00:00:07.000Z'));
    expect(t.tokens_incremental_total).toBe(7);
    expect(t.tokens_cumulative_total).toBeNull();
    expect(JSON.parse(t.attributes as string)).toEqual(tricky.attributes);
  });

  it('when nothing matches, then each format is still a whole, empty file', async () => {
    expect(encode('jsonl', [[]])).toHaveLength(0);
    expect(new TextDecoder().decode(encode('csv', [[]]))).toBe(`${EXPORT_COLUMNS.map((c) => c.name).join(',')}\r\n`);
    const bytes = encode('parquet', [[]]);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    expect(Number(parquetMetadata(file).num_rows)).toBe(0);
    expect(await parquetReadObjects({ file })).toEqual([]);
  });
});

describe('export helpers', () => {
  it('when a time has microseconds, then it survives µs → ISO → µs', () => {
    for (const iso of ['2025-04-01T00:00:07.000123Z', '1999-12-31T23:59:59.999999Z', '2025-04-01T00:00:00.000000Z']) {
      expect(microsIso(isoMicros(iso))).toBe(iso);
    }
    expect(isoMicros('2025-04-01T00:00:07Z')).toBe(Date.parse('2025-04-01T00:00:07Z') * 1000);
    expect(isoMicros('not a time')).toBeNaN();
  });

  it('when a CSV field holds a separator, a quote or a line break, then it is quoted; otherwise it is left alone', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });
});
