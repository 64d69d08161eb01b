// Progress bars on stderr, drawn only on a terminal: stdout stays one clean document for --json, and
// a log or a pipe gets no redraw noise.
import cliProgress from 'cli-progress';

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

export function progressBar(label: string, unit = 'records'): Progress {
  const bar = new cliProgress.SingleBar({ format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | eta {eta}s`, stream: process.stderr }, cliProgress.Presets.shades_classic);
  let started = false;
  return {
    update(done, total) {
      if (!started) { bar.start(total, 0); started = true; }
      bar.setTotal(total);
      bar.update(done);
    },
    stop() { if (started) bar.stop(); started = false; },
  };
}
