import { CALLER_HEADERS } from '@hs/contracts';
import { internalTokenOf, secretsEqual, unauthorized } from '@hs/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessTokens, Identity } from '../adapters/access-tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user; set on every bearer-protected route. */
    user: Identity | null;
  }
}

// The scheme is case-insensitive (RFC 9110 section 11.1).
const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/i;

/**
 * Every `/api/v1` route of the gateway needs a valid bearer token unless it is marked public
 * (login, signed uploads, internal callbacks with their own token, the voice socket).
 * Identity headers are dropped unless the caller holds the gateway's own internal token (a peer
 * acting for a user on an internal route, e.g. the stylist agent): a client can't forge them.
 */
export function registerAuthentication(
  app: FastifyInstance,
  tokens: AccessTokens,
  internalToken: string,
): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    if (!secretsEqual(internalTokenOf(request), internalToken))
      for (const header of Object.values(CALLER_HEADERS)) delete request.headers[header];
    // Decided by the matched route, not the raw URL: an absolute-form request line
    // (`GET http://host/api/v1/...`) reaches the same handler without starting with /api/v1.
    // Unknown routes fall through to the 404 handler whatever the credentials.
    const route = request.routeOptions.url;
    if (!route?.startsWith('/api/v1') || request.routeOptions.config?.public) return;
    request.user = await bearerIdentity(request, tokens);
  });
}

/** The user a request's bearer token names; 401 when it is missing, malformed or invalid. */
export async function bearerIdentity(request: FastifyRequest, tokens: AccessTokens): Promise<Identity> {
  const match = BEARER.exec(request.headers.authorization ?? '');
  if (!match?.[1]) throw unauthorized('Missing or malformed bearer token');
  return tokens.verify(match[1]);
}

export function currentUser(request: FastifyRequest): Identity {
  if (!request.user) throw unauthorized('Missing or malformed bearer token');
  return request.user;
}
