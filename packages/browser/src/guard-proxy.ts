// A forward proxy on loopback that every request of a local Chromium goes through
// (`--proxy-server`, with `<-loopback>` so not even localhost bypasses it). It resolves each
// name itself, asks the address guard, and connects to the very address it checked: no
// navigation, redirect, subresource, WebSocket or service worker reaches a private address, and
// a name cannot resolve differently between the check and the connection.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { nodeHttp } from '@hs/service-kit';
import type { AddressGuard } from './address-guard.ts';

const { createServer, request: httpRequest } = nodeHttp;

/** Header on the proxy's refusal, so a page's response says it was the guard, not the site. */
export const BLOCKED_HEADER = 'x-hs-blocked';

export type BlockedRequest = { host: string; port: number; reason: string };

export type GuardProxy = { url: string; close(): Promise<void> };

const HOP_HEADERS = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive'];

export async function startGuardProxy(
  guard: AddressGuard,
  onBlocked: (blocked: BlockedRequest) => void = () => {},
): Promise<GuardProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => void forward(req, res));
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function forward(req: IncomingMessage, res: ServerResponse) {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (target.protocol !== 'http:') {
      res.writeHead(400).end();
      return;
    }
    const port = Number(target.port || 80);
    const verdict = await guard.check(target.hostname, port);
    if (!verdict.ok) {
      onBlocked({ host: target.hostname, port, reason: verdict.reason });
      res.writeHead(403, { 'content-type': 'text/plain', [BLOCKED_HEADER]: verdict.reason });
      res.end(`Blocked: ${verdict.reason}`);
      return;
    }
    const headers = { ...req.headers };
    for (const h of HOP_HEADERS) delete headers[h];
    const upstream = httpRequest(
      { host: verdict.address, port, method: req.method, path: target.pathname + target.search, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(upstream);
  }

  server.on('connect', async (req: IncomingMessage, client: Socket, head: Buffer) => {
    client.on('error', () => {});
    const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? '');
    if (!match) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const host = match[1]!;
    const port = Number(match[2]);
    const verdict = await guard.check(host, port);
    if (!verdict.ok) {
      onBlocked({ host: host.replace(/^\[|\]$/g, ''), port, reason: verdict.reason });
      client.end(`HTTP/1.1 403 Forbidden\r\n${BLOCKED_HEADER}: ${verdict.reason}\r\n\r\n`);
      return;
    }
    const upstream = connect(port, verdict.address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
