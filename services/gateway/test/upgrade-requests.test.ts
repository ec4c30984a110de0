// A request asking to upgrade to a WebSocket anywhere but the voice socket: answered 400 and its
// connection ended, instead of answered and then held open past every timeout.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, type GatewayApp } from './gateway-harness.ts';

let gateway: GatewayApp;
let port = 0;

beforeAll(async () => {
  gateway = await buildGateway({});
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  port = (gateway.server.address() as { port: number }).port;
});
afterAll(async () => {
  await gateway.close();
});

/** Sends one raw request; resolves with what came back and whether the server ended the connection. */
function exchange(head: string, body = ''): Promise<{ text: string; ended: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, ended: false });
    }, 3000);
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, ended: true });
    });
    socket.on('error', () => {});
    socket.write(`${head}\r\n\r\n${body}`);
  });
}

describe('Upgrade on a path that is not the voice socket', () => {
  it('is 400 in the error envelope, and the connection ends', async () => {
    const { text, ended } = await exchange(
      'GET /health HTTP/1.1\r\nhost: x\r\nconnection: upgrade\r\nupgrade: websocket',
    );
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toContain('"error":"BAD_REQUEST"');
    expect(text).toContain('Only /api/v1/voice/ws upgrades to a WebSocket');
    expect(ended).toBe(true);
  });

  it('is 400 for a body sent with one too, rather than a body silently lost', async () => {
    const body = JSON.stringify({ name: 'Home' });
    const { text, ended } = await exchange(
      `POST /api/v1/households HTTP/1.1\r\nhost: x\r\nconnection: upgrade\r\nupgrade: websocket\r\ncontent-type: application/json\r\ncontent-length: ${body.length}`,
      body,
    );
    expect(text).toMatch(/^HTTP\/1\.1 (400|401) /);
    expect(ended).toBe(true);
  });

  it('leaves plain requests on kept-alive connections alone', async () => {
    const { text, ended } = await exchange('GET /health HTTP/1.1\r\nhost: x');
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(ended).toBe(false);
  });
});
