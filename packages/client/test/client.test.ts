import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { buildGateway, type GatewayApp } from '../../../services/gateway/test/gateway-harness.ts';
import { generateSchema, SCHEMA_FILE } from '../scripts/generate.ts';
import { createApiClient, type MissionEvent, openVoice, streamMission } from '../src/index.ts';

describe('@hs/client', () => {
  it("has types generated from the gateway's current public document", async () => {
    expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(await generateSchema());
  });

  describe('against the gateway', () => {
    let gateway: GatewayApp;
    let baseUrl = '';
    beforeAll(async () => {
      gateway = await buildGateway({});
      baseUrl = await gateway.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await gateway.close();
    });

    it('signs in, creates a household and reads it back through the typed operations', async () => {
      const anonymous = createApiClient({ baseUrl });
      const login = await anonymous.POST('/api/v1/auth/login', { body: { idToken: 'client@x.test' } });
      expect(login.response.status).toBe(200);
      const client = createApiClient({ baseUrl, token: login.data!.accessToken });
      const created = await client.POST('/api/v1/households', { body: { name: 'Typed family' } });
      expect(created.response.status).toBe(201);
      const id = created.data!.householdId;
      const read = await client.GET('/api/v1/households/{id}', { params: { path: { id } } });
      expect(read.data).toMatchObject({ householdId: id, name: 'Typed family' });
      // Errors come back typed too, with the envelope.
      const missing = await client.GET('/api/v1/households/{id}', { params: { path: { id: 'h_none' } } });
      expect(missing.response.status).toBe(404);
      expect(missing.error).toMatchObject({ error: 'NOT_FOUND' });
    });
  });

  describe('streamMission', () => {
    let server: Server;
    let baseUrl = '';
    const requests: IncomingHttpHeaders[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        requests.push(req.headers);
        // A restart: refused once, then two events and the stream ends, then the third.
        if (requests.length === 1) return res.writeHead(503).end();
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        if (requests.length === 2) {
          res.write('retry: 20\n\n: keep-alive\n\n');
          res.write('id: 1\nevent: turn.started\ndata: {"source":"text"}\n\n');
          res.end('id: 2\nevent: message\ndata: {"message":{"content":"hi"}}\n\n');
          return;
        }
        res.write('id: 3\nevent: turn.completed\r\ndata: {"state":"RUNNING"}\r\n\r\n');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => {
      server.closeAllConnections();
      server.close();
    });

    it('reconnects after a non-200 and after the stream ends, resuming with the last event id', async () => {
      const events: MissionEvent[] = [];
      const stop = new AbortController();
      const following = streamMission({
        baseUrl,
        householdId: 'h_1',
        missionId: 'msn_1',
        token: 'tok',
        retryMs: 20,
        signal: stop.signal,
        onEvent: (event) => {
          events.push(event);
          if (event.seq === 3) stop.abort();
        },
      });
      await following;
      expect(events).toEqual([
        { seq: 1, type: 'turn.started', data: { source: 'text' } },
        { seq: 2, type: 'message', data: { message: { content: 'hi' } } },
        { seq: 3, type: 'turn.completed', data: { state: 'RUNNING' } },
      ]);
      expect(requests.map((h) => h['last-event-id'])).toEqual([undefined, undefined, '2']);
      expect(requests[0]!.authorization).toBe('Bearer tok');
    });
  });

  describe('streamMission against a mission that ends', () => {
    let server: Server;
    let baseUrl = '';
    let replies: Array<(res: import('node:http').ServerResponse) => void> = [];
    const seen: IncomingHttpHeaders[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        seen.push(req.headers);
        const next = replies.shift();
        if (next) next(res);
        else res.writeHead(500).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => {
      server.closeAllConnections();
      server.close();
    });
    const follow = (events: MissionEvent[], retryMs = 20) =>
      streamMission({
        baseUrl,
        householdId: 'h_1',
        missionId: 'msn_1',
        token: 'tok',
        retryMs,
        signal: new AbortController().signal,
        onEvent: (event) => events.push(event),
      });

    it('resolves once the mission is DONE although the server keeps the stream open', async () => {
      replies = [
        (res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('id: 7\nevent: state.changed\ndata: {"from":"RUNNING","to":"DONE"}\n\n');
        },
      ];
      const events: MissionEvent[] = [];
      await follow(events);
      expect(events.map((e) => e.seq)).toEqual([7]);
    });

    it('waits what a 429 asks (Retry-After) instead of its own interval', async () => {
      replies = [
        (res) => res.writeHead(429, { 'retry-after': '0' }).end(),
        (res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('id: 1\nevent: state.changed\ndata: {"from":"RUNNING","to":"FAILED"}\n\n');
        },
      ];
      const events: MissionEvent[] = [];
      // Its own interval is a minute: only the server's Retry-After can bring the second call in time.
      await follow(events, 60_000);
      expect(events.map((e) => e.data.to)).toEqual(['FAILED']);
    });

    it('rejects a refusal no retry can change, with its status', async () => {
      replies = [(res) => res.writeHead(400, { 'content-type': 'application/json' }).end('{}')];
      await expect(follow([])).rejects.toMatchObject({ name: 'StreamRefused', status: 400 });
    });
  });

  describe('openVoice', () => {
    it('says the text once open, hands over each message and resolves `closed` with the code and reason', async () => {
      // A voice socket that answers one turn and then ends, as the gateway does for a mission that is over.
      const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
      await new Promise((resolve) => server.once('listening', resolve));
      server.on('connection', (socket) => {
        socket.send(JSON.stringify({ type: 'ready', missionId: 'msn_1' }));
        socket.on('message', (data) => {
          socket.send(
            JSON.stringify({ type: 'event', event: 'turn.completed', heard: JSON.parse(String(data)) }),
          );
          socket.close(4409, 'Mission is DONE');
        });
      });
      try {
        const messages: Array<Record<string, unknown>> = [];
        const voice = openVoice(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/`, (message) => {
          messages.push(message);
          if (message.type === 'ready') voice.say('hello');
        });
        await voice.opened;
        expect(await voice.closed).toEqual({ code: 4409, reason: 'Mission is DONE' });
        expect(messages).toEqual([
          { type: 'ready', missionId: 'msn_1' },
          { type: 'event', event: 'turn.completed', heard: { type: 'user_text', text: 'hello' } },
        ]);
      } finally {
        server.close();
      }
    });
  });
});
