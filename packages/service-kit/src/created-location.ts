import type { FastifyRequest } from 'fastify';

/**
 * The `Location` of a resource just created (RFC 9110, section 10.2.2): the path of the
 * collection the client posted to, plus the new id. A path, so it holds for whatever host the
 * client called, the gateway included, which forwards paths unchanged.
 */
export function locationOf(request: FastifyRequest, id: string): string {
  const path = request.url.split('?')[0]!.replace(/\/+$/, '');
  return `${path}/${encodeURIComponent(id)}`;
}
