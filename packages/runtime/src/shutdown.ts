// Graceful shutdown in the house order: readiness 503 → stop accepting → stop consuming → flush
// writers → commit → close clients. Each step is bounded; a second signal exits at once.
import type { Logger } from '@llm/logging';

export type ShutdownStep = { name: string; run: () => Promise<void> };

export async function runShutdown(steps: ShutdownStep[], log: Logger, stepTimeoutMs = 15_000): Promise<void> {
  for (const s of steps) {
    const t0 = Date.now();
    try {
      await Promise.race([s.run(), new Promise((_, rej) => setTimeout(() => rej(new Error('timed out')), stepTimeoutMs).unref())]);
      log.info({ step: s.name, ms: Date.now() - t0 }, 'shutdown step done');
    } catch (err) {
      log.error({ err, step: s.name }, 'shutdown step failed');
    }
  }
}

export function onSignals(stop: () => Promise<void>, log: Logger): void {
  let stopping = false;
  const handler = (sig: string): void => {
    if (stopping) { log.warn({ sig }, 'second signal: exiting now'); process.exit(1); }
    stopping = true;
    log.info({ sig }, 'shutting down');
    stop().then(() => process.exit(0), (err) => { log.error({ err }, 'shutdown failed'); process.exit(1); });
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
  process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled rejection'));
}
