/**
 * What browsers may do cross-origin (decisions "Public URLs, browsers and proxies"): every method
 * the API uses, the request headers it reads, and the response headers a client needs to see.
 * Without an explicit list, @fastify/cors allows only GET, HEAD and POST, so a browser's
 * preflight for PUT, PATCH or DELETE would be refused.
 */
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-Match',
  'If-None-Match',
  'Last-Event-ID',
  'X-Request-Id',
] as const;
/**
 * What a browser app may read of a reply: paging (`X-Next-Cursor`, `Link`, `X-Total-Count`) and
 * whether a retried create was a replay (`Idempotent-Replayed`) included.
 */
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'Retry-After',
  'X-Request-Id',
  'Location',
  'X-Next-Cursor',
  'Link',
  'X-Total-Count',
  'Idempotent-Replayed',
] as const;
/** Seconds a browser may reuse a preflight answer (Chromium caps it at 7200). */
export const CORS_MAX_AGE_SECONDS = 600;

export function corsOptions(origins: readonly string[]) {
  return {
    origin: [...origins],
    methods: [...CORS_METHODS],
    allowedHeaders: [...CORS_ALLOWED_HEADERS],
    exposedHeaders: [...CORS_EXPOSED_HEADERS],
    maxAge: CORS_MAX_AGE_SECONDS,
    credentials: false,
  };
}
