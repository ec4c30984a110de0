import type { StaticDocumentSpec } from '@fastify/swagger';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Answer, answerFromKept } from './kept-answer.ts';

/** Headers that belong to the inner exchange, not to the reply this app sends. */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/**
 * The page has under twenty answers (its files, the document, the HTML), each under one name;
 * this is a backstop: past it, a new name's answer is shared by the requests that arrive while it
 * is read, but not kept.
 */
const KEPT_ANSWERS = 32;
/** A decoded name of something the page could have. */
const PAGE_NAME = /^[A-Za-z0-9._/-]*$/;

/**
 * The one name a request's path stands for: without the query string, percent-escapes decoded,
 * `.`, `..` and empty segments resolved (only /docs and /docs/ differ, as the HTML's relative
 * links do). Undefined for what the page cannot have. Keys the kept answers, so their number is
 * bounded by the page's files, not by the spellings a client can invent.
 */
function docsPageName(url: string): string | undefined {
  const query = url.indexOf('?');
  let path: string;
  try {
    path = decodeURIComponent(query === -1 ? url : url.slice(0, query));
  } catch {
    return undefined;
  }
  if (!PAGE_NAME.test(path)) return undefined;
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '' && segment !== '.') segments.push(segment);
  }
  if (segments[0] !== 'docs') return undefined;
  return segments.length === 1 && path.endsWith('/') ? '/docs/' : `/${segments.join('/')}`;
}

/**
 * /docs, the swagger-ui page, built on its first visit: swagger-ui and the static-file server
 * under it cost every process about 80 ms of CPU at boot, for a page few visits reach. The page
 * lives in a small Fastify instance of its own (swagger-ui over this app's finished document),
 * and /docs and /docs/* hand each request to it.
 *
 * Each of its files is read whole, once, and kept: every request for it (whatever its query
 * string, its spelling of the name, its Range or conditional headers) is answered from the one
 * kept buffer, so a crowd of slow clients asking for the 1.6 MB bundle holds one copy of it, not
 * one each. Visitors arriving together before a file is kept wait for the one read under way.
 */
export function registerDocsPage(
  app: FastifyInstance,
  ui: Omit<FastifySwaggerUiOptions, 'routePrefix'>,
): void {
  let page: Promise<FastifyInstance> | undefined;
  const kept = new Map<string, Answer>();
  const reading = new Map<string, Promise<Answer>>();
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
  const ask = async (name: string): Promise<Answer> => {
    page ??= build().catch((err: unknown) => {
      page = undefined;
      throw err;
    });
    const inner = await page;
    // A plain GET of the plain name: the whole answer, which then serves HEAD, Range and
    // conditional requests too (Fastify's HEAD handling sends GET's headers without the body).
    const res = await inner.inject({ method: 'GET', url: name });
    const headers: Answer['headers'] = {};
    for (const [header, value] of Object.entries(res.headers)) {
      if (value !== undefined && !HOP_HEADERS.has(header)) headers[header] = value as string | string[];
    }
    return { statusCode: res.statusCode, headers, payload: res.rawPayload };
  };
  const answer = (name: string): Promise<Answer> => {
    const known = kept.get(name);
    if (known) return Promise.resolve(known);
    let pending = reading.get(name);
    if (!pending) {
      pending = ask(name)
        .then((fresh) => {
          // Misses are not kept: anyone can ask for as many names the page lacks as they like.
          if (fresh.statusCode < 400 && kept.size < KEPT_ANSWERS) kept.set(name, fresh);
          return fresh;
        })
        .finally(() => reading.delete(name));
      reading.set(name, pending);
    }
    return pending;
  };
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const name = docsPageName(request.url);
    if (name === undefined) return reply.callNotFound();
    const res = answerFromKept(await answer(name), request.headers);
    // A path the page does not have is this app's 404 (the error envelope), and a failure in
    // the page goes to this app's error handler and log.
    if (res.statusCode === 404) return reply.callNotFound();
    if (res.statusCode >= 500)
      throw new Error(`the docs page failed: ${res.statusCode} ${res.payload.subarray(0, 200).toString()}`);
    reply.headers(res.headers).code(res.statusCode);
    // A 304, 412, 416 or a redirect has no body (and so no content length or type of its own).
    return res.payload.length > 0 ? reply.send(res.payload) : reply.send();
  };
  const route = { schema: { hide: true }, config: { public: true } };
  app.get('/docs', route, serve);
  app.get('/docs/*', route, serve);
}
