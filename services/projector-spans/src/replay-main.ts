// `npm run replay -- spans [--keep-old]`: rebuilds the span read model from the topic into fresh
// tables and swaps them in, with a progress bar (where it runs: replay-run.ts).
import cliProgress from 'cli-progress';
import { runSpansReplay } from './replay-run.ts';

const args = process.argv.slice(2);
const target = args.find((a) => !a.startsWith('--')) ?? 'spans';
if (target !== 'spans') {
  console.error(`unknown read model '${target}'. Usage: npm run replay -- spans [--keep-old] [--allow-truncated]`);
  process.exit(2);
}
const bar = new cliProgress.SingleBar({ format: 'replaying spans [{bar}] {percentage}% | {value}/{total} records | eta {eta}s' }, cliProgress.Presets.shades_classic);
let started = false;
const t0 = Date.now();

try {
  const r = await runSpansReplay({
    env: process.env,
    keepOld: args.includes('--keep-old'),
    allowTruncated: args.includes('--allow-truncated'),
    onProgress: (done, total) => {
      if (!started) { bar.start(total, 0); started = true; }
      bar.update(done);
    },
    warn: (m) => console.warn(m),
  });
  if (started) bar.stop();
  console.log(`rebuilt spans: ${r.records} records replayed, ${r.rows} live spans, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  process.exit(0);
} catch (err) {
  if (started) bar.stop();
  console.error(`replay failed: ${(err as Error).message}`);
  process.exit(1);
}
