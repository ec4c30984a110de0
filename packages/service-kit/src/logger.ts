import pino, { type Logger } from 'pino';

const SEVERITY: Record<string, string> = {
  trace: 'DEBUG',
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARNING',
  error: 'ERROR',
  fatal: 'CRITICAL',
};

/** Structured JSON logs; pretty only on an interactive terminal. */
export function createLogger(service: string, level: string): Logger {
  const pretty = process.stdout.isTTY && process.env.LOG_FORMAT !== 'json';
  return pino({
    level,
    base: { service },
    redact: ['req.headers.authorization', 'req.headers["x-internal-token"]'],
    // JSON lines carry Cloud Logging's `severity` next to pino's numeric level.
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { singleLine: true } } }
      : {
          formatters: {
            level: (label: string, level: number) => ({ severity: SEVERITY[label] ?? 'DEFAULT', level }),
          },
        }),
  });
}
