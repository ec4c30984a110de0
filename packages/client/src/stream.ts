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
  fetch?: typeof fetch;
};

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
 * Follows the stream until `signal` aborts; resolves then. Each reconnect (after the stream ended,
 * broke off or was refused) sends Last-Event-ID so no event is missed or repeated.
 */
export async function streamMission(options: MissionStreamOptions): Promise<void> {
  const doFetch = options.fetch ?? fetch;
  let lastId = options.lastEventId;
  let retryMs = options.retryMs ?? 1000;
  const path = `/api/v1/households/${encodeURIComponent(options.householdId)}/orchestrator/missions/${encodeURIComponent(options.missionId)}/stream`;
  const query = options.streamToken ? `?streamToken=${encodeURIComponent(options.streamToken)}` : '';
  while (!options.signal.aborted) {
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (lastId !== undefined) headers['last-event-id'] = String(lastId);
      const res = await doFetch(`${options.baseUrl}${path}${query}`, { headers, signal: options.signal });
      if (res.status === 401 || res.status === 403 || res.status === 404) {
        throw new Error(`The mission stream was refused (${res.status})`);
      }
      if (res.status === 200 && res.body) {
        await readFrames(res.body, options.signal, {
          event: (event) => {
            lastId = event.seq;
            options.onEvent(event);
          },
          retry: (ms) => {
            retryMs = ms;
          },
        });
      }
    } catch (err) {
      if (options.signal.aborted) return;
      if (err instanceof Error && err.message.startsWith('The mission stream was refused')) throw err;
    }
    await sleep(retryMs, options.signal);
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
