// A mission's event stream without EventSource: it resumes with the last event id after a
// dropped connection and, unlike EventSource, also after a non-200 reply (a gateway restarting).

export type MissionEvent = { seq: number; type: string; data: Record<string, unknown> };

export type MissionStreamOptions = {
  /** The gateway's base URL. */
  baseUrl: string;
  householdId: string;
  missionId: string;
  /** A bearer token, or a stream token (sent as ?streamToken=, as a browser would). */
  token?: string;
  streamToken?: string;
  /** Resume after this event (Last-Event-ID). */
  lastEventId?: number;
  onEvent: (event: MissionEvent) => void;
  signal: AbortSignal;
  /** Wait before reconnecting, until the server's `retry:` says otherwise. */
  retryMs?: number;
  /**
   * Resolve once the mission has ended (a `state.changed` to DONE or FAILED; default true): the
   * server keeps the stream open, and each open stream counts against the user's limit.
   */
  untilEnded?: boolean;
  fetch?: typeof fetch;
};

/** A reply no retry can change: the request itself is wrong (400, 422) or not allowed (401, 403, 404). */
const FATAL = new Set([400, 401, 403, 404, 410, 422]);
const ENDED = new Set(['DONE', 'FAILED']);

/** The wait a 429 or 503 asks for (Retry-After in seconds), or null. */
function retryAfterMs(res: Response): number | null {
  const seconds = Number(res.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const wake = () => {
      clearTimeout(timer);
      resolve();
    };
    signal.addEventListener('abort', wake, { once: true });
  });

/**
 * Follows the stream until `signal` aborts or (by default) the mission has ended; resolves then.
 * Each reconnect (after the stream ended, broke off or was refused for a while: 429, 5xx) sends
 * Last-Event-ID so no event is missed or repeated, after the server's Retry-After when it gives
 * one. A refusal no retry can change (400, 401, 403, 404, 422) rejects with its status.
 */
export async function streamMission(options: MissionStreamOptions): Promise<void> {
  const doFetch = options.fetch ?? fetch;
  let lastId = options.lastEventId;
  let retryMs = options.retryMs ?? 1000;
  let ended = false;
  const stopAtEnd = options.untilEnded ?? true;
  // Ends the reading of the current stream once the mission has ended.
  let stopReading: AbortController | undefined;
  const path = `/api/v1/households/${encodeURIComponent(options.householdId)}/orchestrator/missions/${encodeURIComponent(options.missionId)}/stream`;
  const query = options.streamToken ? `?streamToken=${encodeURIComponent(options.streamToken)}` : '';
  while (!options.signal.aborted && !ended) {
    let waitMs = retryMs;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (lastId !== undefined) headers['last-event-id'] = String(lastId);
      stopReading = new AbortController();
      const signal = AbortSignal.any([options.signal, stopReading.signal]);
      const res = await doFetch(`${options.baseUrl}${path}${query}`, { headers, signal });
      if (FATAL.has(res.status)) throw new StreamRefused(res.status);
      if (res.status === 200 && res.body) {
        await readFrames(res.body, signal, {
          event: (event) => {
            lastId = event.seq;
            options.onEvent(event);
            if (stopAtEnd && event.type === 'state.changed' && ENDED.has(String(event.data.to))) {
              ended = true;
              stopReading?.abort();
            }
          },
          retry: (ms) => {
            retryMs = ms;
          },
        });
      } else waitMs = retryAfterMs(res) ?? retryMs;
    } catch (err) {
      if (options.signal.aborted || ended) return;
      if (err instanceof StreamRefused) throw err;
    }
    if (!ended) await sleep(waitMs, options.signal);
  }
}

/** The stream was refused for good: `status` says why (401: sign in again; 404: no such mission). */
export class StreamRefused extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`The mission stream was refused (${status})`);
    this.name = 'StreamRefused';
    this.status = status;
  }
}

type Sink = { event: (event: MissionEvent) => void; retry: (ms: number) => void };

/** Server-Sent Events framing: fields per line, a blank line ends an event, `:` starts a comment. */
async function readFrames(body: ReadableStream<Uint8Array>, signal: AbortSignal, sink: Sink) {
  const decoder = new TextDecoder();
  let buffer = '';
  let fields: Record<string, string> = {};
  const reader = body.getReader();
  signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (fields.data !== undefined && fields.id !== undefined)
          sink.event({
            seq: Number(fields.id),
            type: fields.event ?? 'message',
            data: JSON.parse(fields.data),
          });
        fields = {};
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const name = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (name === 'retry' && /^\d+$/.test(value)) sink.retry(Number(value));
      else fields[name] = name === 'data' && fields.data !== undefined ? `${fields.data}\n${value}` : value;
    }
  }
}
