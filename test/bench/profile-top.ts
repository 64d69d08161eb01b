// node --import tsx test/bench/profile-top.ts <file.cpuprofile> [N] [--last S]
// The top N functions of a V8 CPU profile by self time, with their share (the benches' --profile
// writes one per thread: the server's main thread and each worker).
import { readFileSync } from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }
const args = process.argv.slice(2);
const lastAt = args.indexOf('--last');
const lastSeconds = lastAt >= 0 ? Number(args.splice(lastAt, 2)[1]) : Infinity;
const [file, n = '25'] = args;
if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [N]');
const prof = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; endTime: number; startTime: number };
// Only the samples of the last S seconds (a phase at the end of a run: idle, say).
if (Number.isFinite(lastSeconds)) {
  let t = prof.startTime;
  const keep: number[] = [];
  prof.samples.forEach((id, i) => { t += prof.timeDeltas[i] ?? 0; if (prof.endTime - t <= lastSeconds * 1e6) keep.push(id); });
  prof.samples = keep;
}
const self = new Map<string, number>();
const byId = new Map(prof.nodes.map((x) => [x.id, x]));
for (const id of prof.samples) {
  const node = byId.get(id)!;
  const f = node.callFrame;
  const where = f.url ? `${f.url.replace(/^.*\/(node_modules|packages|services)\//, '$1/')}:${f.lineNumber + 1}` : '';
  const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
  self.set(key, (self.get(key) ?? 0) + 1);
}
const total = prof.samples.length;
const idle = self.get('(idle)') ?? 0;
console.log(`${file}: ${total} samples, ${((idle / total) * 100).toFixed(1)} % idle; shares below are of the busy samples`);
for (const [k, v] of [...self.entries()].filter(([k]) => k !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, Number(n))) {
  console.log(`${((v / (total - idle)) * 100).toFixed(1).padStart(5)} %  ${k}`);
}
