import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

// Credentials never reach the logs.
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.secret',
  '*.api_key',
  '*.token',
  // Vault values and key material, wherever an object carrying them is logged.
  '*.client_secret',
  '*.client_secret_sealed',
  '*.sealed_data',
  '*.wrapped_key',
  'provider.key',
  '*.provider.key',
  '*.provider.client_secret',
  'secret.content',
  '*.secret.content',
];

/** `destination` is for tests (pino writes to stdout otherwise). */
export function createLogger(opts: { name: string; level?: string }, destination?: NodeJS.WritableStream): Logger {
  const options: LoggerOptions = {
    name: opts.name,
    level: opts.level ?? 'info',
    redact: { paths: REDACT, censor: '[redacted]' },
    base: { service: opts.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination as Parameters<typeof pino>[1]) : pino(options);
}
