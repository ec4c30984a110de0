import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { IDEMPOTENCY_KEY } from '../domain/idempotency.ts';

/** Documents (and passes through) the optional Idempotency-Key header; other headers are kept. */
export const IdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(IDEMPOTENCY_KEY, 'must be 1-255 visible ASCII characters')
    .optional()
    .describe(
      'Optional. A retry with the same key and body replays the first success (no second effect); the same key with another body is 422 VALIDATION_ERROR; a retry while the first is running is 409 CONFLICT. Keys are scoped to the user and the path and kept 24 hours.',
    ),
});

/**
 * The idempotency scope of a request: one user, one method, one route and its decoded
 * parameters. Built from the route rather than the raw URL, so a retry that spells the same path
 * differently (`%5F` for `_`, a doubled slash) is still the same operation and is not run twice.
 */
export function idempotencyScope(
  request: FastifyRequest,
  userId: string,
): { scope: string; key: string | undefined } {
  const raw = request.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  const params = Object.entries((request.params ?? {}) as Record<string, string>).sort(([a], [b]) =>
    a < b ? -1 : 1,
  );
  return { scope: `${userId} ${request.method} ${request.routeOptions.url} ${JSON.stringify(params)}`, key };
}

/**
 * Sends what an idempotent run answered; a replay of a stored success is marked
 * `Idempotent-Replayed: true`, as on forwarded writes, so a client can tell its retry changed nothing.
 */
export function sendStored(
  reply: FastifyReply,
  result: { status: number; body: unknown; replayed: boolean },
  location?: (body: unknown) => string,
): FastifyReply {
  if (result.replayed) reply.header('idempotent-replayed', 'true');
  // A replayed create names the same resource as the first answer did.
  if (location && result.status === 201) reply.header('location', location(result.body));
  return reply.code(result.status).send(result.body);
}
