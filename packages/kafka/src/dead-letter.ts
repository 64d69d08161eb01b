// Writes a record that could not be applied to `<topic>.dlq`, wrapping the original bytes with the
// error and its origin, so it can be inspected and re-driven.
// A record too large to carry base64-encoded in a dead letter (base64 adds a third) is referenced by
// its origin position instead, so setting it aside can never fail for its size: re-drive then reads
// it from the origin topic while retention keeps it.
import { z } from 'zod';
import type { IncomingRecord, Producer } from './ports.ts';
import { labelledCounter } from '@llm/metrics';

const deadLettered = labelledCounter('kafka_dead_letters_total', 'Records written to a dead-letter topic, per dead-letter topic (every consumer that sets records aside).', ['topic']);

/** The dead-letter record's value, as written here and read by re-drive and by operators. */
export const deadLetterRecord = z.object({
  error: z.string(),
  topic: z.string(),
  partition: z.number().int(),
  offset: z.string(),
  key: z.string().nullable(),
  /** The original record value; null when it was empty or too large to carry inline. */
  value_base64: z.string().nullable(),
  value_bytes: z.number().int().optional(),
  value_omitted: z.string().optional(),
  dead_lettered_at: z.string(),
});
export type DeadLetterRecord = z.infer<typeof deadLetterRecord>;

/** Largest original record carried inline (its base64 form stays well under the topic limit). */
export const MAX_INLINE_DEAD_LETTER_BYTES = 4 * 1024 * 1024;

export async function sendToDlq(producer: Producer, dlqTopic: string, rec: IncomingRecord, error: string): Promise<void> {
  const inline = !rec.value || rec.value.length <= MAX_INLINE_DEAD_LETTER_BYTES;
  const letter: DeadLetterRecord = {
    error: error.length > 10_000 ? `${error.slice(0, 10_000)}…` : error,
    topic: rec.topic,
    partition: rec.partition,
    offset: rec.offset.toString(),
    key: rec.key,
    value_base64: rec.value && inline ? rec.value.toString('base64') : null,
    ...(inline ? {} : { value_bytes: rec.value!.length, value_omitted: 'too large to carry inline: re-drive reads it from the origin topic at partition/offset' }),
    dead_lettered_at: new Date().toISOString(),
  };
  const value = Buffer.from(JSON.stringify(letter));
  await producer.send(dlqTopic, [{ key: (rec.key ?? '').slice(0, 10_000), value }]);
  deadLettered.inc({ topic: dlqTopic });
}
