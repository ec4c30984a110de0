import type { Role } from '@hs/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, forbidden } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Roles that may call the route; anyone else gets 403 `rolesMessage` before the body is read. */
    roles?: readonly Role[];
    rolesMessage?: string;
    /**
     * A route's own credential check (a callback token, a signature over headers) that must run
     * before the body is read; it throws the 401/403 itself.
     */
    guard?: (request: FastifyRequest) => void | Promise<void>;
    /** Runs when membership or role refuses the caller (403), before the refusal is sent: e.g. to audit it. */
    onRefused?: (request: FastifyRequest, refusal: AppError) => Promise<void>;
  }
}

export interface RouteAccessPolicy {
  /**
   * The caller's role on this request, or null when there is none. It may throw 401/403/404 itself
   * (the gateway checks household existence and membership here). Asked on every non-public
   * `/api/v1/households/:id...` route and on every route that declares `roles`.
   */
  roleOf(request: FastifyRequest): Role | null | Promise<Role | null>;
  /** Calls made for no member (a service's own call with its token) skip membership and roles. */
  exempt?(request: FastifyRequest): boolean;
}

const HOUSEHOLD_ROUTE = '/api/v1/households/:id';
const DEFAULT_ROLES_MESSAGE = 'Your role in this household may not do this';

/**
 * The order of checks as a property of every service (decisions, Conventions): authentication
 * (the hooks registered before this one), then the route's guard, membership and role, all in
 * `onRequest`, so they answer 401/403/404 before the body is read and long before its size (413),
 * syntax (400) or schema (422) is looked at. Routes declare what they need in their `config`
 * (`public`, `roles`, `guard`); handlers don't repeat it. Register after the authentication hook.
 */
export function registerRouteAccess(app: FastifyInstance, policy: RouteAccessPolicy): void {
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url;
    if (!route?.startsWith('/api/v1')) return;
    const config = request.routeOptions.config;
    if (config.guard) await config.guard(request);
    if (config.public) return;
    const householdScoped = route === HOUSEHOLD_ROUTE || route.startsWith(`${HOUSEHOLD_ROUTE}/`);
    if ((!householdScoped && !config.roles) || policy.exempt?.(request)) return;
    try {
      const role = await policy.roleOf(request);
      if (config.roles && (!role || !config.roles.includes(role)))
        throw forbidden(config.rolesMessage ?? DEFAULT_ROLES_MESSAGE);
    } catch (err) {
      if (config.onRefused && err instanceof AppError && err.status === 403)
        await config.onRefused(request, err);
      throw err;
    }
  });
}

/**
 * What the OpenAPI document says about a route's access, for clients and tests: `x-public` (no
 * credential checked before the body: signed URLs, signed bodies, login) and `x-roles`.
 */
export function accessExtensions(config: {
  public?: boolean;
  roles?: readonly Role[];
  guard?: unknown;
}): Record<string, unknown> {
  return {
    ...(config.public && !config.guard ? { 'x-public': true } : {}),
    ...(config.roles ? { 'x-roles': [...config.roles] } : {}),
  };
}
