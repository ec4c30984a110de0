import type { FastifyInstance } from 'fastify';

/** Response fields that are credentials: a reply carrying one must never be cached. */
const TOKEN_FIELD = /"(accessToken|refreshToken|sessionToken|streamToken|confirmationToken|uploadUrl)"\s*:/;

/**
 * Security headers on every reply (decisions "Public URLs, browsers and proxies"): no sniffing,
 * no referrer; JSON may not be framed or run anything; images may be embedded by other origins
 * (Cross-Origin-Resource-Policy). /docs keeps the policy the docs page sets for what it loads,
 * and a page that sets its own policy (a live view) keeps it. A reply carrying a token gets
 * Cache-Control: no-store so no browser or proxy keeps it.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    if (request.url.startsWith('/docs')) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!reply.hasHeader('x-frame-options')) reply.header('x-frame-options', 'DENY');
    if (type.startsWith('application/json') && !reply.hasHeader('content-security-policy'))
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    if (!reply.hasHeader('cross-origin-resource-policy'))
      reply.header(
        'cross-origin-resource-policy',
        type.startsWith('image/') ? 'cross-origin' : 'same-origin',
      );
    if (typeof payload === 'string' && TOKEN_FIELD.test(payload)) reply.header('cache-control', 'no-store');
    return payload;
  });
}
