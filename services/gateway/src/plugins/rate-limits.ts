import fastifyRateLimit from '@fastify/rate-limit';
import { AppError, type ServiceApp } from '@hs/service-kit';
import type { FastifyRequest, RouteOptions } from 'fastify';
import { sharedRateLimitStore } from '../adapters/rate-limit-store.ts';
import type { GatewayContext } from '../context.ts';

const MINUTE_MS = 60_000;

type Rule = {
  name: string;
  perMinute: number;
  method: string;
  url: string;
  /** For a wildcard route, which of its paths count. */
  applies?: (request: FastifyRequest) => boolean;
  key: (request: FastifyRequest) => string;
};

const byUser = (request: FastifyRequest) => request.user?.userId ?? `ip:${request.ip}`;

/**
 * Rate limits (decisions "Public URLs, browsers and proxies"): sign-in per client address (as
 * TRUST_PROXY reveals it), chat turns and checkout confirmations per user, counted in the
 * gateway's store so they hold across replicas. Checked after authentication and before the
 * body is read; over the limit is 429 RATE_LIMITED with Retry-After. Must be registered before
 * the routes it limits.
 */
export async function registerRateLimits(app: ServiceApp, ctx: GatewayContext): Promise<void> {
  const limits = ctx.config.rateLimits;
  await app.register(fastifyRateLimit, { global: false, store: sharedRateLimitStore(ctx.store) as never });
  const rules: Rule[] = [
    {
      name: 'login',
      perMinute: limits.loginPerMinute,
      method: 'POST',
      url: '/api/v1/auth/login',
      key: (request: FastifyRequest) => request.ip,
    },
    {
      name: 'chat',
      perMinute: limits.chatPerMinute,
      method: 'POST',
      url: '/api/v1/households/:id/orchestrator/*',
      applies: (request: FastifyRequest) =>
        /^missions\/[^/]+\/chat$/.test((request.params as { '*'?: string })['*'] ?? ''),
      key: byUser,
    },
    {
      name: 'confirm',
      perMinute: limits.confirmPerMinute,
      method: 'POST',
      url: '/api/v1/households/:id/requests/:requestId/confirm-checkout',
      key: byUser,
    },
  ].filter((rule) => rule.perMinute > 0);

  for (const rule of rules) {
    const check = app.createRateLimit({
      max: rule.perMinute,
      timeWindow: MINUTE_MS,
      keyGenerator: (request) => `${rule.name}:${rule.key(request)}`,
    });
    const hook = async (request: FastifyRequest) => {
      if (rule.applies && !rule.applies(request)) return;
      const result = await check(request);
      if (result.isAllowed || !result.isExceeded) return;
      const retryAfter = Math.max(1, result.ttlInSeconds);
      throw new AppError('RATE_LIMITED', 429, `Too many requests; retry in ${retryAfter} s`, {
        headers: { 'retry-after': String(retryAfter) },
      });
    };
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (route.url !== rule.url || !methods.includes(rule.method as never)) return;
      const existing = route.onRequest ? [route.onRequest].flat() : [];
      route.onRequest = [...existing, hook] as never;
    });
  }
}
