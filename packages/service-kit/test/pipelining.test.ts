import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';
import { MAX_IN_FLIGHT_PER_CONNECTION, MAX_QUEUED_PER_CONNECTION } from '../src/pipelining.ts';

let app: ServiceApp;
let port: number;
beforeAll(async () => {
  app = await createServiceApp({ service: 'gateway', description: 'test' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => app.close());

/** Writes `count` pipelined GET /health at once, reads every answer, and says what came back. */
function pipeline(count: number, thenOneMore = false): Promise<{ ok: number; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let settled = false;
    const ok = () => received.match(/HTTP\/1\.1 200 /g)?.length ?? 0;
    const finish = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve({ ok: ok(), closedByServer });
    };
    socket.on('connect', () => socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(count)));
    socket.on('data', (chunk) => {
      received += chunk.toString();
      if (ok() === count && thenOneMore) {
        thenOneMore = false;
        count++;
        socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      } else if (ok() === count) finish(false);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
  });
}

describe('HTTP/1.1 pipelining', () => {
  it('answers a client that pipelines a few requests, in order, and keeps its connection', async () => {
    expect(await pipeline(20, true)).toEqual({ ok: 21, closedByServer: false });
  });

  it('closes a connection that pipelines a flood instead of running every request it holds at once', async () => {
    // 2,000 GETs in one write: Node parses all a read holds (64 KB, about 1,800 of them) at once.
    const { ok, closedByServer } = await pipeline(2000);
    expect(closedByServer).toBe(true);
    expect(ok).toBeLessThanOrEqual(MAX_IN_FLIGHT_PER_CONNECTION + MAX_QUEUED_PER_CONNECTION);
    // The server is still there for everyone else.
    expect((await app.inject('/health')).statusCode).toBe(200);
  });
});
