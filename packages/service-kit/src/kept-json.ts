import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Kept = { body: Buffer; etag: string };

/** Whether an If-None-Match header names this ETag (or `*`), weak comparison as RFC 9110 asks. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/**
 * A handler for a JSON document that does not change while the process runs (/openapi.json,
 * /asyncapi.json): it is serialized once, on the first request, and every answer writes that
 * one buffer, with a strong ETag and 304 for a client whose copy is current. Serializing the
 * 300 KB public OpenAPI document for each request let one client without an account, asking
 * for it in a loop, raise every family's latency from about 6 ms to about 240 ms; and each
 * socket that never read its answer held a copy of its own.
 */
export function keptJsonHandler(build: () => unknown) {
  let kept: Kept | undefined;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!kept) {
      const body = Buffer.from(JSON.stringify(build()));
      kept = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
    }
    reply.header('etag', kept.etag);
    if (matches(request.headers['if-none-match'], kept.etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(kept.body);
  };
}
