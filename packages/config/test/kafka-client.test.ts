import { describe, expect, it } from 'vitest';
import { DEFAULT_KAFKA_CLIENT } from '@llm/kafka';
import { envFragments, parseConfig } from '../src/index.ts';

describe('KAFKA_CLIENT', () => {
  it('when unset or empty, then it is the Kafka package default, @platformatic/kafka (docs/decisions.md)', () => {
    for (const KAFKA_CLIENT of [undefined, '']) {
      const r = parseConfig(envFragments.kafka, { KAFKA_BROKERS: '127.0.0.1:9092', KAFKA_CLIENT });
      expect(r.ok && r.config.KAFKA_CLIENT).toBe(DEFAULT_KAFKA_CLIENT);
    }
    expect(DEFAULT_KAFKA_CLIENT).toBe('platformatic');
  });

  it('when set to a client that does not exist, then the problem names the variable', () => {
    const r = parseConfig(envFragments.kafka, { KAFKA_BROKERS: '127.0.0.1:9092', KAFKA_CLIENT: 'librdkafka' });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems.join('\n')).toMatch(/^KAFKA_CLIENT: /m);
  });
});
