import { preconditionFailed } from '@hs/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf, ifMatchPasses, noneMatchHits } from '../domain/etag.ts';

const header = (request: FastifyRequest, name: string) => {
  const v = request.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/**
 * Sends a read with its strong ETag; a client that already holds this version (If-None-Match)
 * gets 304 and no body. `no-cache` makes clients revalidate rather than trust a stale copy.
 */
export function withEtag<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  body: T,
  tagged: unknown = body,
): T | FastifyReply {
  const etag = etagOf(tagged);
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
  if (noneMatchHits(header(request, 'if-none-match'), etag)) return reply.code(304).send();
  return body;
}

/** Throws 412 when the request's If-Match names another version than `current`. */
export function checkIfMatch(request: FastifyRequest, current: unknown): void {
  if (!ifMatchPasses(header(request, 'if-match'), etagOf(current))) throw preconditionFailed();
}
