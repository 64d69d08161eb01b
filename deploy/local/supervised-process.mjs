// Runs a server process (the local Kafka broker, the schema registry) until it is ready, keeping the
// tail of its output for error messages, and stops it with SIGTERM (SIGKILL after 15 s). If the owning
// process ends without stop(), the child still gets its SIGTERM and shuts down on its own.
import { spawn } from 'node:child_process';

/**
 * Spawns `cmd args` and awaits `ready(isAlive)`; on failure the child is killed and the error carries
 * its last output. Returns { pid, stop }.
 */
export async function startSupervised(cmd, args, { cwd, ready }) {
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let alive = true;
  let tail = '';
  const keep = (b) => { tail = (tail + b.toString()).slice(-4000); };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.on('exit', (code) => { alive = false; resolve(code); }));
  process.on('exit', () => { if (alive) child.kill('SIGTERM'); });
  try {
    await ready(() => alive);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${err.message}\n${tail}`);
  }
  return {
    pid: child.pid,
    async stop() {
      if (!alive) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
    },
  };
}
