// Idempotency-Key on forwarded writes (every create and chat turn the gateway passes on): the
// first success is kept and a retry with the same key and body gets it again without reaching
// the owning service twice (rules in domain/idempotency.ts, store in idempotency-store.ts).
import { AppError, conflict, httpRequest as undiciRequest, validationError } from '@hs/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { IDEMPOTENCY_KEY } from '../domain/idempotency.ts';
import { idempotencyScope } from '../plugins/idempotency-key.ts';
import { type ForwardIdentity, forward, forwardTarget, upstreamHeaders } from './forward.ts';
import type { IdempotencyStore } from './idempotency-store.ts';

type Target = Parameters<typeof forward>[2];
/** What is kept of a forwarded reply: enough to answer a retry as the first was answered. */
type Kept = { headers: Record<string, string>; text: string; streamed?: true };

const KEPT_HEADERS = ['content-type', 'etag', 'location', 'last-modified'];
export const STREAMED_REPLAY =
  "This Idempotency-Key's streamed turn already ran; read its events from the mission's stream";

/** A reply that is not kept (a failure had no effect): it goes to the client and frees the key. */
class NotKept extends Error {
  readonly status: number;
  readonly kept: Kept;
  constructor(status: number, kept: Kept) {
    super('not kept');
    this.status = status;
    this.kept = kept;
  }
}

async function readBody(stream: NodeJS.ReadableStream | undefined, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream ?? []) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new AppError('PAYLOAD_TOO_LARGE', 413, `Body is larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Equal JSON bodies match whatever their key order; anything else by its bytes. */
function fingerprintable(body: Buffer): unknown {
  try {
    return body.length === 0 ? null : JSON.parse(body.toString('utf8'));
  } catch {
    return { raw: body.toString('base64') };
  }
}

async function exchange(
  request: FastifyRequest,
  target: Target,
  identity: ForwardIdentity,
  body: Buffer,
): Promise<{ status: number; kept: Kept }> {
  let upstream: Dispatcher.ResponseData;
  try {
    upstream = await undiciRequest(forwardTarget(target.peer.baseUrl, target.url ?? request.url), {
      method: 'POST',
      headers: upstreamHeaders(request, target, identity),
      body,
      signal: AbortSignal.timeout(target.timeoutMs),
    });
  } catch (err) {
    if ((err as { name?: string }).name === 'TimeoutError')
      throw new AppError(
        'UPSTREAM_TIMEOUT',
        504,
        `${target.service} did not answer within ${target.timeoutMs} ms`,
      );
    throw new AppError('UPSTREAM_ERROR', 502, `${target.service} is unreachable`);
  }
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = upstream.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return { status: upstream.statusCode, kept: { headers, text: await upstream.body.text() } };
}

/**
 * Forwards a POST; with an Idempotency-Key, at most once per (user, route, key). The body is
 * read here (bounded by the body limit) to compare retries; the peer still validates it.
 * A streamed chat (`Accept: text/event-stream`) runs once too, but its events are not kept: a
 * retry is told to read them from the mission's stream.
 */
export async function forwardIdempotent(
  request: FastifyRequest,
  reply: FastifyReply,
  target: Target,
  identity: NonNullable<ForwardIdentity>,
  deps: { idempotency: IdempotencyStore; bodyLimit: number },
): Promise<FastifyReply> {
  if (request.method !== 'POST' || request.headers['idempotency-key'] === undefined)
    return forward(request, reply, target, identity);
  const { scope, key } = idempotencyScope(request, identity.userId);
  if (key === undefined) return forward(request, reply, target, identity);
  if (!IDEMPOTENCY_KEY.test(key))
    throw validationError(
      [
        {
          loc: ['headers', 'idempotency-key'],
          msg: 'must be 1-255 visible ASCII characters',
          type: 'value_error',
        },
      ],
      422,
    );
  const body = await readBody(request.body as NodeJS.ReadableStream | undefined, deps.bodyLimit);
  const streamed = (request.headers.accept ?? '').includes('text/event-stream');
  try {
    const result = await deps.idempotency.run<Kept>(scope, key, fingerprintable(body), async () => {
      if (streamed) {
        await forward(request, reply, { ...target, body }, identity);
        if (reply.statusCode >= 400) throw new NotKept(reply.statusCode, { headers: {}, text: '' });
        return { status: reply.statusCode, body: { headers: {}, text: '', streamed: true } };
      }
      const answer = await exchange(request, target, identity, body);
      if (answer.status >= 400) throw new NotKept(answer.status, answer.kept);
      return { status: answer.status, body: answer.kept };
    });
    if (result.body.streamed) {
      if (result.replayed) throw conflict(STREAMED_REPLAY);
      return reply;
    }
    if (result.replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(result.status).headers(result.body.headers).send(result.body.text);
  } catch (err) {
    if (!(err instanceof NotKept)) throw err;
    if (streamed) return reply; // already on its way to the client
    return reply.code(err.status).headers(err.kept.headers).send(err.kept.text);
  }
}
