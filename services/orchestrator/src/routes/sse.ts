import type { StreamEvent } from '@hs/contracts';
import { trackOpenStream } from '@hs/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sseFrame, sseRetry } from '../domain/stream-frame.ts';

export type SseChannel = { signal: AbortSignal; send(event: StreamEvent): void; end(): void };

export const wantsEventStream = (request: FastifyRequest) =>
  (request.headers.accept ?? '').includes('text/event-stream');

/**
 * Opens a Server-Sent Events response by hand (the framing is small and this keeps full control
 * of flushing): `retry:` once, a `: keep-alive` comment every heartbeat, and the returned signal
 * aborts when the client goes away. The content type is exactly `text/event-stream`, which is
 * what proxies look for to stop buffering and timing out idle streams.
 */
export function openSse(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { retryMs: number; heartbeatMs: number },
): SseChannel {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
  });
  const abort = new AbortController();
  const open = () => !raw.destroyed && !raw.writableEnded;
  const write = (chunk: string) => {
    if (open()) raw.write(chunk);
  };
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), options.heartbeatMs);
  raw.on('close', () => {
    clearInterval(heartbeat);
    abort.abort();
  });
  write(sseRetry(options.retryMs));
  const end = () => {
    clearInterval(heartbeat);
    if (open()) raw.end();
  };
  // Shutdown ends the stream at once; the client reconnects after `retry` with Last-Event-ID.
  const forget = trackOpenStream(reply, end);
  return {
    signal: abort.signal,
    send: (event) => write(sseFrame(event)),
    end: () => {
      forget();
      end();
    },
  };
}

/** Where a (re)connecting client resumes: Last-Event-ID wins over `?after=`, both default to the start. */
export function resumePoint(request: FastifyRequest, after: number | undefined): number | null {
  const header = request.headers['last-event-id'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value !== undefined && value.trim() !== '') {
    return /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : null;
  }
  return after ?? 0;
}
