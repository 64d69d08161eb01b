export { openClickhouse } from './clickhouse-client.ts';
export type { Clickhouse, ClickhouseSettings, ClickHouseClient } from './clickhouse-client.ts';
export { migrateClickhouse } from './migrate.ts';
export { classifyClickhouseError } from './classify-error.ts';
export { BatchingWriter, type BatchingWriterOptions } from './batching-writer.ts';
