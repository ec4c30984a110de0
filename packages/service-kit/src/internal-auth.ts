import { createHash, timingSafeEqual } from 'node:crypto';
import { CALLER_HEADERS, Role } from '@hs/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';
import { registerRouteAccess } from './route-access.ts';

/** Constant-time equality of two secrets, whatever their lengths. */
export function secretsEqual(provided: string | undefined, expected: string): boolean {
  if (typeof provided !== 'string' || provided.length === 0) return false;
  const a = createHash('sha256').update(provided).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export const INTERNAL_TOKEN_HEADER = 'x-internal-token';

export type Caller = { userId: string; role: Role | null; email: string | null };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Route reachable without the internal token (signed upload URLs, signed webhooks, health). */
    public?: boolean;
  }
  interface FastifyRequest {
    /** The end user on whose behalf the gateway called; null for service-to-service calls. */
    caller: Caller | null;
  }
}

export function internalTokenOf(request: FastifyRequest): string | undefined {
  const value = request.headers[INTERNAL_TOKEN_HEADER];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Every `/api/v1` route of a service behind the gateway requires `X-Internal-Token` equal to
 * this service's own token; the caller identity headers are trusted only after that check.
 */
export function registerInternalAuth(
  app: FastifyInstance,
  options: { token: string; message?: string; required?: boolean },
): void {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request) => {
    // Decided by the matched route, not the raw URL: an absolute-form request line
    // (`GET http://host/api/v1/...`) reaches the same handler without starting with /api/v1.
    const route = request.routeOptions.url;
    if (!route?.startsWith('/api/v1') || request.routeOptions.config?.public) return;
    const trusted = secretsEqual(internalTokenOf(request), options.token);
    if (!trusted && options.required !== false)
      throw new AppError('FORBIDDEN', 403, options.message ?? 'Missing or invalid internal token');
    // Identity headers are believed only from a holder of the token, even where it is optional.
    if (!trusted) return;
    const userId = request.headers[CALLER_HEADERS.userId];
    if (typeof userId === 'string' && userId) {
      const role = Role.safeParse(request.headers[CALLER_HEADERS.role]);
      const email = request.headers[CALLER_HEADERS.email];
      request.caller = {
        userId,
        role: role.success ? role.data : null,
        email: typeof email === 'string' ? email : null,
      };
    }
  });
  // Household membership was checked by the gateway; a route's declared roles are checked here.
  registerRouteAccess(app, {
    roleOf: (request) => request.caller?.role ?? null,
    exempt: (request) => request.caller === null,
  });
}

/** The caller identity a user-facing route needs; a missing one is a gateway bug or a direct call. */
export function requireCaller(request: FastifyRequest): Caller {
  if (!request.caller) throw new AppError('UNAUTHORIZED', 401, 'Caller identity is missing');
  return request.caller;
}
