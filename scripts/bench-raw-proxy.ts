// A second floor for the gateway figures: the same proxy hop as bench-bare-proxy.ts without any
// framework (node:http server, undici pool to the service, the answer's body and type copied
// back). What a proxy hop costs on this machine when nothing but Node and undici are in it. Run
// as its own process by bench-gateway.ts: `node scripts/bench-raw-proxy.ts <port> <upstream>`.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT } from '@hs/testing';

// The undici version the gateway uses.
const fromGateway = createRequire(join(REPO_ROOT, 'services', 'gateway', 'package.json'));
const { Pool } = (await import(fromGateway.resolve('undici'))) as typeof import('undici');

const [port, upstream] = process.argv.slice(2);
const pool = new Pool(upstream!, { connections: 32 });
const FORWARDED = ['x-internal-token', 'x-user-id', 'x-user-email', 'x-member-role'];

createServer((req, res) => {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  pool
    .request({ method: 'GET', path: req.url ?? '/', headers })
    .then(async (answer) => {
      const body = Buffer.from(await answer.body.arrayBuffer());
      const type = answer.headers['content-type'];
      res.writeHead(answer.statusCode, {
        ...(typeof type === 'string' ? { 'content-type': type } : {}),
        'content-length': body.length,
      });
      res.end(body);
    })
    .catch(() => {
      res.writeHead(502).end();
    });
}).listen(Number(port), '127.0.0.1');
