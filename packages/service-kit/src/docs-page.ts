import type { StaticDocumentSpec } from '@fastify/swagger';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Headers that belong to the inner exchange, not to the reply this app sends. */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/**
 * /docs, the swagger-ui page, built on its first visit: swagger-ui and the static-file server
 * under it cost every process about 80 ms of CPU at boot, for a page few visits reach. The page
 * lives in a small Fastify instance of its own (swagger-ui over this app's finished document),
 * and /docs and /docs/* hand each request to it. Its files are read whole, once: the page's
 * answers to plain GETs of a file's plain name are kept and shared, so a crowd of slow clients
 * asking for the 1.6 MB bundle holds one copy of it, not one each (conditional and range
 * requests, and any other spelling of a name, still go through).
 */
type Answer = { statusCode: number; headers: Record<string, string | string[]>; payload: Buffer };
/** The page has about a dozen files; anything past this many kept answers is read each time. */
const KEPT_ANSWERS = 32;
const CANONICAL = /^\/docs(?:\/[A-Za-z0-9._-]+)*\/?$/;
const CONDITIONAL = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'range'];

export function registerDocsPage(
  app: FastifyInstance,
  ui: Omit<FastifySwaggerUiOptions, 'routePrefix'>,
): void {
  let page: Promise<FastifyInstance> | undefined;
  const kept = new Map<string, Answer>();
  const build = async () => {
    const [{ default: Fastify }, { default: swagger }, { default: swaggerUi }] = await Promise.all([
      import('fastify'),
      import('@fastify/swagger'),
      import('@fastify/swagger-ui'),
    ]);
    const inner = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
    // Routes are fixed once the app is ready, so the document is too.
    const document = app.swagger() as StaticDocumentSpec['document'];
    await inner.register(swagger, { mode: 'static', specification: { document } });
    await inner.register(swaggerUi, { ...ui, routePrefix: '/docs' });
    await inner.ready();
    return inner;
  };
  const answer = async (request: FastifyRequest): Promise<Answer> => {
    // Only a file's one plain name is kept: a query string or a percent-escape would let anyone
    // keep copies of the bundle under as many names.
    const plain =
      CANONICAL.test(request.url) && !CONDITIONAL.some((name) => request.headers[name] !== undefined);
    const known = plain ? kept.get(request.url) : undefined;
    if (known) return known;
    page ??= build().catch((err: unknown) => {
      page = undefined;
      throw err;
    });
    const inner = await page;
    // HEAD asks for GET's headers: Fastify's own HEAD handling then sends them without the body.
    const res = await inner.inject({ method: 'GET', url: request.url, headers: request.headers });
    const headers: Answer['headers'] = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value as string | string[];
    }
    const fresh = { statusCode: res.statusCode, headers, payload: res.rawPayload };
    if (plain && res.statusCode === 200 && kept.size < KEPT_ANSWERS) kept.set(request.url, fresh);
    return fresh;
  };
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const res = await answer(request);
    // A path the page does not have is this app's 404 (the error envelope), and a failure in
    // the page goes to this app's error handler and log.
    if (res.statusCode === 404) return reply.callNotFound();
    if (res.statusCode >= 500)
      throw new Error(`the docs page failed: ${res.statusCode} ${res.payload.subarray(0, 200).toString()}`);
    reply.headers(res.headers).code(res.statusCode);
    // A 304 or a redirect has no body (and so no content length or type of its own).
    return res.payload.length > 0 ? reply.send(res.payload) : reply.send();
  };
  const route = { schema: { hide: true }, config: { public: true } };
  app.get('/docs', route, serve);
  app.get('/docs/*', route, serve);
}
