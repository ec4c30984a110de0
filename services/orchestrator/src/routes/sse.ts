import type { StreamEvent } from '@hs/contracts';
import { endClientClosed, trackOpenStream } from '@hs/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sseFrame, sseRetry } from '../domain/stream-frame.ts';

export type SseChannel = {
  signal: AbortSignal;
  send(event: StreamEvent): void;
  /** Several events in one write (a batch a mission's hub delivers). */
  sendMany(events: readonly StreamEvent[]): void;
  /** True while the socket holds more than it takes at once (its client is behind). */
  backedUp(): boolean;
  /** Resolves when the socket has written out what it held (or the stream closed). */
  drained(): Promise<void>;
  end(): void;
};

/**
 * Bytes a stream may have queued for a client that reads slowly: past this the client has
 * fallen too far behind, and its stream is closed rather than held in memory; it reconnects
 * after `retry` with Last-Event-ID and replays from the store.
 */
export const SSE_MAX_BUFFERED_BYTES = 1024 * 1024;

// Every stream of a mission sends the same event object: it is framed once.
const frames = new WeakMap<StreamEvent, string>();
function frameOf(event: StreamEvent): string {
  let frame = frames.get(event);
  if (frame === undefined) {
    frame = sseFrame(event);
    frames.set(event, frame);
  }
  return frame;
}

const CRLF = Buffer.from('\r\n');
const framesOf = (events: readonly StreamEvent[]) => events.map(frameOf).join('');

// A batch the hub hands to every stream of a mission is one array: its bytes are encoded once.
const chunks = new WeakMap<readonly StreamEvent[], Buffer>();
/** A batch of frames as one HTTP/1.1 chunk (RFC 9112 section 7.1): size in hex, CRLF, data, CRLF. */
function chunkOf(events: readonly StreamEvent[]): Buffer {
  let chunk = chunks.get(events);
  if (chunk === undefined) {
    const data = Buffer.from(framesOf(events));
    chunk = Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, CRLF]);
    chunks.set(events, chunk);
  }
  return chunk;
}

/**
 * Opens a Server-Sent Events response by hand (the framing is small and this keeps full control
 * of flushing): `retry:` once, a `: keep-alive` comment every heartbeat, and the returned signal
 * aborts when the client goes away. The content type is exactly `text/event-stream`, which is
 * what proxies look for to stop buffering and timing out idle streams.
 */
export function openSse(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { retryMs: number; heartbeatMs: number; maxBufferedBytes?: number },
): SseChannel {
  const maxBuffered = options.maxBufferedBytes ?? SSE_MAX_BUFFERED_BYTES;
  reply.hijack();
  const raw = reply.raw;
  // A client gone while the route prepared the stream: nothing reaches it, its request line is written now.
  if (raw.destroyed) endClientClosed(request, reply);
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
  // HEAD (which Fastify answers with the GET route) asks for the headers alone: a stream that
  // never ends held the caller, and one of its stream places, until the gateway's timeout.
  if (request.method === 'HEAD') raw.end();
  write(sseRetry(options.retryMs));
  let pending = '';
  const flush = () => {
    if (pending) write(pending);
    pending = '';
  };
  const end = () => {
    flush();
    clearInterval(heartbeat);
    if (open()) raw.end();
  };
  // Shutdown ends the stream at once; the client reconnects after `retry` with Last-Event-ID.
  const forget = trackOpenStream(reply, end);
  /** A client that reads too slowly is cut off rather than buffered without bound. */
  const fallenBehind = (adding: number) => {
    if (raw.writableLength + pending.length + adding <= maxBuffered) return false;
    pending = '';
    clearInterval(heartbeat);
    raw.end(`: too far behind, reconnect with Last-Event-ID\n${sseRetry(options.retryMs)}`);
    abort.abort();
    return true;
  };
  return {
    signal: abort.signal,
    send: (event) => {
      if (!open() || fallenBehind(0)) return;
      // Events that arrive together (one store page) leave in one write, not one each.
      if (!pending) process.nextTick(flush);
      pending += frameOf(event);
    },
    sendMany: (events) => {
      // An empty chunk would read as the end of the response.
      if (events.length === 0 || !open() || fallenBehind(0)) return;
      // The hub's batches go straight to the socket as a chunk encoded once for every stream:
      // through the response, each of a thousand streams paid for its own chunk framing, a cork
      // and a deferred uncork, twice the CPU of the write itself. Only while the response owns
      // its socket (not a pipelined reply still queued), has sent its head and frames in chunks.
      const socket = raw.socket;
      if (!pending && socket?.writable && raw.headersSent && raw.chunkedEncoding) {
        socket.write(chunkOf(events));
        return;
      }
      const frames = pending + framesOf(events);
      pending = '';
      write(frames);
    },
    backedUp: () => open() && raw.socket?.writableNeedDrain === true,
    drained: () =>
      new Promise<void>((resolve) => {
        const socket = raw.socket;
        if (!open() || socket?.writableNeedDrain !== true) return resolve();
        const done = () => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.on('drain', done);
        socket.on('close', done);
      }),
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
