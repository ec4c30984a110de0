import { randomBytes } from 'node:crypto';
import { BrowserSession, HouseholdBrowserSessionParams } from '@hs/contracts';
import { endClientClosed, errorResponses, isAppError, type ServiceApp } from '@hs/service-kit';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { LiveView } from '../flows/live-view.ts';
import type { SessionFlows } from '../flows/session-flows.ts';
import { livePageHtml } from './live-page.ts';

const H = '/api/v1/households/:id/browser/sessions/:sessionId/live';
const tags = ['live view'];
const TokenQuery = z.object({ token: z.string().max(2048).optional() });
const LiveInputBody = z.discriminatedUnion('type', [
  z.object({ type: z.literal('click'), x: z.number().min(0).max(10_000), y: z.number().min(0).max(10_000) }),
  z.object({ type: z.literal('key'), key: z.string().min(1).max(32) }),
  z.object({ type: z.literal('text'), text: z.string().min(1).max(256) }),
  z.object({ type: z.literal('scroll'), deltaY: z.number().min(-10_000).max(10_000) }),
]);
const STATUS_EVERY_MS = 2000;
const KEEP_ALIVE_MS = 15_000;
/** How soon a member removed or demoted while watching stops receiving frames. */
const HOLDER_CHECK_EVERY_MS = 10_000;
/** Every live view route: who is refused, and what a gateway out of reach means. */
const REFUSALS =
  '403 FORBIDDEN for a token that is invalid or expired, or whose member has since left the household or become a CHILD (asked of the gateway on each use; 502 UPSTREAM_ERROR or 504 UPSTREAM_TIMEOUT when it cannot answer).';

/**
 * The live view (local provider), reached through the gateway without a bearer token: a plain
 * browser tab opens the link, so the `token` in the query (from a session read, 5 minutes) is
 * the credential.
 */
export function registerLiveViewRoutes(app: ServiceApp, live: LiveView, flows: SessionFlows): void {
  const params = HouseholdBrowserSessionParams;
  // Open streams end at once on shutdown (clients reconnect elsewhere).
  const streams = new Set<{ end(): void }>();
  app.addHook('onClose', async () => {
    for (const s of streams) s.end();
  });
  const grant = (request: {
    id: string;
    params: { id: string; sessionId: string };
    query: { token?: string | undefined };
  }) => live.authorize(request.params.id, request.params.sessionId, request.query.token, request.id);

  app.get(
    H,
    {
      config: { public: true },
      schema: {
        tags,
        params,
        querystring: TokenQuery,
        description: `The live view page (HTML). ${REFUSALS}`,
        response: { 200: z.string(), ...errorResponses(403, 502, 504) },
      },
    },
    async (request, reply) => {
      await grant(request);
      const nonce = randomBytes(16).toString('base64');
      return reply
        .type('text/html; charset=utf-8')
        .header(
          'content-security-policy',
          `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'`,
        )
        .header('cache-control', 'no-store')
        .send(livePageHtml(nonce, request.query.token ?? ''));
    },
  );

  app.get(
    `${H}/frames`,
    {
      config: { public: true },
      schema: {
        tags,
        params,
        querystring: TokenQuery,
        description: `Screencast frames as SSE (\`frame\` events: {data (base64 JPEG), width, height}; \`status\` events). An open stream ends within 10 s of its member leaving the household or becoming a CHILD. ${REFUSALS}`,
        response: errorResponses(403, 404, 409, 502, 504),
      },
    },
    async (request, reply) => {
      const { sessionId } = request.params;
      const held = await grant(request);
      await live.status(sessionId);
      // HEAD (answered by this GET route) asks for the headers alone: no screencast, and no stream
      // that never ends.
      // (The route's reply type names only its error bodies; a HEAD answer has none.)
      if (request.method === 'HEAD')
        return (reply as FastifyReply).type('text/event-stream').header('cache-control', 'no-store').send();
      const raw = reply.raw;
      const send = (event: string, data: unknown) =>
        raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      const stop = await live.screencast(sessionId, (frame) => send('frame', frame));
      reply.hijack();
      // Everything started for this stream is undone on close, set up before anything else can
      // wait: a client gone (or a store failing) while a step awaited left the timers running.
      const timers: NodeJS.Timeout[] = [];
      const end = () => {
        for (const timer of timers) clearInterval(timer);
        streams.delete(raw);
        void stop();
      };
      if (raw.destroyed) {
        // Gone while the screencast started: its request line says so (nothing else would).
        endClientClosed(request, reply);
        return end();
      }
      raw.on('close', end);
      streams.add(raw);
      raw.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      raw.write('retry: 2000\n\n');
      const status = async () => {
        const now = await live.status(sessionId).catch(() => 'TERMINATED');
        send('status', { status: now });
        if (now === 'TERMINATED' || now === 'FAILED') raw.end();
      };
      timers.push(
        setInterval(status, STATUS_EVERY_MS),
        setInterval(() => raw.write(': keep-alive\n\n'), KEEP_ALIVE_MS),
        // The gateway out of reach is no reason to blank a family's screen: only a clear "no"
        // (the member gone or a CHILD now, the household gone) ends it.
        setInterval(async () => {
          if (!(await live.stillHeld(held).catch((err) => !(isAppError(err) && err.status === 404))))
            raw.end(': live view link withdrawn\n\n');
        }, HOLDER_CHECK_EVERY_MS),
      );
      await status();
    },
  );

  app.post(
    `${H}/input`,
    {
      config: { public: true },
      schema: {
        tags,
        params,
        querystring: TokenQuery,
        body: LiveInputBody,
        description: `The user's click, key, text or scroll, sent to the page. 409 INVALID_STATE unless the session is USER_TAKEOVER. ${REFUSALS}`,
        response: { 200: z.object({ ok: z.literal(true) }), ...errorResponses(403, 404, 409, 422, 502, 504) },
      },
    },
    async (request) => {
      await grant(request);
      await live.input(request.params.sessionId, request.body);
      return { ok: true as const };
    },
  );

  for (const name of ['takeover', 'release'] as const)
    app.post(
      `${H}/${name}`,
      {
        config: { public: true },
        schema: {
          tags,
          params,
          querystring: TokenQuery,
          description: `The live view's ${name} button (same as the session's ${name}). ${REFUSALS}`,
          response: { 200: BrowserSession, ...errorResponses(403, 404, 409, 502, 504) },
        },
      },
      async (request) => {
        const g = await grant(request);
        return flows[name](request.params.sessionId, g.userId || null, request.id);
      },
    );
}
