// Not a test: `npx tsx packages/span-model/test/bench/normalize-span.bench.ts` prints spans/s of
// normalizeSpan on realistic 1–2 KB spans (single core).
import { normalizeSpan } from '../../src/normalize-span.ts';
import type { RawSpan } from '../../src/span.ts';
import { realisticTrace } from '../fixtures/realistic-spans.ts';

const spans: RawSpan[] = [];
for (let i = 0; spans.length < 10_000; i++) spans.push(...realisticTrace(i));
const bytes = spans.reduce((n, s) => n + JSON.stringify(s).length, 0);

for (let round = 0; round < 5; round++) {
  const t = process.hrtime.bigint();
  let accepted = 0;
  for (const s of spans) if (normalizeSpan(s).ok) accepted++;
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  console.log(
    `round ${round}: ${accepted}/${spans.length} spans, avg ${Math.round(bytes / spans.length)} B/span, ${Math.round(spans.length / seconds)} spans/s`,
  );
}
