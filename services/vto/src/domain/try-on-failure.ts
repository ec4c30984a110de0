import type { VtoJobError } from '@hs/contracts';

/** Job failure codes (the job's `error.code`; see VtoJobError in contracts). */
export type TryOnFailureCode =
  | 'SIMULATED_RESULT'
  | 'INPUT_MISSING'
  | 'INPUT_UNSUPPORTED'
  | 'INPUT_TOO_LARGE'
  | 'INPUT_FORBIDDEN'
  | 'INPUT_UNREACHABLE'
  | 'INPUT_TIMEOUT'
  | 'UPSTREAM_ERROR'
  | 'UPSTREAM_TIMEOUT'
  | 'RESULT_FILTERED'
  | 'TIMEOUT'
  | 'INTERNAL_ERROR';

/**
 * An expected reason for a try-on job to end FAILED. Its message is shown to the user as is,
 * so it explains the cause without internals; anything else thrown while processing becomes
 * INTERNAL_ERROR with a generic message.
 */
export class TryOnFailure extends Error {
  readonly code: TryOnFailureCode;
  constructor(code: TryOnFailureCode, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'TryOnFailure';
    this.code = code;
  }

  toJobError(): VtoJobError {
    return { code: this.code, message: this.message };
  }
}

export const SIMULATED_MESSAGE =
  'Simulated result: no try-on inference backend is configured (VTO_INFERENCE_BACKEND=simulated), so no ' +
  'image was generated. Set VTO_INFERENCE_BACKEND=inline for an in-process preview or http with ' +
  'VTO_HTTP_ENDPOINT for an inference endpoint.';
