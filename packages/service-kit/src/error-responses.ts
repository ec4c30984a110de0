import { ErrorEnvelope } from '@hs/contracts';

/** The OpenAPI response entries of a route's documented failures, all in the error envelope. */
export function errorResponses<const S extends readonly number[]>(
  ...statuses: S
): { [K in S[number]]: typeof ErrorEnvelope } {
  return Object.fromEntries(statuses.map((s) => [s, ErrorEnvelope])) as {
    [K in S[number]]: typeof ErrorEnvelope;
  };
}
