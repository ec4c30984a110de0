// The floor for the gateway figures: a bare Fastify route that sends each request on to the
// service with undici and returns the answer, nothing else (no auth, no logs, no hooks). Run as
// its own process by bench-gateway.ts: `node scripts/bench-bare-proxy.ts <port> <upstream>`.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT } from '@hs/testing';

// Resolved as the gateway resolves them: the same Fastify and undici versions.
const fromGateway = createRequire(join(REPO_ROOT, 'services', 'gateway', 'package.json'));
// Only the little of Fastify used here (the root workspace does not depend on it).
type Reply = {
  header(name: string, value: string): Reply;
  code(status: number): Reply;
  send(body: Buffer): Reply;
};
type Request = { url: string; headers: Record<string, string | string[] | undefined> };
type App = {
  get(path: string, handler: (request: Request, reply: Reply) => Promise<unknown>): void;
  listen(options: { port: number; host: string }): Promise<string>;
};
const Fastify = (await import(fromGateway.resolve('fastify'))).default as (options: {
  logger: boolean;
}) => App;
const { request } = (await import(fromGateway.resolve('undici'))) as typeof import('undici');

const [port, upstream] = process.argv.slice(2);
const app = Fastify({ logger: false });
const FORWARDED = ['x-internal-token', 'x-user-id', 'x-user-email', 'x-member-role'];
app.get('/*', async (req, reply) => {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const answer = await request(`${upstream}${req.url}`, { headers });
  const body = Buffer.from(await answer.body.arrayBuffer());
  const type = answer.headers['content-type'];
  if (typeof type === 'string') reply.header('content-type', type);
  return reply.code(answer.statusCode).send(body);
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
