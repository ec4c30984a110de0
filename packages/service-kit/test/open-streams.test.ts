import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { endOpenStreams, trackOpenStream, wantsEventStream } from '../src/open-streams.ts';

const apps: Array<ReturnType<typeof Fastify>> = [];
afterEach(async () => {
  for (const app of apps.splice(0)) {
    app.server.closeAllConnections();
    await app.close();
  }
});

/** A server with one event stream that stays open until shutdown ends it. */
async function streamingServer() {
  const app = Fastify();
  apps.push(app);
  app.get('/stream', (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    reply.raw.write('retry: 1000\n\n');
    trackOpenStream(reply, () => reply.raw.end());
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

/** Reads the stream to its end; 'open' when it is still going after `ms`. */
async function readToEnd(url: string, ms = 2000): Promise<string> {
  const res = await fetch(`${url}/stream`);
  const reader = res.body!.getReader();
  const deadline = AbortSignal.timeout(ms);
  let text = '';
  const decoder = new TextDecoder();
  while (!deadline.aborted) {
    const next = await Promise.race([
      reader.read(),
      new Promise<'open'>((resolve) => deadline.addEventListener('abort', () => resolve('open'))),
    ]);
    if (next === 'open') break;
    if (next.done) return text;
    text += decoder.decode(next.value);
  }
  await reader.cancel();
  return 'open';
}

describe('open event streams at shutdown', () => {
  it('ends the streams open when shutdown begins', async () => {
    const { app, url } = await streamingServer();
    const reading = readToEnd(url);
    await new Promise((r) => setTimeout(r, 100));
    expect(endOpenStreams(app.server)).toBe(1);
    expect(await reading).toBe('retry: 1000\n\n');
  });

  it('ends at once a stream opened after shutdown began (a reconnect in the linger)', async () => {
    const { app, url } = await streamingServer();
    endOpenStreams(app.server);
    expect(await readToEnd(url)).toBe('retry: 1000\n\n');
  });
});

describe('wantsEventStream', () => {
  it('reads Accept as media types are compared: without regard to case, among other types', () => {
    expect(wantsEventStream({ headers: { accept: 'text/event-stream' } })).toBe(true);
    expect(wantsEventStream({ headers: { accept: 'Text/Event-Stream' } })).toBe(true);
    expect(wantsEventStream({ headers: { accept: 'text/html, text/event-stream;q=0.9' } })).toBe(true);
    expect(wantsEventStream({ headers: { accept: 'application/json' } })).toBe(false);
    expect(wantsEventStream({ headers: {} })).toBe(false);
  });

  it('does not stream for another type that merely starts alike, or for the type refused with q=0', () => {
    const wants = (accept: string) => wantsEventStream({ headers: { accept } });
    expect(wants('text/event-streamx')).toBe(false);
    expect(wants('application/x-text/event-stream')).toBe(false);
    expect(wants('text/event-stream;q=0')).toBe(false);
    expect(wants('application/json, text/event-stream; q=0.0')).toBe(false);
    expect(wants(' text/event-stream ; charset=utf-8')).toBe(true);
    expect(wants('text/event-stream;q=0.1, application/json;q=0.05')).toBe(true);
    // A client that prefers JSON gets JSON.
    expect(wants('text/event-stream;q=0.1, application/json')).toBe(false);
    expect(wants('application/json, text/event-stream;q=0.9')).toBe(false);
    expect(wants('text/event-stream, application/json')).toBe(true);
  });
});
