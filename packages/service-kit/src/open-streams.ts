import type { FastifyReply } from 'fastify';

/** Open long-lived responses (event streams) per HTTP server, so shutdown can end them at once. */
const streams = new WeakMap<object, Set<() => void>>();
/** Servers whose shutdown has begun: a stream opened now (a reconnect in the linger) ends at once. */
const closing = new WeakSet<object>();

/**
 * Registers a response that stays open until the client leaves (SSE). On shutdown `end` is
 * called: the client reconnects after its `retry` interval, to another replica. Returns the
 * function that forgets the stream (call it when the stream ends by itself).
 */
export function trackOpenStream(reply: FastifyReply, end: () => void): () => void {
  const key = reply.server.server;
  if (closing.has(key)) {
    // After the caller has set the stream up: the client hears it end and reconnects elsewhere.
    setImmediate(end);
    return () => {};
  }
  let set = streams.get(key);
  if (!set) {
    set = new Set();
    streams.set(key, set);
  }
  const own = set;
  own.add(end);
  const forget = () => {
    own.delete(end);
  };
  reply.raw.once('close', forget);
  return forget;
}

/** Ends every stream open on this server, and any opened later; returns how many were open. */
export function endOpenStreams(server: object): number {
  closing.add(server);
  const set = streams.get(server);
  if (!set) return 0;
  const ends = [...set];
  set.clear();
  for (const end of ends) end();
  return ends.length;
}

export function openStreamCount(server: object): number {
  return streams.get(server)?.size ?? 0;
}

/**
 * Whether the request asks for an event stream (`Accept` naming `text/event-stream`; media types
 * are case-insensitive): the orchestrator streams a chat turn for it, and the gateway passes a
 * peer's event stream on as one and keeps a keyed streamed turn apart. One reading of the header,
 * so the two services never disagree on whether a turn streams.
 */
export function wantsEventStream(request: { headers: { accept?: string | string[] } }): boolean {
  const accept = request.headers.accept;
  if (typeof accept !== 'string') return false;
  const stream = qualityOf(accept, 'text/event-stream');
  // Named with a q above 0 (q=0 says NOT acceptable, RFC 9110 section 12.5.1), and not below JSON.
  return stream > 0 && stream >= qualityOf(accept, 'application/json');
}

/** The highest q an Accept header gives `type` by name (0 when it does not name it). */
function qualityOf(accept: string, type: string): number {
  let best = 0;
  for (const range of accept.split(',')) {
    const [name, ...params] = range.split(';');
    // Compared whole: `text/event-streamx` names another type.
    if (name?.trim().toLowerCase() !== type) continue;
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    if (value > best) best = value;
  }
  return best;
}
