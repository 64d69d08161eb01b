// Writes a record that could not be applied to `<topic>.dlq`, wrapping the original bytes with the
// error and its origin, so it can be inspected and re-driven.
import type { IncomingRecord, Producer } from './ports.ts';

export async function sendToDlq(producer: Producer, dlqTopic: string, rec: IncomingRecord, error: string): Promise<void> {
  const value = Buffer.from(JSON.stringify({
    error,
    topic: rec.topic,
    partition: rec.partition,
    offset: rec.offset.toString(),
    key: rec.key,
    value_base64: rec.value ? rec.value.toString('base64') : null,
    dead_lettered_at: new Date().toISOString(),
  }));
  await producer.send(dlqTopic, [{ key: rec.key ?? '', value }]);
}
