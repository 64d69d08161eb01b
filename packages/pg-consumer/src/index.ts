// A Kafka consumer group whose every batch is one Postgres transaction with its consumed offsets
// (exactly-once derivations into Postgres), shared by the webhook dispatcher and the usage meters.
export { createLogConsumer, type BatchSink, type LogConsumer, type LogConsumerDeps, type RecordVerdict } from './log-consumer.ts';
export { offsetStore } from './offsets.ts';
export { waitForTables } from './wait-for-tables.ts';
