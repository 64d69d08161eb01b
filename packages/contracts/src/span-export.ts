// POST /spans/export and /traces/export: the body of the span and trace queries (filtering,
// windowing, saved-query refs) plus the file format the whole result is streamed in.
import { z } from 'zod';
import { jsonValue, openObject } from './text.ts';

export const EXPORT_FORMATS = ['jsonl', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * `format` defaults to `jsonl`. `windowing` is the query routes' (time bounds, order, `next` to resume
 * after a cursor, sampling); its `limit` is a page size there and is not a cap here: an export
 * streams every match. Other fields (`query_ref`, `query_variant_ref`, `query_revision_ref`) are read
 * by `savedQueryRefs`, as on the query routes.
 */
export const spanExportBody = openObject({
  filtering: jsonValue.optional(),
  windowing: jsonValue.optional(),
  format: z.enum(EXPORT_FORMATS, { error: `format must be one of: ${EXPORT_FORMATS.join(', ')}` }).optional(),
});
export type SpanExportBody = z.infer<typeof spanExportBody>;

/** The media type each format is served with. */
export const EXPORT_MEDIA_TYPES: Readonly<Record<ExportFormat, string>> = {
  jsonl: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
};
