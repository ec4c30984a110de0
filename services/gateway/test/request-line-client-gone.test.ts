// The gateway and the orchestrator behind it each write one request line per request, under the
// same request id, also when the client leaves first: a mission stream it closes, a chat it does
// not wait for; and the gateway writes one for each voice WebSocket, accepted or refused.
import http from 'node:http';
import { Writable } from 'node:stream';
import { serviceScope } from '@hs/service-kit';
import { createStore } from '@hs/store';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { buildApp as buildOrchestrator } from '../../orchestrator/src/app.ts';
import { testConfig } from '../../orchestrator/test/fixtures/build.ts';
import { type FakePeers, startFakePeers } from '../../orchestrator/test/fixtures/fake-peers.ts';
import { buildApp } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { bearer, type GatewayApp, withHousehold } from './gateway-harness.ts';

/** Every line a service logs: its raw text (to see duplicate keys) and its parsed fields. */
function logSink() {
  const raw: string[] = [];
  const parsed: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        raw.push(line);
        parsed.push(JSON.parse(line));
      }
      done();
    },
  });
  const requestLines = (id: string) => parsed.filter((l) => l.reqId === id && l.msg === 'request');
  return { raw, parsed, stream, requestLines };
}

const gatewayLog = logSink();
const orchestratorLog = logSink();
let peers: FakePeers;
let orchestrator: Awaited<ReturnType<typeof buildOrchestrator>>;
let gateway: GatewayApp;
let port = 0;
let user: { token: string; userId: string; householdId: string };
let missionId = '';
const CHAT_DELAY_MS = 400;

beforeAll(async () => {
  peers = await startFakePeers();
  orchestrator = await buildOrchestrator({
    background: false,
    config: testConfig(peers.url, { ORCHESTRATOR_SSE_HEARTBEAT_SECONDS: '0.2' }),
    store: createStore({ backend: 'inmemory' }),
    logger: pino({ level: 'info', base: { service: 'orchestrator' } }, orchestratorLog.stream),
  });
  // A chat turn that takes a while: its client (the gateway) may leave before the answer.
  orchestrator.addHook('preHandler', async (request) => {
    if (request.method === 'POST' && request.url.endsWith('/chat'))
      await new Promise((resolve) => setTimeout(resolve, CHAT_DELAY_MS));
  });
  await orchestrator.listen({ host: '127.0.0.1', port: 0 });
  const orchestratorPort = (orchestrator.server.address() as { port: number }).port;
  // Its own metrics registry, apart from the orchestrator's in this same process.
  gateway = await serviceScope.run('gateway', () =>
    buildApp({
      config: loadGatewayConfig({
        APP_ENV: 'test',
        ARTIFACTS_AUDIT_BASE_URL: 'http://127.0.0.1:9',
        WARDROBE_BASE_URL: 'http://127.0.0.1:9',
        COMMERCE_BASE_URL: 'http://127.0.0.1:9',
        ORCHESTRATOR_BASE_URL: `http://127.0.0.1:${orchestratorPort}`,
        VOICE_RATE_LIMIT_PER_MINUTE: '1000',
      }),
      store: createStore({ backend: 'inmemory' }),
      logger: pino({ level: 'info', base: { service: 'gateway' } }, gatewayLog.stream),
      background: false,
    }),
  );
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  port = (gateway.server.address() as { port: number }).port;
  user = await withHousehold(gateway, 'request-line-owner@x.test');
  const created = await gateway.inject({
    method: 'POST',
    url: `/api/v1/households/${user.householdId}/orchestrator/missions`,
    headers: bearer(user.token),
    payload: { mission_type: 'STYLE', initial_message: 'summer tops under 80' },
  });
  expect(created.statusCode).toBe(201);
  missionId = created.json().mission_id;
});
afterAll(async () => {
  await gateway.close();
  await orchestrator.close();
  await peers.close();
});

const missionPath = () => `/api/v1/households/${user.householdId}/orchestrator/missions/${missionId}`;

describe('a mission stream the client closes', () => {
  it('is one line on the gateway and one on the orchestrator, same id, 200 and clientClosed', async () => {
    const id = 'stream-closed-by-client-1';
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.get({
        host: '127.0.0.1',
        port,
        path: `${missionPath()}/stream`,
        agent: false,
        headers: { ...bearer(user.token), accept: 'text/event-stream', 'x-request-id': id },
      });
      req.on('error', () => undefined);
      req.on('response', (res) => {
        res.once('data', () => {
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
      });
      setTimeout(() => reject(new Error('no stream')), 5000);
    });
    expect(status).toBe(200);
    for (const log of [gatewayLog, orchestratorLog]) {
      await vi.waitFor(() => expect(log.requestLines(id)).toHaveLength(1), { timeout: 5000 });
      expect(log.requestLines(id)[0]).toMatchObject({
        method: 'GET',
        url: `${missionPath()}/stream`,
        route: '/api/v1/households/:id/orchestrator/missions/:mId/stream',
        statusCode: 200,
        clientClosed: true,
        durationMs: expect.any(Number),
      });
    }
    const metrics = await gateway.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-internal-token': gateway.ctx.config.internalToken },
    });
    expect(metrics.body).toMatch(
      /http_requests_total\{method="GET",route="\/api\/v1\/households\/:id\/orchestrator\/missions\/:mId\/stream",status="200"\} 1\n/,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(gatewayLog.requestLines(id)).toHaveLength(1);
    expect(orchestratorLog.requestLines(id)).toHaveLength(1);
  });
});

describe('a chat the client does not wait for', () => {
  it('is one line on each side: the gateway’s says the client left, the orchestrator’s has the turn’s answer', async () => {
    const id = 'chat-left-early-1';
    const abort = new AbortController();
    const call = fetch(`http://127.0.0.1:${port}${missionPath()}/chat`, {
      method: 'POST',
      headers: { ...bearer(user.token), 'content-type': 'application/json', 'x-request-id': id },
      body: JSON.stringify({ message: 'and something in blue' }),
      signal: abort.signal,
    });
    setTimeout(() => abort.abort(), 150);
    await expect(call).rejects.toThrow();
    await vi.waitFor(() => expect(gatewayLog.requestLines(id)).toHaveLength(1), { timeout: 5000 });
    const gatewayLine = gatewayLog.requestLines(id)[0]!;
    expect(gatewayLine).toMatchObject({
      service: 'gateway',
      method: 'POST',
      route: '/api/v1/households/:id/orchestrator/*',
      statusCode: 499,
      clientClosed: true,
      peer: 'orchestrator',
      durationMs: expect.any(Number),
    });
    // Every line of this request names its service once: the gateway's.
    for (const line of gatewayLog.raw.filter((l) => l.includes(`"reqId":"${id}"`)))
      expect(line.match(/"service":/g)).toHaveLength(1);
    await vi.waitFor(() => expect(orchestratorLog.requestLines(id)).toHaveLength(1), { timeout: 10_000 });
    const orchestratorLine = orchestratorLog.requestLines(id)[0]!;
    expect(orchestratorLine).toMatchObject({
      service: 'orchestrator',
      method: 'POST',
      route: '/api/v1/households/:id/orchestrator/missions/:mId/chat',
      statusCode: 200,
      clientClosed: true,
    });
    expect(orchestratorLine.durationMs).toBeGreaterThanOrEqual(CHAT_DELAY_MS - 50);
  }, 15_000);
});

describe('the voice WebSocket', () => {
  async function closeOf(ws: WebSocket): Promise<number> {
    return new Promise((resolve) => ws.on('close', (code) => resolve(code)));
  }

  /** A voice session of the owner's, and its socket open under request id `id`. */
  async function openVoiceSocket(id: string) {
    const session = await gateway.inject({
      method: 'POST',
      url: `${missionPath()}/voice-session`,
      headers: bearer(user.token),
    });
    expect(session.statusCode).toBe(200);
    const ws = new WebSocket(
      `ws://127.0.0.1:${port}/api/v1/voice/ws?token=${encodeURIComponent(session.json().sessionToken)}`,
      { headers: { 'x-request-id': id } },
    );
    ws.on('error', () => undefined);
    const closed = closeOf(ws);
    await new Promise((resolve) => ws.once('open', resolve));
    return { ws, closed };
  }

  it('writes one line for a socket it refuses (4401), with the client’s request id', async () => {
    const id = 'voice-refused-1';
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/voice/ws?token=not-a-token`, {
      headers: { 'x-request-id': id },
    });
    ws.on('error', () => undefined);
    expect(await closeOf(ws)).toBe(4401);
    await vi.waitFor(() => expect(gatewayLog.requestLines(id)).toHaveLength(1), { timeout: 3000 });
    expect(gatewayLog.requestLines(id)[0]).toMatchObject({
      method: 'GET',
      url: '/api/v1/voice/ws',
      route: '/api/v1/voice/ws',
      statusCode: 101,
      wsCloseCode: 4401,
      durationMs: expect.any(Number),
    });
  });

  it('closes a socket sending a frame over 64 KiB with 1009, logged as the client’s fault (info, not error)', async () => {
    const id = 'voice-oversized-1';
    const { ws, closed } = await openVoiceSocket(id);
    ws.send('x'.repeat(70 * 1024));
    expect(await closed).toBe(1009);
    await vi.waitFor(() => expect(gatewayLog.requestLines(id)).toHaveLength(1), { timeout: 3000 });
    const lines = gatewayLog.parsed.filter((l) => l.reqId === id);
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 30, wsError: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' }),
    );
  });

  it('writes one line for a socket it accepted, when the socket closes', async () => {
    const id = 'voice-accepted-1';
    const { ws, closed } = await openVoiceSocket(id);
    // Open, and no line yet: the line is written when the socket ends.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ws.readyState).toBe(WebSocket.OPEN);
    expect(gatewayLog.requestLines(id)).toHaveLength(0);
    ws.close(1000);
    expect(await closed).toBe(1000);
    await vi.waitFor(() => expect(gatewayLog.requestLines(id)).toHaveLength(1), { timeout: 3000 });
    expect(gatewayLog.requestLines(id)[0]).toMatchObject({
      method: 'GET',
      route: '/api/v1/voice/ws',
      statusCode: 101,
      wsCloseCode: 1000,
    });
    expect(gatewayLog.requestLines(id)[0]!.durationMs).toBeGreaterThanOrEqual(250);
  });
});
