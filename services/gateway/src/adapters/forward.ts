// Streams one HTTP exchange to a peer service with undici (https://undici.nodejs.org) and back,
// without buffering: uploads go up as they arrive, SSE goes down event by event and is never
// cut for being idle. The header wait is bounded by INTERNAL_API_TIMEOUT_SECONDS.

import { PassThrough, Readable, Transform } from 'node:stream';
import { CALLER_HEADERS, ErrorEnvelope } from '@hs/contracts';
import {
  type AppError,
  BODY_OVER_LIMIT_HEADER,
  badRequest,
  deadlineHeaders,
  endClientClosed,
  INTERNAL_TOKEN_HEADER,
  outgoingTraceparent,
  type Peer,
  REQUEST_SENT_AT_HEADER,
  REQUEST_TIMEOUT_HEADER,
  recordPeerCall,
  serviceMetrics,
  trackOpenStream,
  httpRequest as undiciRequest,
  upstreamError,
  upstreamTimeout,
  wantsEventStream,
} from '@hs/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { bodyForPeer, type HeldBody, OVER_LIMIT } from './request-body.ts';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  // An expectation is between the client and us (the kit sends 100 Continue when the body is
  // first read); undici refuses the header outright, which made every such upload a 502.
  'expect',
]);
const NOT_FORWARDED_UP = new Set([
  ...HOP_BY_HOP,
  'authorization',
  INTERNAL_TOKEN_HEADER,
  REQUEST_TIMEOUT_HEADER,
  REQUEST_SENT_AT_HEADER,
  ...Object.values(CALLER_HEADERS),
  // Only the gateway's own voice relay may mark a turn as spoken.
  'x-message-source',
  // Only the gateway says a body was over its limit (request-body.ts).
  BODY_OVER_LIMIT_HEADER,
]);

/** Headers a `Connection:` header names are hop-by-hop too (RFC 9110 section 7.6.1). */
const NO_TOKENS: ReadonlySet<string> = new Set();
function connectionTokens(value: string | string[] | undefined): ReadonlySet<string> {
  // Almost every request and reply says nothing or only keep-alive (hop-by-hop already).
  if (value === undefined || value === 'keep-alive' || value === 'close') return NO_TOKENS;
  const list = Array.isArray(value) ? value.join(',') : value;
  return new Set(
    list
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean),
  );
}

const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~!$&'()*+,;=:@-]+)+\/?$/;
const PLAIN_QUERY = /^(?:\?[A-Za-z0-9_~!$&'()*+,;=:@/?%.-]*)?$/;
const bases = new Map<string, { origin: string; prefix: string }>();
function parsedBase(baseUrl: string) {
  let base = bases.get(baseUrl);
  if (!base) {
    const url = new URL(baseUrl);
    base = { origin: url.origin, prefix: url.pathname.replace(/\/$/, '') };
    bases.set(baseUrl, base);
  }
  return base;
}

/**
 * The path goes to the peer exactly as the gateway matched it. undici parses the target with
 * WHATWG URL, which resolves `..`, `%2e%2e` and `\` segments: `/households/h_1/wardrobe/../../h_2`
 * would pass the membership check for h_1 and reach h_2. A path the parser would rewrite is refused.
 */
export function forwardTarget(baseUrl: string, rawUrl: string): string {
  const queryAt = rawUrl.indexOf('?');
  const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  // An absolute-form request line reaches here as its path (rewriteUrl, service-kit); anything else is refused.
  if (!rawPath.startsWith('/')) throw badRequest('Request target must be a path');
  // Almost every path has no dot, percent sign or backslash: nothing the URL parser could rewrite.
  const base = parsedBase(baseUrl);
  if (PLAIN_PATH.test(rawPath) && PLAIN_QUERY.test(rawUrl.slice(rawPath.length)))
    return `${base.origin}${base.prefix}${rawUrl}`;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    throw badRequest('Path is not valid percent-encoding');
  }
  const prefix = base.prefix;
  const target = new URL(`${prefix}${rawUrl}`, base.origin);
  const dotSegment = decoded.split(/[\\/]/).some((segment) => segment === '.' || segment === '..');
  if (dotSegment || target.origin !== base.origin || target.pathname !== `${prefix}${rawPath}`)
    throw badRequest('Path must not contain dot segments or backslashes');
  return target.href;
}

const SMALL_REPLY_BYTES = 64 * 1024;

export type ForwardIdentity = { userId: string; email: string; role: string } | null;

/** The client's headers as the peer gets them: hop-by-hop and credentials dropped, ours added. */
export function upstreamHeaders(
  request: FastifyRequest,
  target: { peer: Peer; timeoutMs: number },
  identity: ForwardIdentity,
): Record<string, string> {
  const hopByHop = connectionTokens(request.headers.connection);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || NOT_FORWARDED_UP.has(name) || hopByHop.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  headers[INTERNAL_TOKEN_HEADER] = target.peer.token;
  headers['x-request-id'] = request.id;
  const traceparent = outgoingTraceparent();
  if (traceparent) headers.traceparent = traceparent;

  // The peer must answer (or give up) before we stop waiting for it.
  Object.assign(headers, deadlineHeaders(target.timeoutMs));
  if (identity) {
    headers[CALLER_HEADERS.userId] = identity.userId;
    headers[CALLER_HEADERS.role] = identity.role;
    headers[CALLER_HEADERS.email] = identity.email;
  }
  return headers;
}

/**
 * How long a forwarded event stream may stay silent, keep-alives included, before the gateway
 * ends it (UPSTREAM_STREAM_SILENCE_SECONDS): the peers send one at least every 15 s, so silence
 * means a hung peer, and a client that reconnects (with Last-Event-ID) gets a clear 502/504
 * instead of a stream that looks live and never moves.
 */
const DEFAULT_STREAM_SILENCE_MS = 45_000;

/**
 * A pass-through for an upload that restarts `timer` for every chunk that goes through it, and
 * every second (a quarter of the timeout, if less) while it waits for the client with nothing left for the peer to read: the wait
 * for the peer counts only while the peer has something to do. A phone that paused 13 s mid-upload
 * got 504 "wardrobe did not answer" at 10 s; a client that stays too slow is REQUEST_TIMEOUT_SECONDS'
 * (408), and a peer that stops reading leaves chunks in here, so its silence is still a 504.
 */
function restartingWhilePeerKeepsUp(timer: NodeJS.Timeout, timeoutMs: number, upload: Readable): Transform {
  const pass = new Transform({
    transform(chunk, _encoding, done) {
      timer.refresh();
      done(null, chunk);
    },
  });
  const waitingForClient = setInterval(
    () => {
      if (pass.readableLength === 0 && pass.writableLength === 0) timer.refresh();
    },
    Math.min(1000, timeoutMs / 4),
  );
  const stop = () => clearInterval(waitingForClient);
  upload.once('end', stop).once('close', stop);
  pass.once('close', stop).once('finish', stop);
  return upload.pipe(pass);
}

export async function forward(
  request: FastifyRequest,
  reply: FastifyReply,
  target: {
    service: string;
    peer: Peer;
    timeoutMs: number;
    url?: string;
    body?: Buffer;
    streamSilenceMs?: number;
    /** The route is an event stream (the mission stream, a live view), whatever the client accepts. */
    stream?: boolean;
    /** The body limit for a member's bodies, which are read whole first (request-body.ts bodyForPeer). */
    readBodyUpTo?: number;
    /** The body was over this limit and dropped: the peer answers 413 after its own checks. */
    overLimit?: number;
  },
  identity: ForwardIdentity,
): Promise<FastifyReply> {
  const url = forwardTarget(target.peer.baseUrl, target.url ?? request.url);

  const abort = new AbortController();
  let clientGone = false;
  const hangUp = () => {
    clientGone = true;
    abort.abort();
  };
  // The response closing before it finished means the client went away: stop the upstream call.
  // The request's own 'close' fires once its body has been read, so only an incomplete body
  // tells (a client gone mid-upload; the response side may not close for a while then).
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) hangUp();
  });
  const hasBody =
    request.method !== 'GET' &&
    request.method !== 'HEAD' &&
    (target.body !== undefined || request.body !== undefined);
  // A request without a body to stream up is complete already.
  if (hasBody)
    request.raw.once('close', () => {
      if (!request.raw.complete) hangUp();
    });
  let body: Buffer | Readable | undefined = target.body;
  let overLimit = target.overLimit;
  let held: HeldBody | undefined;
  // Only a member's call: public routes (a signed link, the live view) stream as they come, so
  // nobody without an account can take the gateway's room for held bodies.
  let streamed: PassThrough | undefined;
  if (hasBody && body === undefined && overLimit === undefined && target.readBodyUpTo && identity) {
    try {
      const read = await bodyForPeer(request, target.readBodyUpTo);
      if (read === OVER_LIMIT) overLimit = target.readBodyUpTo;
      else if (read instanceof PassThrough) streamed = read;
      else {
        held = read;
        body = read.bytes;
      }
    } catch (err) {
      if (!clientGone) {
        // Refused with the rest of the upload unread: the connection cannot carry another request.
        if (!request.raw.complete) reply.header('connection', 'close');
        throw err;
      }
      reply.hijack();
      endClientClosed(request, reply, { peer: target.service });
      return reply;
    }
  }
  // Made once the member's body is read (up to REQUEST_TIMEOUT_SECONDS): the deadline headers
  // count the peer's wait from the send, so a slow upload never reaches it looking given up on.
  const headers = upstreamHeaders(request, target, identity);
  if (overLimit !== undefined) {
    headers[BODY_OVER_LIMIT_HEADER] = String(overLimit);
    body = Buffer.alloc(0);
  }
  // Sent whole (or not at all): its length is the one undici gives it.
  if (hasBody && body !== undefined && !(body instanceof Readable)) delete headers['content-length'];
  const headerTimer = setTimeout(
    () => abort.abort(new DOMException('timeout', 'TimeoutError')),
    target.timeoutMs,
  );

  // Counted as the peer client counts its calls, so a peer failing behind the gateway shows in
  // peer_calls_total and peer_call_duration_seconds (time to the answer's headers).
  const started = performance.now();
  let upstream: Dispatcher.ResponseData;
  try {
    upstream = await undiciRequest(url, {
      method: request.method as Dispatcher.HttpMethod,
      headers,
      // Through a pass-through: when undici gives up on the upload it destroys the stream it was
      // given, and that must not look like the client hanging up. Each chunk passed up restarts
      // the wait for the peer's answer, so the wait counts from the last byte sent: a phone
      // sending a 10 MB image at 500 KB/s took 20 s and got 504 UPSTREAM_TIMEOUT at 10 s from a
      // healthy peer (undici's own headersTimeout restarts the same way). A client too slow is
      // cut by REQUEST_TIMEOUT_SECONDS (408); a peer that stops reading stops the chunks, so its
      // silence is still a 504 after the timeout.
      body: hasBody
        ? (body ??
          restartingWhilePeerKeepsUp(headerTimer, target.timeoutMs, streamed ?? (request.body as Readable)))
        : null,
      // A streamed upload gets a connection of its own: a peer that refused it early closes that
      // connection, and a kept-alive one would fail the next upload (EPIPE, no retry for streams).
      reset: hasBody && body === undefined,
      signal: abort.signal,
      headersTimeout: target.timeoutMs + 1000,
      bodyTimeout: 0,
    });
  } catch (err) {
    // A client that hung up mid-upload is not a peer failure: nobody is left to answer.
    // Its request line (written now) says so, and which peer was being asked.
    if (clientGone) {
      reply.hijack();
      endClientClosed(request, reply, { peer: target.service });
      return reply;
    }
    // The rest of the client's upload is unread: the connection cannot carry another request
    // (kept alive, the client's next one waited 30 s for nothing and was reset).
    if (hasBody && !request.raw.readableEnded) reply.header('connection', 'close');
    throw unanswered(target, abort.signal, err);
  } finally {
    clearTimeout(headerTimer);
    held?.release();
    // The rest of a body that fell back to streaming (request-body.ts) no longer goes anywhere:
    // left piped, its back-pressure kept the client's request paused while the answer waited for
    // it to be drained, and an early 404 became a 408 at REQUEST_TIMEOUT_SECONDS.
    if (streamed) request.raw.unpipe(streamed);
  }
  recordPeerCall(serviceMetrics, target.service, String(upstream.statusCode), started);
  // An event stream is passed on as one (no size bound; only silence ends it) where the client asked
  // for one: on a stream route or with `Accept: text/event-stream` (a streamed chat turn). Any other
  // request answered with one gets an ordinary reply's bounds: a peer that answers a JSON read with
  // a stream and then hangs is cut after the peer timeout, not after the stream silence.
  const passedAsStream = isStream(upstream) && (target.stream === true || wantsEventStream(request));
  // Every service answers an error in the JSON envelope: an error page instead (a proxy on the
  // way, a peer half-started) is a broken peer, not an answer to pass on to the client.
  if (upstream.statusCode >= 400 && !isJson(upstream)) {
    upstream.body.dump().catch(() => {});
    throw notJsonReply(target.service, upstream.statusCode);
  }
  const redirect = refusedAnswer(target.service, upstream.statusCode);
  if (redirect) {
    upstream.body.dump().catch(() => {});
    throw redirect;
  }
  // Every reply but an event stream is bounded (see replyLimit): a declared length over the
  // limit is refused before any byte goes to the client.
  const limit = passedAsStream ? Number.POSITIVE_INFINITY : replyLimit(upstream, url);
  const declared = Number(upstream.headers['content-length'] ?? Number.NaN);
  if (declared > limit) {
    upstream.body.dump().catch(() => {});
    throw replyTooLarge(target.service, limit);
  }
  // A small reply, and any JSON reply (at most MAX_JSON_REPLY_BYTES), is read whole within the
  // peer timeout and sent as one buffer: piping it as a stream costs more than the read, a peer
  // failing mid-body still gets a clean error envelope (nothing sent yet), and a slow client's
  // reading cannot be mistaken for a peer that trickles.
  let small: Buffer | null = null;
  if (!passedAsStream && (declared <= SMALL_REPLY_BYTES || isJson(upstream)))
    small = await readReply(upstream, target, isJson(upstream) ? limit : SMALL_REPLY_BYTES);
  // An error is always JSON here (above), so read whole: it must be the envelope.
  if (small && upstream.statusCode >= 400) {
    const refused = refusedAnswer(target.service, upstream.statusCode, small.toString('utf8'));
    if (refused) throw refused;
  }

  reply.code(upstream.statusCode);
  const upstreamHopByHop = connectionTokens(upstream.headers.connection);
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (
      value === undefined ||
      HOP_BY_HOP.has(name) ||
      !keptFromPeer(name) ||
      upstreamHopByHop.has(name) ||
      (name === 'content-length' && passedAsStream)
    )
      continue;
    reply.header(name, value);
  }
  reply.header('x-request-id', request.id);
  // The peer answered before reading the whole upload (e.g. 413): the rest of the client's body
  // is unread on this connection, so it must close after the reply instead of being reused.
  if (hasBody && !request.raw.readableEnded) reply.header('connection', 'close');
  if (passedAsStream) {
    reply.header('x-accel-buffering', 'no');
    reply.header('cache-control', 'no-cache');
    const endStream = () => {
      upstream.body.unpipe(reply.raw);
      reply.raw.end();
    };
    // On shutdown the stream ends cleanly at once; the client reconnects after its `retry`.
    trackOpenStream(reply, endStream);
    const silenceMs = target.streamSilenceMs ?? DEFAULT_STREAM_SILENCE_MS;
    const onSilence = () => {
      request.log.warn({ service: target.service, silenceMs }, 'event stream went silent: ended');
      endStream();
      abort.abort();
    };
    reply.raw.once('close', whenIdle(upstream.body, silenceMs, onSilence));
  }
  if (small) return reply.send(small);
  upstream.body.on('error', () => reply.raw.destroy());
  if (!passedAsStream) {
    // Headers are on their way now: a body that breaks a bound can only be cut.
    const cut = () => {
      abort.abort();
      reply.raw.destroy();
    };
    // Only an event stream may stay idle; any other reply that stalls mid-body is cut after the
    // peer timeout, so a stuck peer can't hold a client connection open forever.
    whenIdle(
      upstream.body,
      target.timeoutMs,
      cut,
      () => reply.raw.writableNeedDrain || upstream.body.isPaused(),
    );
    let seen = 0;
    upstream.body.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) cut();
    });
  }
  return reply.send(upstream.body);
}

/**
 * The error for a call its peer never answered (no headers): 504 when our timer cut it, else 502.
 * Counted in the peer metrics as a timeout or an unreachable peer.
 */
export function unanswered(
  target: { service: string; timeoutMs: number },
  signal: AbortSignal,
  err: unknown,
) {
  const timedOut = (signal.reason as { name?: string } | undefined)?.name === 'TimeoutError';
  recordPeerCall(serviceMetrics, target.service, timedOut ? 'timeout' : 'unreachable');
  return timedOut
    ? upstreamTimeout(`${target.service} did not answer within ${target.timeoutMs} ms`, err)
    : upstreamError(`${target.service} is unreachable`, err);
}

const MIB = 1024 * 1024;
/** The largest JSON reply passed on (lists, mission views, transcripts are far below it). */
export const MAX_JSON_REPLY_BYTES = 8 * MIB;
/**
 * The largest download a forwarded route may carry: a recording's bytes
 * (`/artifacts/{id}/content`, served by artifacts-audit from one buffer) up to 1 GiB; any other
 * non-JSON reply (an item's image or a signed upload's bytes, at most the wardrobe's
 * UPLOAD_MAX_BYTES ceiling of 100 MiB; a try-on result PNG; the live view's page) up to 100 MiB.
 */
export const MAX_RECORDING_REPLY_BYTES = 1024 * MIB;
export const MAX_MEDIA_REPLY_BYTES = 100 * MIB;
const RECORDING_CONTENT = /\/artifacts\/[^/?]+\/content(?:\?|$)/;

function replyLimit(res: Dispatcher.ResponseData, url: string): number {
  if (isJson(res)) return MAX_JSON_REPLY_BYTES;
  return RECORDING_CONTENT.test(url) ? MAX_RECORDING_REPLY_BYTES : MAX_MEDIA_REPLY_BYTES;
}

const replyTooLarge = (service: string, limit: number) =>
  upstreamError(`${service} answered with a body over ${limit} bytes`);

/**
 * A peer's answer the gateway does not pass on, whatever its body: a redirect (3xx but 304, which
 * answers a conditional read) points the client somewhere the gateway never chose, and an error
 * (4xx, 5xx) that is not the `{error, message}` envelope is a broken peer (or a proxy's page on
 * the way), whose body may carry what a client should never see (a stack). 502 for both.
 */
export function refusedAnswer(service: string, status: number, errorText?: string): AppError | null {
  if (status >= 300 && status < 400 && status !== 304)
    return upstreamError(`${service} answered ${status}: a redirect is not passed on`);
  // An empty error body (a HEAD's, which has none) says nothing wrong: its status passes on.
  if (status >= 400 && errorText !== undefined && errorText !== '' && !isEnvelope(errorText))
    return upstreamError(`${service} answered ${status} without the error envelope`);
  return null;
}

function isEnvelope(text: string): boolean {
  try {
    return ErrorEnvelope.safeParse(JSON.parse(text)).success;
  } catch {
    return false;
  }
}

/** Headers a peer may not set on the client's answer: the gateway's own CORS, cookies, our token. */
function keptFromPeer(name: string): boolean {
  return name !== 'set-cookie' && name !== INTERNAL_TOKEN_HEADER && !name.startsWith('access-control-');
}

export function notJsonReply(service: string, status: number) {
  return upstreamError(`${service} answered ${status} without a JSON ${status >= 400 ? 'error' : 'body'}`);
}

/**
 * Reads a reply's whole body, at most `limit` bytes and within the peer timeout after its
 * headers: over the limit or broken off is 502 UPSTREAM_ERROR, too slow 504 UPSTREAM_TIMEOUT.
 */
export async function readReply(
  upstream: Dispatcher.ResponseData,
  target: { service: string; timeoutMs: number },
  limit: number,
): Promise<Buffer> {
  const declared = Number(upstream.headers['content-length'] ?? Number.NaN);
  let outcome: 'late' | 'large' | undefined;
  const stop = (why: 'late' | 'large') => {
    outcome ??= why;
    upstream.body.destroy();
  };
  if (declared > limit) stop('large');
  const deadline = setTimeout(() => stop('late'), target.timeoutMs);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of upstream.body) {
      size += (chunk as Buffer).length;
      if (size > limit) stop('large');
      else chunks.push(chunk as Buffer);
    }
  } catch (err) {
    if (outcome === undefined) throw upstreamError(`${target.service} broke off its reply`, err);
  } finally {
    clearTimeout(deadline);
  }
  if (outcome === 'large') throw replyTooLarge(target.service, limit);
  if (outcome === 'late')
    throw upstreamTimeout(`${target.service} did not finish its reply within ${target.timeoutMs} ms`);
  return Buffer.concat(chunks);
}

/**
 * Calls `onIdle` once `body` has sent nothing for `ms` (each chunk starts the wait again), until
 * the body closes; the returned function stops the wait sooner. While `waitingOnClient` says the
 * body is held back by its reader (a slow client: backpressure pauses the body), the wait starts
 * again instead: only a peer that stops sending is cut.
 */
function whenIdle(body: Readable, ms: number, onIdle: () => void, waitingOnClient = () => false): () => void {
  const fire = () => {
    if (waitingOnClient()) timer = setTimeout(fire, ms);
    else onIdle();
  };
  let timer = setTimeout(fire, ms);
  const stop = () => clearTimeout(timer);
  body.on('data', () => {
    clearTimeout(timer);
    timer = setTimeout(fire, ms);
  });
  body.once('close', stop);
  return stop;
}

export function isJson(res: Dispatcher.ResponseData): boolean {
  const type = res.headers['content-type'];
  return typeof type === 'string' && /^application\/(?:[\w.-]+\+)?json\b/i.test(type);
}

function isStream(res: Dispatcher.ResponseData): boolean {
  const type = res.headers['content-type'];
  return typeof type === 'string' && type.startsWith('text/event-stream');
}
