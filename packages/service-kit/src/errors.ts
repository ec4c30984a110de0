import type { ErrorCode, ErrorDetail } from '@hs/contracts';

/** An expected failure with a stable code; the shared error handler turns it into the envelope. */
export class AppError extends Error {
  readonly code: ErrorCode | (string & {});
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode | (string & {}),
    status: number,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.details = options.details;
    this.headers = options.headers;
  }
}

export const MEMBERSHIP_REQUIRED = 'User is not a household member';

export const notFound = (message = 'Resource not found') => new AppError('NOT_FOUND', 404, message);
export const forbidden = (message = 'Forbidden') => new AppError('FORBIDDEN', 403, message);
export const unauthorized = (message = 'Missing or invalid authentication') =>
  new AppError('UNAUTHORIZED', 401, message);
/** 409 CONFLICT; with `retryAfterSeconds` when what is in the way ends by itself (a running turn). */
export const conflict = (message: string, retryAfterSeconds?: number) =>
  new AppError(
    'CONFLICT',
    409,
    message,
    retryAfterSeconds === undefined ? {} : { headers: { 'retry-after': String(retryAfterSeconds) } },
  );
export const badRequest = (message: string) => new AppError('BAD_REQUEST', 400, message);
export const invalidState = (message: string) => new AppError('INVALID_STATE', 409, message);
export const policyViolation = (message: string) => new AppError('POLICY_VIOLATION', 400, message);
export const serviceUnavailable = (message: string) => new AppError('SERVICE_UNAVAILABLE', 503, message);
/** 429 RATE_LIMITED with the Retry-After (whole seconds) the client should wait. */
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', 429, message, { headers: { 'retry-after': String(retryAfterSeconds) } });
export const preconditionFailed = (message = 'The resource changed since it was read') =>
  new AppError('PRECONDITION_FAILED', 412, message);
export const upstreamError = (message: string, cause?: unknown) =>
  new AppError('UPSTREAM_ERROR', 502, message, { cause });
export const upstreamTimeout = (message: string, cause?: unknown) =>
  new AppError('UPSTREAM_TIMEOUT', 504, message, { cause });

/** A validation failure produced by hand (same shape as schema failures). */
export const validationError = (
  details: ErrorDetail[],
  status = 422,
  message = 'Request validation failed',
) => new AppError('VALIDATION_ERROR', status, message, { details });

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;

/** A body over the limit: the same answer whoever refuses it (Fastify, the gateway, a service told by the gateway). */
export const BODY_TOO_LARGE_MESSAGE = 'Request body is too large';
export const payloadTooLarge = () => new AppError('PAYLOAD_TOO_LARGE', 413, BODY_TOO_LARGE_MESSAGE);
