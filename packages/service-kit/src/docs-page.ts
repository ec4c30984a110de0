import type { StaticDocumentSpec } from '@fastify/swagger';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Headers that belong to the inner exchange, not to the reply this app sends. */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/**
 * /docs, the swagger-ui page, built on its first visit: swagger-ui and the static-file server
 * under it cost every process about 80 ms of CPU at boot, for a page few visits reach. The page
 * lives in a small Fastify instance of its own (swagger-ui over this app's finished document),
 * and /docs and /docs/* hand each request to it (its files are read whole: the page is for a
 * developer's browser, not for traffic).
 */
export function registerDocsPage(
  app: FastifyInstance,
  ui: Omit<FastifySwaggerUiOptions, 'routePrefix'>,
): void {
  let page: Promise<FastifyInstance> | undefined;
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
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    page ??= build().catch((err: unknown) => {
      page = undefined;
      throw err;
    });
    const inner = await page;
    // HEAD asks for GET's headers: Fastify's own HEAD handling then sends them without the body.
    const res = await inner.inject({ method: 'GET', url: request.url, headers: request.headers });
    // A path the page does not have is this app's 404 (the error envelope), and a failure in
    // the page goes to this app's error handler and log.
    if (res.statusCode === 404) return reply.callNotFound();
    if (res.statusCode >= 500)
      throw new Error(`the docs page failed: ${res.statusCode} ${res.body.slice(0, 200)}`);
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined && !HOP_HEADERS.has(name)) reply.header(name, value);
    }
    reply.code(res.statusCode);
    // A 304 or a redirect has no body (and so no content length or type of its own).
    return res.rawPayload.length > 0 ? reply.send(res.rawPayload) : reply.send();
  };
  const route = { schema: { hide: true }, config: { public: true } };
  app.get('/docs', route, serve);
  app.get('/docs/*', route, serve);
}
