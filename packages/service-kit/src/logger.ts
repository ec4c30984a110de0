import pino, { type Logger } from 'pino';

/** Structured JSON logs; pretty only on an interactive terminal. */
export function createLogger(service: string, level: string): Logger {
  const pretty = process.stdout.isTTY && process.env.LOG_FORMAT !== 'json';
  return pino({
    level,
    base: { service },
    redact: ['req.headers.authorization', 'req.headers["x-internal-token"]'],
    ...(pretty ? { transport: { target: 'pino-pretty', options: { singleLine: true } } } : {}),
  });
}
