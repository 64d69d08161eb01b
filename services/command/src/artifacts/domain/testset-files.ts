// A testset file as rows (reference evaluations §2.2): CSV (a header row, every value text) or JSON
// (an array of objects). Reserved columns carry what is not row data: `__id__` (the testcase id
// asked for), `__dedup_id__` (→ `testcase_dedup_id`), `__flags__`, `__tags__`, `__meta__` (JSON
// text in CSV). A file that cannot be read is a 400 with the reference's words.
import { parse } from 'csv-parse/sync';
import type { TestcaseInput } from '@llm/contracts';
import { invalid } from '@llm/errors';

export type TestsetFileType = 'csv' | 'json';

export function fileType(value: unknown, fallback: TestsetFileType | undefined): TestsetFileType {
  const v = typeof value === 'string' && value !== '' ? value.toLowerCase() : fallback;
  if (v !== 'csv' && v !== 'json') throw invalid('testset_file_type', "Invalid file type. Supported types are 'csv' and 'json'.");
  return v;
}

type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

function jsonCell(v: unknown, column: string): Record<string, unknown> | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const parsed: unknown = typeof v === 'string' ? JSON.parse(v) : v;
  if (!isRow(parsed)) throw new Error(`${column} must hold a JSON object`);
  return parsed;
}

/** One file row as a testcase: reserved columns out of the data. */
function testcaseOf(row: Row): TestcaseInput {
  const { __id__: id, __dedup_id__: dedup, __flags__: flags, __tags__: tags, __meta__: meta, ...data } = row;
  const out: TestcaseInput = { data: dedup !== undefined && dedup !== null && dedup !== '' ? { ...data, testcase_dedup_id: dedup } : data };
  if (typeof id === 'string' && id !== '') out.data = { ...out.data, testcase_id: id };
  const f = jsonCell(flags, '__flags__'); if (f) out.flags = f;
  const t = jsonCell(tags, '__tags__'); if (t) out.tags = t;
  const m = jsonCell(meta, '__meta__'); if (m) out.meta = m;
  return out;
}

/** The rows of an uploaded file. */
export function readTestsetFile(content: Buffer, type: TestsetFileType): TestcaseInput[] {
  let rows: Row[];
  try {
    if (type === 'csv') {
      rows = parse(content, { columns: true, skip_empty_lines: true, bom: true, relax_column_count: false }) as Row[];
    } else {
      const parsed: unknown = JSON.parse(content.toString('utf8'));
      if (!Array.isArray(parsed) || !parsed.every(isRow)) throw new Error('expected an array of objects');
      rows = parsed;
    }
  } catch (err) {
    throw invalid('testset_file_unreadable', `Failed to read ${type.toUpperCase()} file: ${(err as Error).message}`);
  }
  try {
    return rows.map(testcaseOf);
  } catch (err) {
    throw invalid('testset_file_unreadable', `Failed to parse testcases: ${(err as Error).message}`);
  }
}
