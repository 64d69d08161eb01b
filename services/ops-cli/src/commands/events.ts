// `ops events <aggregate-key>`: the accounts events of one aggregate, for support. The accounts topic
// is the system of record and is kept forever, so this is the whole history: every record is read
// (with a progress bar) and those whose partition key, or whose envelope's aggregate id, is the
// given key are decoded. Records with that key that do not decode are listed too, with the reason.
import { table, type CommandOutput } from '../command-output.ts';
import type { OpsKafka } from '../ops-kafka.ts';
import { progressBar } from '../progress.ts';
import { readRange } from '../read-range.ts';
import { viewValue, type EventView, type ValueView } from '../record-view.ts';
import { watermarks } from './topics.ts';

export interface AggregateEvent extends EventView { partition: number; offset: number }
export interface UndecodableRecord { partition: number; offset: number; timestamp: string; value: ValueView }

export async function eventsCommand(ops: OpsKafka, key: string): Promise<CommandOutput> {
  const topic = ops.topics.accounts;
  const w = await watermarks(ops.admin, topic);
  const events: AggregateEvent[] = [];
  const undecodable: UndecodableRecord[] = [];
  const bar = progressBar(`scanning ${topic}`);
  try {
    await readRange({
      kafka: ops.kafka, topic,
      from: new Map(w.map((p) => [p.partition, BigInt(p.low)])),
      to: new Map(w.map((p) => [p.partition, BigInt(p.high)])),
      onProgress: (d, t) => bar.update(d, t),
      onRecord: (rec) => {
        const v = viewValue(rec.value);
        const at = { partition: rec.partition, offset: Number(rec.offset) };
        if (v.kind === 'event') {
          if (rec.key === key || v.event.aggregate_id === key) events.push({ ...at, ...v.event });
        } else if (rec.key === key) {
          undecodable.push({ ...at, timestamp: new Date(rec.timestampMs).toISOString(), value: v });
        }
      },
    });
  } finally {
    bar.stop();
  }
  const order = (a: { partition: number; offset: number }, b: { partition: number; offset: number }): number => a.partition - b.partition || a.offset - b.offset;
  events.sort(order);
  undecodable.sort(order);
  const lines: string[] = [];
  if (events.length === 0 && undecodable.length === 0) lines.push(`no events with key '${key}' in ${topic}`);
  if (events.length) lines.push(table(['TIME', 'OFFSET', 'TYPE', 'PAYLOAD'], events.map((e) => [e.time, `${e.partition}:${e.offset}`, e.type, JSON.stringify(e.payload)])));
  for (const u of undecodable) lines.push(`undecodable record at ${u.partition}:${u.offset} (${u.timestamp}): ${JSON.stringify(u.value)}`);
  return { json: { key, topic, events, undecodable }, text: lines.join('\n') };
}
