import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Points a page of a list at the next one: `X-Next-Cursor` for clients that build the URL
 * themselves, and an RFC 8288 `Link: <...>; rel="next"` carrying the caller's own query with the
 * cursor replaced. Neither is sent on the last page, so the body can stay a plain array.
 */
export function sendNextPageHeaders(request: FastifyRequest, reply: FastifyReply, next: string | null): void {
  if (!next) return;
  // A relative reference: it resolves against the URL the client called, whatever host it used.
  const url = new URL(request.url, 'http://gateway.invalid');
  url.searchParams.set('cursor', next);
  reply.header('X-Next-Cursor', next);
  reply.header('Link', `<${url.pathname}${url.search}>; rel="next"`);
}
