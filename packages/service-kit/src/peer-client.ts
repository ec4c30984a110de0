import { CALLER_HEADERS, ErrorEnvelope, type ServiceName } from '@hs/contracts';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { deadlineHeaders, nestedTimeoutMs } from './deadline.ts';
import { AppError, upstreamError, upstreamTimeout } from './errors.ts';
import { request } from './http-request.ts';
import type { Caller } from './internal-auth.ts';
import { INTERNAL_TOKEN_HEADER } from './internal-auth.ts';
import { recordPeerCall, scopeRegistry } from './metrics.ts';
import { startPeerCall } from './trace-context.ts';

export type PeerCall<S extends z.ZodType | undefined> = {
  method: Dispatcher.HttpMethod;
  path: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  requestId?: string;
  caller?: Caller | null;
  /** Validates a 2xx reply; a mismatch is the peer's fault (502). */
  schema?: S;
  timeoutMs?: number;
  /** Aborts the call early (e.g. an outbox attempt that ran out of time). */
  signal?: AbortSignal;
  /** A larger bound than MAX_PEER_REPLY_BYTES, for a reply known to grow (a whole mission). */
  maxReplyBytes?: number;
};

export type PeerReply<T> = {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
};

export interface PeerClient {
  readonly service: ServiceName;
  readonly baseUrl: string;
  call<S extends z.ZodType | undefined = undefined>(
    call: PeerCall<S>,
  ): Promise<PeerReply<S extends z.ZodType ? z.infer<S> : unknown>>;
}

/** A peer's JSON reply larger than this is refused (502) as it streams in, not held in memory. */
export const MAX_PEER_REPLY_BYTES = 8 * 1024 * 1024;

class ReplyTooLarge extends Error {}

/** The reply body as text, read until MAX_PEER_REPLY_BYTES at most (the body is destroyed past it). */
async function readBounded(res: Dispatcher.ResponseData, limit: number): Promise<string> {
  const declared = Number(res.headers['content-length'] ?? Number.NaN);
  if (declared > limit) {
    res.body.destroy();
    throw new ReplyTooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      res.body.destroy();
      throw new ReplyTooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function isTimeout(err: unknown): boolean {
  const e = err as { name?: string; code?: string };
  return (
    e?.name === 'TimeoutError' || e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_BODY_TIMEOUT'
  );
}

export function buildQuery(query: PeerCall<undefined>['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

/**
 * One typed client per peer: sends the peer's internal token and the request id, applies the
 * timeout, validates the reply. A peer's 4xx and its 503 SERVICE_UNAVAILABLE (busy) are passed on
 * in its own envelope (with its Retry-After); another 5xx, a redirect, an unreachable peer, a
 * reply over MAX_PEER_REPLY_BYTES or one that fails `schema` become 502 UPSTREAM_ERROR, a slow
 * one 504 UPSTREAM_TIMEOUT. A call whose reply is used, or whose success is trusted (an outbox
 * delivery), passes a schema: a 200 of the wrong shape is then not taken for a result.
 */
export function createPeerClient(options: {
  service: ServiceName;
  baseUrl: string;
  token: string;
  timeoutMs: number;
  dispatcher?: Dispatcher;
}): PeerClient {
  const { service, baseUrl, token, timeoutMs } = options;
  const metrics = scopeRegistry();
  return {
    service,
    baseUrl,
    async call(call) {
      const headers: Record<string, string> = {
        accept: 'application/json',
        [INTERNAL_TOKEN_HEADER]: token,
        ...call.headers,
      };
      if (call.requestId) headers['x-request-id'] = call.requestId;
      const span = startPeerCall(`${call.method} ${service}`, {
        'http.request.method': call.method,
        'peer.service': service,
      });
      if (span.traceparent) headers.traceparent = span.traceparent;
      if (call.caller) {
        headers[CALLER_HEADERS.userId] = call.caller.userId;
        if (call.caller.role) headers[CALLER_HEADERS.role] = call.caller.role;
        if (call.caller.email) headers[CALLER_HEADERS.email] = call.caller.email;
      }
      let payload: string | undefined;
      if (call.body !== undefined) {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(call.body);
      }
      const limit = nestedTimeoutMs(call.timeoutMs ?? timeoutMs);
      const started = performance.now();
      Object.assign(headers, deadlineHeaders(limit));
      let res: Dispatcher.ResponseData;
      let text: string;
      const replyLimit = call.maxReplyBytes ?? MAX_PEER_REPLY_BYTES;
      try {
        if (limit <= 0) throw new DOMException('no time left', 'TimeoutError');
        res = await request(`${baseUrl}${call.path}${buildQuery(call.query)}`, {
          method: call.method,
          headers,
          body: payload,
          signal: call.signal
            ? AbortSignal.any([AbortSignal.timeout(limit), call.signal])
            : AbortSignal.timeout(limit),
          ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
        });
        text = await readBounded(res, replyLimit);
      } catch (err) {
        if (err instanceof ReplyTooLarge) {
          span.end(true, { 'error.type': 'too_large' });
          recordPeerCall(metrics, service, 'too_large');
          throw upstreamError(`${service} answered with a body over ${replyLimit} bytes`);
        }
        const outcome = isTimeout(err) ? 'timeout' : 'unreachable';
        span.end(true, { 'error.type': outcome });
        recordPeerCall(metrics, service, outcome);
        if (isTimeout(err))
          throw upstreamTimeout(
            limit <= 0
              ? `${service} was not called: no time was left of the request's deadline`
              : `${service} did not answer within ${limit} ms`,
            err,
          );
        throw upstreamError(`${service} is unreachable`, err);
      }
      span.end(res.statusCode >= 500, { 'http.response.status_code': res.statusCode });
      recordPeerCall(metrics, service, String(res.statusCode), started);
      // Calls are never redirected: a 3xx from a peer is not a result (and its target not ours to call).
      if (res.statusCode >= 300 && res.statusCode < 400)
        throw upstreamError(`${service} answered ${res.statusCode} instead of a result`);
      let json: unknown = null;
      if (text) {
        try {
          json = JSON.parse(text);
        } catch {
          throw upstreamError(`${service} sent a reply that is not JSON (status ${res.statusCode})`);
        }
      }
      if (res.statusCode >= 400) {
        const env = ErrorEnvelope.safeParse(json);
        // A peer's refusal (4xx) and its "busy, come back later" (503 SERVICE_UNAVAILABLE: a full
        // browser pool, a locked or unreachable store) reach the caller in the peer's own envelope
        // with its Retry-After, as the proxy passes them on; any other 5xx is a broken peer.
        const passedOn =
          env.success &&
          (res.statusCode < 500 || (res.statusCode === 503 && env.data.error === 'SERVICE_UNAVAILABLE'));
        if (passedOn) {
          const retryAfter = res.headers['retry-after'];
          throw new AppError(env.data.error, res.statusCode, env.data.message, {
            ...(env.data.details ? { details: env.data.details } : {}),
            ...(typeof retryAfter === 'string' ? { headers: { 'retry-after': retryAfter } } : {}),
          });
        }
        throw upstreamError(
          res.statusCode >= 500
            ? `${service} failed (${res.statusCode}${env.success ? `: ${env.data.error}` : ''})`
            : `${service} refused the call (${res.statusCode})`,
        );
      }
      let body: unknown = json;
      if (call.schema) {
        const parsed = call.schema.safeParse(json);
        if (!parsed.success) throw upstreamError(`${service} sent a reply that does not match its contract`);
        body = parsed.data;
      }
      return { status: res.statusCode, body, headers: res.headers } as never;
    },
  };
}
