// The labelled corpus (test/bench/fixtures/redaction-corpus.jsonl; `node --import tsx
// test/bench/redaction-corpus.bench.ts` prints the whole table): the default policy's recall on
// e-mail addresses and card numbers is at least 0.99, and no detector falls below its known floor.
import { describe, expect, it } from 'vitest';
import { compilePolicy } from '../src/index.ts';
import { readCorpus, scoreCorpus } from './corpus-score.ts';

describe('labelled corpus', () => {
  const c = compilePolicy({ version: 1, policy: {} });
  if (!c.ok) throw new Error(c.reason);
  const scores = scoreCorpus(c.redactor, readCorpus());

  it('when the default policy runs on the corpus, then e-mail and card recall are at least 0.99', () => {
    expect(scores.email!.recall).toBeGreaterThanOrEqual(0.99);
    expect(scores.card!.recall).toBeGreaterThanOrEqual(0.99);
    expect(scores.email!.tp + scores.card!.tp).toBeGreaterThan(200);
  });

  it('when the default policy runs on the corpus, then every detector keeps precision and recall of at least 0.8', () => {
    expect(Object.keys(scores).sort()).toEqual(['api_key', 'card', 'email', 'iban', 'ip', 'phone', 'token']);
    for (const [d, s] of Object.entries(scores)) {
      expect({ d, ok: s.precision >= 0.8 && s.recall >= 0.8 }).toEqual({ d, ok: true });
    }
  });
});
