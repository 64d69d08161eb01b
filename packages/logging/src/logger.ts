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
];

export function createLogger(opts: { name: string; level?: string }): Logger {
  const options: LoggerOptions = {
    name: opts.name,
    level: opts.level ?? 'info',
    redact: { paths: REDACT, censor: '[redacted]' },
    base: { service: opts.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return pino(options);
}
