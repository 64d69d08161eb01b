// node --import tsx test/bench/redaction-corpus.bench.ts: precision and recall of each redaction
// detector (the default policy: all of them, in their order) on the labelled corpus
// test/bench/fixtures/redaction-corpus.jsonl (regenerate with fixtures/redaction-corpus-gen.ts).
// packages/redaction/test/corpus.test.ts asserts the floors; this prints the table.
import { compilePolicy } from '@llm/redaction';
import { readCorpus, scoreCorpus } from '../../packages/redaction/test/corpus-score.ts';

const c = compilePolicy({ version: 1, policy: {} });
if (!c.ok) throw new Error(c.reason);
const lines = readCorpus();
const scores = scoreCorpus(c.redactor, lines);
console.log(`redaction corpus: ${lines.length} lines, ${lines.reduce((n, l) => n + l.labels.length, 0)} labelled values`);
console.log(`${'detector'.padEnd(10)} ${'tp'.padStart(5)} ${'fp'.padStart(5)} ${'fn'.padStart(5)} ${'precision'.padStart(10)} ${'recall'.padStart(8)}`);
for (const [d, s] of Object.entries(scores).sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`${d.padEnd(10)} ${String(s.tp).padStart(5)} ${String(s.fp).padStart(5)} ${String(s.fn).padStart(5)} ${s.precision.toFixed(3).padStart(10)} ${s.recall.toFixed(3).padStart(8)}`);
}
