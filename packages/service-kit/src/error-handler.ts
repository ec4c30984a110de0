import type { ErrorDetail, ErrorEnvelope } from '@hs/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, BODY_TOO_LARGE_MESSAGE } from './errors.ts';
import { GENERIC_NOT_FOUND, missingResourceMessage } from './missing-resource.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Status of a schema validation failure on this route: 422 unless the spec says 400. */
    validationStatus?: 400 | 422;
  }
}

/** Retry-After of a 503 for a store that did not answer, was away or busy: back within seconds. */
export const STORE_RETRY_AFTER_SECONDS = 2;
/** Store failures that pass by themselves; a full, read-only or damaged store does not. */
const PASSING_STORE_FAULTS = /^(?:FIRESTORE_|SQLITE_BUSY$|SQLITE_LOCKED$)/;

/**
 * Whether an error is @hs/store's StoreUnavailableError for a fault that passes by itself (busy,
 * locked, a Firestore timeout): a 503 with Retry-After for a client, a retry for a worker.
 */
export const isPassingStoreFault = (err: unknown): boolean =>
  err instanceof Error &&
  err.name === 'StoreUnavailableError' &&
  PASSING_STORE_FAULTS.test(String((err as { code?: unknown }).code ?? ''));

/** Fastify's own errors, mapped to the envelope with the spec's codes. */
const FASTIFY_ERRORS: Record<string, { status: number; error: string; message?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, error: 'BAD_REQUEST', message: 'Body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, error: 'BAD_REQUEST', message: 'Body must not be empty' },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    error: 'PAYLOAD_TOO_LARGE',
    message: BODY_TOO_LARGE_MESSAGE,
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    error: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Unsupported content type',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    error: 'BAD_REQUEST',
    message: 'Invalid content length',
  },
};

type ValidationIssue = { instancePath?: string; message?: string; keyword?: string; params?: unknown };

function toDetails(context: string | undefined, issues: readonly ValidationIssue[]): ErrorDetail[] {
  return issues.map((issue) => ({
    loc: [
      context ?? 'body',
      ...(issue.instancePath ?? '')
        .split('/')
        .filter(Boolean)
        .map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
    ],
    msg: issue.message ?? 'Invalid value',
    type: issue.keyword ?? 'invalid',
  }));
}

/** The path param an issue is about (`/itemId` → itemId). */
const paramOf = (issue: ValidationIssue): string =>
  (issue.instancePath ?? '').split('/').filter(Boolean)[0] ?? '';

function send(reply: FastifyReply, status: number, body: ErrorEnvelope): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Errors Fastify raises before routing (a URL that is not valid percent-encoding, an async
 * constraint failure) skip the error handler and every hook; they get the envelope and the
 * request id here. Passed as Fastify's `frameworkErrors` option.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // An id longer than the router takes cannot exist: missing, as one its route's schema refuses.
  const body: ErrorEnvelope =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? { error: 'NOT_FOUND', message: GENERIC_NOT_FOUND }
      : { error: 'BAD_REQUEST', message: err.code === 'FST_ERR_BAD_URL' ? 'Malformed URL' : 'Bad request' };
  const statusCode = body.error === 'NOT_FOUND' ? 404 : 400;
  reply.header('x-request-id', request.id);
  request.log.info(
    { reqId: request.id, method: request.method, url: request.url.split('?')[0], statusCode },
    'request',
  );
  send(reply, statusCode, body);
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) {
      if (err.status >= 500) request.log.warn({ err, cause: err.cause }, err.message);
      if (err.headers) reply.headers(err.headers);
      const body: ErrorEnvelope = { error: err.code, message: err.message };
      if (err.details) body.details = err.details;
      return send(reply, err.status, body);
    }
    const issues: readonly ValidationIssue[] | undefined = hasZodFastifySchemaValidationErrors(err)
      ? err.validation
      : (err.validation as ValidationIssue[] | undefined);
    if (issues) {
      // An id in the path that cannot exist names a missing resource (404), not a bad body (422).
      if (err.validationContext === 'params')
        return send(reply, 404, {
          error: 'NOT_FOUND',
          message: missingResourceMessage(request.routeOptions.url, issues.map(paramOf)),
        });
      const status = request.routeOptions.config?.validationStatus ?? 422;
      return send(reply, status, {
        error: 'VALIDATION_ERROR',
        message: 'Request validation failed',
        details: toDetails(err.validationContext, issues),
      });
    }
    // The store's storage failed (disk full, read-only, damaged): say so, keep the cause in the log.
    if ((err as Error).name === 'StoreUnavailableError') {
      request.log.error({ err, cause: (err as Error).cause }, err.message);
      // A store that timed out, was away or busy is usually back within seconds: say when to try
      // again, so clients back off instead of retrying at once. A full or damaged one is not.
      if (isPassingStoreFault(err)) reply.header('retry-after', String(STORE_RETRY_AFTER_SECONDS));
      return send(reply, 503, { error: 'SERVICE_UNAVAILABLE', message: err.message });
    }
    const known = err.code ? FASTIFY_ERRORS[err.code] : undefined;
    if (known)
      return send(reply, known.status, { error: known.error, message: known.message ?? err.message });
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err }, 'unhandled error');
      return send(reply, 500, { error: 'INTERNAL_ERROR', message: 'Internal server error' });
    }
    if (status === 429) return send(reply, 429, { error: 'RATE_LIMITED', message: err.message });
    return send(reply, status, { error: 'HTTP_ERROR', message: err.message });
  });

  app.setNotFoundHandler((request, reply) =>
    send(reply, 404, {
      error: 'NOT_FOUND',
      message: `${UNKNOWN_ROUTE}${request.method} ${request.url.split('?')[0]} not found`,
    }),
  );
}

const UNKNOWN_ROUTE = 'Route ';

/**
 * A peer's 404 for a path it does not serve (an older version during a rolling deploy), as told
 * apart from its 404 for a missing resource on a route it has.
 */
export function isUnknownRoute(err: unknown): boolean {
  return (
    err instanceof AppError &&
    err.status === 404 &&
    err.code === 'NOT_FOUND' &&
    err.message.startsWith(UNKNOWN_ROUTE)
  );
}
