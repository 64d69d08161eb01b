// `ops dlq list | inspect <topic> | redrive <topic>`: the dead-letter topics (`<topic>.dlq`), what
// they hold, and re-drive. A dead letter carries its reason in its value (the JSON of
// @llm/kafka's `deadLetterRecord`: error, origin topic/partition/offset, key, original bytes), not in
// Kafka headers; inspect shows that and decodes the original bytes where they are an event.
// Re-drive is @llm/kafka's `redriveDeadLetters`, the one `npm run redrive` runs: same progress group
// (`redrive.<dlq>`), so the two continue each other.
import { deadLetterRecord, redriveDeadLetters, type IncomingRecord } from '@llm/kafka';
import { table, type CommandOutput } from '../command-output.ts';
import { OpsFailure } from '../ops-errors.ts';
import type { OpsKafka } from '../ops-kafka.ts';
import { progressBar } from '../progress.ts';
import { readRange } from '../read-range.ts';
import { viewValue, type ValueView } from '../record-view.ts';
import { scopedTopics, watermarks } from './topics.ts';

const DLQ_SUFFIX = '.dlq';

/** `spans`, `accounts`, `platform`, `deliveries`, a topic, or its dead-letter topic → the dead-letter topic. */
export function dlqTopicOf(ops: OpsKafka, name: string): string {
  const alias: Record<string, string> = { spans: ops.topics.spans, accounts: ops.topics.accounts, platform: ops.topics.platform, deliveries: ops.topics.deliveries };
  const topic = alias[name] ?? name;
  return topic.endsWith(DLQ_SUFFIX) ? topic : ops.topics.dlq(topic);
}

async function existingDlq(ops: OpsKafka, name: string): Promise<string> {
  const dlq = dlqTopicOf(ops, name);
  if (!(await ops.admin.listTopics()).includes(dlq)) throw new OpsFailure('topic_not_found', `no dead-letter topic '${dlq}'`);
  return dlq;
}

export interface DlqView { topic: string; origin: string; records: number; not_redriven: number }

export async function dlqListCommand(ops: OpsKafka): Promise<CommandOutput> {
  const views: DlqView[] = [];
  for (const topic of (await scopedTopics(ops)).filter((t) => t.endsWith(DLQ_SUFFIX))) {
    const w = await watermarks(ops.admin, topic);
    const done = await ops.admin.committedOffsets(`redrive.${topic}`, topic);
    views.push({
      topic, origin: topic.slice(0, -DLQ_SUFFIX.length),
      records: w.reduce((n, p) => n + p.high - p.low, 0),
      not_redriven: w.reduce((n, p) => n + p.high - Math.max(p.low, Number(done.get(p.partition) ?? 0n)), 0),
    });
  }
  const text = views.length === 0 ? 'no dead-letter topics' : table(['DLQ TOPIC', 'RECORDS', 'NOT RE-DRIVEN'], views.map((v) => [v.topic, v.records, v.not_redriven]));
  return { json: { prefix: ops.prefix, dlqs: views }, text };
}

export interface DeadLetterView {
  partition: number;
  offset: number;
  timestamp: string;
  key: string | null;
  /** Why the record was set aside. */
  reason: string | null;
  origin: { topic: string; partition: number; offset: string } | null;
  dead_lettered_at: string | null;
  /** The original record's value (decoded where possible); null when it was not carried inline. */
  value: ValueView | null;
  value_omitted?: string;
  /** The dead letter itself, when it is not one this system wrote. */
  unreadable?: ValueView;
}

export function viewDeadLetter(rec: IncomingRecord): DeadLetterView {
  const base = { partition: rec.partition, offset: Number(rec.offset), timestamp: new Date(rec.timestampMs).toISOString(), key: rec.key };
  let parsedJson: unknown = null;
  try { parsedJson = rec.value ? JSON.parse(rec.value.toString('utf8')) : null; } catch { /* reported below as unreadable */ }
  const letter = deadLetterRecord.safeParse(parsedJson);
  if (!letter.success) return { ...base, reason: null, origin: null, dead_lettered_at: null, value: null, unreadable: viewValue(rec.value) };
  const d = letter.data;
  return {
    ...base, reason: d.error, origin: { topic: d.topic, partition: d.partition, offset: d.offset }, dead_lettered_at: d.dead_lettered_at,
    value: d.value_base64 === null ? null : viewValue(Buffer.from(d.value_base64, 'base64')),
    ...(d.value_omitted ? { value_omitted: d.value_omitted } : {}),
  };
}

export async function dlqInspectCommand(ops: OpsKafka, name: string, o: { offset?: number | undefined; limit: number; partition?: number | undefined }): Promise<CommandOutput> {
  const topic = await existingDlq(ops, name);
  const w = (await watermarks(ops.admin, topic)).filter((p) => o.partition === undefined || p.partition === o.partition);
  if (w.length === 0) throw new OpsFailure('partition_not_found', `'${topic}' has no partition ${o.partition}`);
  const from = new Map(w.map((p) => [p.partition, BigInt(Math.max(p.low, o.offset ?? p.low))]));
  const to = new Map(w.map((p) => [p.partition, BigInt(Math.min(p.high, Number(from.get(p.partition)!) + o.limit))]));
  const records: DeadLetterView[] = [];
  await readRange({ kafka: ops.kafka, topic, from, to, onRecord: (r) => records.push(viewDeadLetter(r)) });
  records.sort((a, b) => a.partition - b.partition || a.offset - b.offset);
  const shown = records.slice(0, o.limit);
  const text = shown.length === 0 ? `no dead letters in ${topic} from the given offset` : shown.map(describe).join('\n\n');
  return { json: { topic, records: shown }, text };
}

function describe(d: DeadLetterView): string {
  const lines = [`${d.partition}:${d.offset}  ${d.timestamp}  key=${d.key ?? '-'}`];
  if (d.unreadable) {
    lines.push('  not a dead letter this system wrote:', `  ${JSON.stringify(d.unreadable)}`);
    return lines.join('\n');
  }
  lines.push(`  reason: ${d.reason}`, `  origin: ${d.origin?.topic}[${d.origin?.partition}]@${d.origin?.offset}  set aside ${d.dead_lettered_at}`);
  if (d.value_omitted) lines.push(`  value: ${d.value_omitted}`);
  else if (d.value?.kind === 'event') lines.push(`  event: ${d.value.event.type} ${d.value.event.event_id} at ${d.value.event.time}`, `  payload: ${JSON.stringify(d.value.event.payload)}`);
  else if (d.value) lines.push(`  value: ${JSON.stringify(d.value)}`);
  else lines.push('  value: (empty)');
  return lines.join('\n');
}

export async function dlqRedriveCommand(ops: OpsKafka, name: string): Promise<CommandOutput> {
  const dlqTopic = await existingDlq(ops, name);
  const topic = dlqTopic.slice(0, -DLQ_SUFFIX.length);
  const bar = progressBar(`re-driving ${dlqTopic}`);
  // The dead letters hold the original bytes (framed or not): re-appended as they are, unframed.
  const producer = await ops.kafka.producer();
  try {
    const r = await redriveDeadLetters({ kafka: ops.kafka, producer, topic, dlqTopic, onProgress: (d, t) => bar.update(d, t) });
    bar.stop();
    const text = `${r.redriven} of ${r.total} dead letters re-appended to ${topic}${r.skipped ? ` (${r.skipped} skipped: not from this topic or unreadable)` : ''}`;
    return { json: { topic, dlq_topic: dlqTopic, ...r }, text };
  } finally {
    bar.stop();
    await producer.close();
  }
}
