// Streams one HTTP exchange to a peer service with undici (https://undici.nodejs.org) and back,
// without buffering: uploads go up as they arrive, SSE goes down event by event and is never
// cut for being idle. The header wait is bounded by INTERNAL_API_TIMEOUT_SECONDS.
import { CALLER_HEADERS } from '@hs/contracts';
import { INTERNAL_TOKEN_HEADER, type Peer, upstreamError, upstreamTimeout } from '@hs/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Dispatcher, request as undiciRequest } from 'undici';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);
const NOT_FORWARDED_UP = new Set([
  ...HOP_BY_HOP,
  'authorization',
  INTERNAL_TOKEN_HEADER,
  ...Object.values(CALLER_HEADERS),
]);

export type ForwardIdentity = { userId: string; email: string; role: string } | null;

export async function forward(
  request: FastifyRequest,
  reply: FastifyReply,
  target: { service: string; peer: Peer; timeoutMs: number },
  identity: ForwardIdentity,
): Promise<FastifyReply> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || NOT_FORWARDED_UP.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  headers[INTERNAL_TOKEN_HEADER] = target.peer.token;
  headers['x-request-id'] = request.id;
  if (identity) {
    headers[CALLER_HEADERS.userId] = identity.userId;
    headers[CALLER_HEADERS.role] = identity.role;
    headers[CALLER_HEADERS.email] = identity.email;
  }

  const abort = new AbortController();
  // The response closing before it finished means the client went away: stop the upstream call.
  // (The request's own 'close' fires as soon as its body has been read, so it can't tell.)
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  const headerTimer = setTimeout(
    () => abort.abort(new DOMException('timeout', 'TimeoutError')),
    target.timeoutMs,
  );

  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== undefined;
  let upstream: Dispatcher.ResponseData;
  try {
    upstream = await undiciRequest(`${target.peer.baseUrl}${request.url}`, {
      method: request.method as Dispatcher.HttpMethod,
      headers,
      body: hasBody ? (request.body as NodeJS.ReadableStream as never) : null,
      signal: abort.signal,
      headersTimeout: target.timeoutMs + 1000,
      bodyTimeout: 0,
    });
  } catch (err) {
    const reason = abort.signal.reason as { name?: string } | undefined;
    if (reason?.name === 'TimeoutError')
      throw upstreamTimeout(`${target.service} did not answer within ${target.timeoutMs} ms`, err);
    throw upstreamError(`${target.service} is unreachable`, err);
  } finally {
    clearTimeout(headerTimer);
  }

  reply.code(upstream.statusCode);
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || (name === 'content-length' && isStream(upstream)))
      continue;
    reply.header(name, value);
  }
  reply.header('x-request-id', request.id);
  if (isStream(upstream)) {
    reply.header('x-accel-buffering', 'no');
    reply.header('cache-control', 'no-cache');
  }
  upstream.body.on('error', () => reply.raw.destroy());
  return reply.send(upstream.body);
}

function isStream(res: Dispatcher.ResponseData): boolean {
  const type = res.headers['content-type'];
  return typeof type === 'string' && type.startsWith('text/event-stream');
}
