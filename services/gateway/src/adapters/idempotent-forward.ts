// Idempotency-Key on forwarded writes (every create and chat turn the gateway passes on): the
// first success is kept and a retry with the same key and body gets it again without reaching
// the owning service twice (rules in domain/idempotency.ts, store in idempotency-store.ts).

import { PassThrough } from 'node:stream';
import {
  endClientClosed,
  recordPeerCall,
  serviceMetrics,
  httpRequest as undiciRequest,
  validationError,
  wantsEventStream,
} from '@hs/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { IDEMPOTENCY_KEY } from '../domain/idempotency.ts';
import { idempotencyScope } from '../plugins/idempotency-key.ts';
import {
  type ForwardIdentity,
  forward,
  forwardTarget,
  isJson,
  notJsonReply,
  readReply,
  refusedAnswer,
  unanswered,
  upstreamHeaders,
} from './forward.ts';
import type { IdempotencyStore } from './idempotency-store.ts';
import { bodyForPeer, type HeldBody, OVER_LIMIT } from './request-body.ts';

type Target = Parameters<typeof forward>[2];
/** What is kept of a forwarded reply: enough to answer a retry as the first was answered. */
type Kept = { headers: Record<string, string>; text: string; streamed?: true; role?: string };

/** How much a role may do: a replay stands only for a caller who may still do as much. */
const ROLE_RANK: Record<string, number> = { CHILD: 0, ADULT: 1, PARENT_GUARDIAN: 2 };
const demotedSince = (kept: Kept, role: string) =>
  kept.role !== undefined && (ROLE_RANK[role] ?? 0) < (ROLE_RANK[kept.role] ?? 0);

/**
 * Whether a retry finding `kept` under its key is answered from it, running nothing: not when the
 * caller was demoted since (the service judges them again) nor for a streamed turn (409).
 */
export function replaysWithoutWork(kept: unknown, role: string): boolean {
  if (kept === null || typeof kept !== 'object') return false;
  const stored = kept as Kept;
  return !stored.streamed && !demotedSince(stored, role);
}

// Retry-After too: a peer's 503 or 429 relayed under a key must still say when to try again.
const KEPT_HEADERS = ['content-type', 'etag', 'location', 'last-modified', 'retry-after'];
/**
 * A mission's chat, the one create whose reply may be an event stream: read from the path as the
 * router matched it, so `/chat/` and an escaped letter (`/ch%61t`), which the orchestrator serves
 * as the chat, are the chat here too (a streamed turn read as JSON ran, then answered 502).
 */
const CHAT_ROUTE = '/api/v1/households/:id/orchestrator/*';
const CHAT_PATH = /^missions\/[^/]+\/chat$/;
const isChat = (request: FastifyRequest) =>
  request.routeOptions.url === CHAT_ROUTE && CHAT_PATH.test((request.params as { '*'?: string })['*'] ?? '');

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

/** Equal JSON bodies match whatever their key order; anything else by its bytes. */
function fingerprintable(body: Buffer): unknown {
  try {
    return body.length === 0 ? null : JSON.parse(body.toString('utf8'));
  } catch {
    return { raw: body.toString('base64') };
  }
}

/** A create's reply is a small JSON document: more than this is a broken peer, not an answer. */
export const MAX_KEPT_REPLY_BYTES = 1024 * 1024;

/**
 * One call to the peer, answered as `forward` answers it (same helpers, same envelopes): down
 * 502, slow 504, broken off mid-body 502, a body over MAX_KEPT_REPLY_BYTES 502, an error that is
 * not JSON 502. Only a 2xx with a JSON body (or a 204) is returned as a success to keep.
 */
async function exchange(
  request: FastifyRequest,
  target: Target,
  identity: ForwardIdentity,
  body: Buffer,
): Promise<{ status: number; kept: Kept }> {
  const abort = new AbortController();
  const headerTimer = setTimeout(
    () => abort.abort(new DOMException('timeout', 'TimeoutError')),
    target.timeoutMs,
  );
  const started = performance.now();
  let upstream: Dispatcher.ResponseData;
  try {
    upstream = await undiciRequest(forwardTarget(target.peer.baseUrl, target.url ?? request.url), {
      method: 'POST',
      headers: upstreamHeaders(request, target, identity),
      body,
      signal: abort.signal,
      headersTimeout: target.timeoutMs + 1000,
      bodyTimeout: 0,
    });
  } catch (err) {
    throw unanswered(target, abort.signal, err);
  } finally {
    clearTimeout(headerTimer);
  }
  recordPeerCall(serviceMetrics, target.service, String(upstream.statusCode), started);
  const status = upstream.statusCode;
  const success = status >= 200 && status < 300;
  // Every service answers in JSON: a page instead (a proxy on the way, a half-started peer) is
  // a broken peer, neither an answer to pass on nor a result to keep for the key.
  if (status !== 204 && !isJson(upstream)) {
    upstream.body.dump().catch(() => {});
    throw notJsonReply(target.service, status);
  }
  const text = (await readReply(upstream, target, MAX_KEPT_REPLY_BYTES)).toString('utf8');
  const refused = refusedAnswer(target.service, status, status >= 400 ? text : undefined);
  if (refused) throw refused;
  if (success && status !== 204) {
    try {
      JSON.parse(text);
    } catch {
      throw notJsonReply(target.service, status);
    }
  }
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = upstream.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return { status, kept: { headers, text } };
}

/**
 * Forwards a POST; with an Idempotency-Key, at most once per (user, route, key). The body is
 * read here (bounded by the body limit) to compare retries; the peer still validates it.
 * A streamed chat (`Accept: text/event-stream`) runs once too, but its events are not kept: a
 * retry is sent on to the orchestrator, which answers it by the message's key.
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
  // As any member's body (request-body.ts): one over the limit goes on without it, for the
  // service's 403/404 before its 413, and is never kept. It is compared whole, so with no room
  // left to hold it the request is refused (503), never read beyond the gateway's budget.
  let body: Buffer;
  let held: HeldBody | undefined;
  try {
    const read = await bodyForPeer(request, deps.bodyLimit, 'refuse');
    if (read === OVER_LIMIT)
      return await forward(request, reply, { ...target, overLimit: deps.bodyLimit }, identity);
    if (read instanceof PassThrough) throw new Error('a keyed body is never streamed');
    held = read;
    body = read.bytes;
  } catch (err) {
    if (request.raw.destroyed) {
      // The client went away mid-body: nobody is left to answer.
      reply.hijack();
      endClientClosed(request, reply, { peer: target.service });
      return reply;
    }
    if (!request.raw.complete) reply.header('connection', 'close');
    throw err;
  }
  // Only a chat turn answers as an event stream; any other create asking for one gets JSON, kept.
  const streamed = wantsEventStream(request) && isChat(request);
  try {
    const result = await deps.idempotency.run<Kept>(scope, key, fingerprintable(body), async () => {
      if (streamed) {
        await forward(request, reply, { ...target, body }, identity);
        if (reply.statusCode >= 400) throw new NotKept(reply.statusCode, { headers: {}, text: '' });
        return {
          status: reply.statusCode,
          body: { headers: {}, text: '', streamed: true, role: identity.role },
        };
      }
      const answer = await exchange(request, target, identity, body);
      if (answer.status < 200 || answer.status >= 300) throw new NotKept(answer.status, answer.kept);
      return { status: answer.status, body: { ...answer.kept, role: identity.role } };
    });
    // The owning service judges the caller's role, and a replay never reaches it: a caller
    // demoted since is not answered on their old role's authority, but sent on to the service,
    // which judges the role they have now (a promoted one is replayed: they may do as much).
    if (result.replayed && demotedSince(result.body, identity.role))
      return forward(request, reply, { ...target, body }, identity);
    // A streamed turn's events are not kept, nor how it ended: its retry goes to the orchestrator,
    // which knows the message by its key. It answers 409 for a turn that was
    // answered, the answer for a JSON retry, and runs a failed turn whose message is still the
    // last one again, as a failed attempt promises.
    if (result.body.streamed) {
      if (result.replayed) return forward(request, reply, { ...target, body }, identity);
      return reply;
    }
    if (result.replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(result.status).headers(result.body.headers).send(result.body.text);
  } catch (err) {
    if (!(err instanceof NotKept)) throw err;
    if (streamed) return reply; // already on its way to the client
    return reply.code(err.status).headers(err.kept.headers).send(err.kept.text);
  } finally {
    held?.release();
  }
}
