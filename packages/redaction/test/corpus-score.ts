// Precision and recall of a redactor per detector on the labelled corpus
// (test/bench/fixtures/redaction-corpus.jsonl): per line, the values each detector replaced against
// the labels; a true positive also needs the labelled value gone from the text.
import { readFileSync } from 'node:fs';
import type { Redactor } from '@llm/redaction';

export const CORPUS_URL = new URL('../../../test/bench/fixtures/redaction-corpus.jsonl', import.meta.url);

interface Line { text: string; labels: Array<{ detector: string; value: string }> }

export interface DetectorScore { tp: number; fp: number; fn: number; precision: number; recall: number }

export function readCorpus(): Line[] {
  return readFileSync(CORPUS_URL, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
}

export function scoreCorpus(r: Redactor, lines: readonly Line[]): Record<string, DetectorScore> {
  const acc: Record<string, { tp: number; fp: number; fn: number }> = {};
  const at = (d: string) => (acc[d] ??= { tp: 0, fp: 0, fn: 0 });
  for (const line of lines) {
    const counts: Record<string, number> = {};
    const out = r.redactText(line.text, counts);
    const expected: Record<string, number> = {};
    const found: Record<string, number> = {};
    for (const l of line.labels) {
      expected[l.detector] = (expected[l.detector] ?? 0) + 1;
      if (!out.includes(l.value)) found[l.detector] = (found[l.detector] ?? 0) + 1;
    }
    for (const d of new Set([...Object.keys(expected), ...Object.keys(counts)])) {
      const e = expected[d] ?? 0;
      const tp = Math.min(e, found[d] ?? 0, counts[d] ?? 0);
      at(d).tp += tp;
      at(d).fn += e - tp;
      at(d).fp += Math.max(0, (counts[d] ?? 0) - tp);
    }
  }
  return Object.fromEntries(Object.entries(acc).map(([d, s]) => [d, {
    ...s, precision: s.tp + s.fp === 0 ? 1 : s.tp / (s.tp + s.fp), recall: s.tp + s.fn === 0 ? 1 : s.tp / (s.tp + s.fn),
  }]));
}
