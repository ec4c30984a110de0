import { notFound, type ServiceApp } from '@hs/service-kit';
import type { FastifyRequest, RouteOptions } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { accessHousehold } from './household-access.ts';

type Params = { id: string; requestId?: string; memberId?: string };
type Existence = (request: FastifyRequest) => Promise<void>;

const H = '/api/v1/households/:id';
const REQUEST_ACTION = `${H}/requests/:requestId/`;

/**
 * The order of checks (decisions, Conventions): authentication, membership and role, then the
 * resource's existence (404), and only then the body (413, 400, 422, then state 409). Membership
 * runs in the route-access hook; this adds, for the routes that take a body and name a resource
 * under the household, a route-level `onRequest` check that the resource is there, so an action
 * on a purchase request or member that does not exist is 404 whatever its body. Registered before
 * the routes and before the rate limits, whose hooks then follow it (404 before 429).
 */
export function registerResourceExistence(app: ServiceApp, ctx: GatewayContext): void {
  const household = async (request: FastifyRequest, id: string) => {
    // Public routes (the buy-flow callbacks) had no membership check to find the household.
    if (request.routeOptions.config.public) {
      if (!(await ctx.households.getRecent(id))) throw notFound('Household not found');
      return null;
    }
    return (await accessHousehold(ctx.households, request, id)).household;
  };

  const purchaseRequestExists: Existence = async (request) => {
    const { id, requestId = '' } = request.params as Params;
    await household(request, id);
    if (!(await ctx.buyflow.requests.get(id, requestId))) throw notFound('Purchase request not found');
  };

  const memberExists: Existence = async (request) => {
    const { id, memberId = '' } = request.params as Params;
    const found = (await household(request, id)) ?? (await ctx.households.getRecent(id));
    if (!found?.members.some((m) => m.memberId === memberId)) throw notFound('Member not found');
  };

  const existenceOf = (url: string, method: string): Existence | null => {
    if (method === 'POST' && url.startsWith(REQUEST_ACTION)) return purchaseRequestExists;
    if (method === 'PATCH' && url === `${H}/members/:memberId`) return memberExists;
    if (method === 'PUT' && url === `${H}/members/:memberId/spending-policy`) return memberExists;
    return null;
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const checks = methods.map((m) => existenceOf(route.url, m)).filter((c) => c !== null);
    if (checks.length === 0) return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    const hook = async (request: FastifyRequest) => {
      const check = existenceOf(route.url, request.method);
      if (check) await check(request);
    };
    route.onRequest = [...existing, hook] as never;
  });
}
