// The three export formats as incremental encoders: the route hands them one page of spans at a
// time and writes out the bytes each call returns, so nothing holds more than a page. JSON Lines
// writes one API span (trace focus: one canonical trace) per line; CSV and Parquet write the flat
// columns of export-columns.ts, Parquet one row group per page (hyparquet-writer: pure JavaScript,
// snappy built in; the file's footer, written by `end`, indexes the row groups).
import type { ExportFormat } from '@llm/contracts';
import type { Span } from '@llm/span-model';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { EXPORT_COLUMNS, type ExportCell, type ExportColumn } from './export-columns.ts';

export interface ExportPage {
  spans: readonly Span[];
  /** The JSON Lines records of the page: its spans, or (trace focus) its traces. */
  records: readonly unknown[];
}

export interface ExportEncoder {
  /** What opens the file (CSV header, Parquet magic bytes). */
  start(): Uint8Array;
  page(p: ExportPage): Uint8Array;
  /** What closes the file (the Parquet footer); empty for the text formats. */
  end(): Uint8Array;
}

const utf8 = new TextEncoder();
const EMPTY = new Uint8Array(0);

/** µs since the epoch → `YYYY-MM-DDThh:mm:ss.ffffffZ`. */
export function microsIso(us: number): string {
  const s = Math.floor(us / 1e6);
  return `${new Date(s * 1000).toISOString().slice(0, 19)}.${String(us - s * 1e6).padStart(6, '0')}Z`;
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
export function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

function csvCell(c: ExportColumn, v: ExportCell): string {
  if (v === null || (typeof v === 'number' && !Number.isFinite(v))) return '';
  if (c.type === 'timestamp' && typeof v === 'number') return microsIso(v);
  return csvField(String(v));
}

function jsonlEncoder(): ExportEncoder {
  return {
    start: () => EMPTY,
    page: (p) => utf8.encode(p.records.map((r) => `${JSON.stringify(r)}\n`).join('')),
    end: () => EMPTY,
  };
}

function csvEncoder(): ExportEncoder {
  return {
    start: () => utf8.encode(`${EXPORT_COLUMNS.map((c) => csvField(c.name)).join(',')}\r\n`),
    page: (p) => utf8.encode(p.spans.map((s) => `${EXPORT_COLUMNS.map((c) => csvCell(c, c.value(s))).join(',')}\r\n`).join('')),
    end: () => EMPTY,
  };
}

type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]['schema'][number];

const PARQUET_TYPES: Record<ExportColumn['type'], Omit<SchemaElement, 'name'>> = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  timestamp: { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' }, repetition_type: 'OPTIONAL' },
  double: { type: 'DOUBLE', repetition_type: 'OPTIONAL' },
};

/** A writer that hands over what was written since the last `take` (row groups as they are made). */
class ChunkWriter extends ByteWriter {
  private chunks: Uint8Array[] = [];
  flush(): void {
    if (this.index === 0) return;
    this.chunks.push(this.getBytes().slice());
    this.index = 0;
  }
  take(): Uint8Array {
    this.flush();
    const out = this.chunks.length === 1 ? this.chunks[0]! : concat(this.chunks);
    this.chunks = [];
    return out;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

function parquetCell(c: ExportColumn, v: ExportCell): string | number | bigint | null {
  if (v === null) return null;
  if (c.type === 'timestamp') return typeof v === 'number' && Number.isFinite(v) ? BigInt(v) : null;
  if (c.type === 'double') return typeof v === 'number' && Number.isFinite(v) ? v : null;
  return String(v);
}

function parquetEncoder(): ExportEncoder {
  const writer = new ChunkWriter();
  const schema: SchemaElement[] = [
    { name: 'root', num_children: EXPORT_COLUMNS.length },
    ...EXPORT_COLUMNS.map((c) => ({ name: c.name, ...PARQUET_TYPES[c.type] })),
  ];
  let pw: ParquetWriter | undefined;
  return {
    start() {
      pw = new ParquetWriter({ writer, schema, createdBy: 'llm-backend span export' });
      return writer.take();
    },
    page(p) {
      if (!pw) throw new Error('parquet export: page before start');
      if (p.spans.length === 0) return EMPTY;
      const columnData = EXPORT_COLUMNS.map((c) => ({ name: c.name, data: p.spans.map((s) => parquetCell(c, c.value(s))) }));
      // One row group per page: its size is what the page holds, and the writer never keeps more.
      void pw.write({ columnData, rowGroupSize: p.spans.length });
      return writer.take();
    },
    end() {
      if (!pw) throw new Error('parquet export: end before start');
      void pw.finish();
      return writer.take();
    },
  };
}

export function exportEncoder(format: ExportFormat): ExportEncoder {
  switch (format) {
    case 'jsonl': return jsonlEncoder();
    case 'csv': return csvEncoder();
    case 'parquet': return parquetEncoder();
  }
}
