export { createKafkaClient, DEFAULT_KAFKA_CLIENT, KAFKA_CLIENT_KINDS } from './kafka-client.ts';
export type { KafkaClientKind } from './kafka-client.ts';
export type {
  Admin, Consumer, ConsumerOptions, IncomingBatch, IncomingRecord, KafkaClient, KafkaSettings, OutgoingRecord,
  Producer,
} from './ports.ts';
export { deadLetterRecord, sendToDlq } from './dead-letter.ts';
export type { DeadLetterRecord } from './dead-letter.ts';
export { applyWithPolicy, runWithPolicy, setAsideBreaker } from './apply-with-policy.ts';
export type { ApplyPolicy, SetAsideBreaker } from './apply-with-policy.ts';
export { RecordTooLargeError, isRecordRefusal } from './record-too-large.ts';
export { redriveDeadLetters } from './redrive.ts';
export type { RedriveOptions, RedriveResult } from './redrive.ts';
export { createLagMonitor, LAG_LADDER_MS } from './consumer-lag.ts';
export type { LagMonitor, LagMonitorOptions, LagSnapshot } from './consumer-lag.ts';
