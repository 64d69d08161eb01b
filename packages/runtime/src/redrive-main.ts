// `npm run redrive -- spans|accounts`: appends the records a projector set aside in the topic's
// dead-letter topic (`<topic>.dlq`) to the topic again, after the fix that lets them apply, with a
// progress bar. Records that fail again go back to the dead-letter topic with their new reason.
// Needs KAFKA_BROKERS (default: the broker `npm start` runs locally).
import cliProgress from 'cli-progress';
import { z } from 'zod';
import { envFragments, parseConfig } from '@llm/config';
import { createLogger } from '@llm/logging';
import { redriveDeadLetters } from '@llm/kafka';
import { connectKafka } from './infrastructure.ts';

const target = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (target !== 'spans' && target !== 'accounts') {
  console.error('Usage: npm run redrive -- spans|accounts');
  process.exit(2);
}
const env = { KAFKA_BROKERS: `127.0.0.1:${process.env.KAFKA_LOCAL_PORT || '19092'}`, ...Object.fromEntries(Object.entries(process.env).filter(([, v]) => v)) };
const parsed = parseConfig(envFragments.kafka.extend({ LOG_LEVEL: z.string().default('warn') }), env);
if (!parsed.ok) { console.error(`invalid configuration:\n  ${parsed.problems.join('\n  ')}`); process.exit(1); }
// The dead letters hold the original bytes (framed or not): re-append them as they are.
const { SCHEMA_REGISTRY_URL: _registry, ...c } = parsed.config;
const log = createLogger({ name: 'redrive', level: c.LOG_LEVEL });
const bar = new cliProgress.SingleBar({ format: `re-driving ${target} dead letters [{bar}] {percentage}% | {value}/{total} records` }, cliProgress.Presets.shades_classic);
let started = false;
try {
  const { kafka, topics } = await connectKafka(c, log);
  const topic = target === 'spans' ? topics.spans : topics.accounts;
  const producer = await kafka.producer();
  try {
    const r = await redriveDeadLetters({
      kafka, producer, topic, dlqTopic: topics.dlq(topic),
      onProgress: (done, total) => { if (!started) { bar.start(total, 0); started = true; } bar.update(done); },
    });
    if (started) bar.stop();
    console.log(`${r.redriven} of ${r.total} dead letters re-appended to ${topic}${r.skipped ? ` (${r.skipped} skipped: not from this topic or unreadable)` : ''}`);
  } finally { await producer.close(); }
  process.exit(0);
} catch (err) {
  if (started) bar.stop();
  console.error(`redrive failed: ${(err as Error).message}`);
  process.exit(1);
}
