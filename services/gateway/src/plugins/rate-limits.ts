import fastifyRateLimit from '@fastify/rate-limit';
import { AppError, type Caller, createMissionLookup, rateLimited, type ServiceApp } from '@hs/service-kit';
import type { FastifyRequest, RouteOptions } from 'fastify';
import { replaysWithoutWork } from '../adapters/idempotent-forward.ts';
import { createHitRefunds, sharedRateLimitStore } from '../adapters/rate-limit-store.ts';
import type { GatewayContext } from '../context.ts';
import { clientAddressKey } from '../domain/client-address.ts';
import { IDEMPOTENCY_KEY, IDEMPOTENCY_MESSAGES } from '../domain/idempotency.ts';
import { accessHousehold } from './household-access.ts';
import { idempotencyScope } from './idempotency-key.ts';

const MINUTE_MS = 60_000;
/** The window a request's hit was counted in, for a keyed retry that may turn out to run nothing. */
const countedHits = new WeakMap<FastifyRequest, { key: string; expiresAt: number }>();

/** Which requests one per-minute limit counts: a route, and for a wildcard route which of its paths. */
export type LimitedRoute = {
  name: string;
  method: string;
  url: string;
  /** For a wildcard route: whether the path after its `*` counts (`missions/m_1/chat`). */
  covers?: (wildcardPath: string) => boolean;
};

type Rule = LimitedRoute & {
  /** Requests per minute (0: no limit). */
  max: number;
  key: (request: FastifyRequest) => string;
  /**
   * Throws 404 when the resource the request names is missing. Asked only once the caller is over
   * the limit: existence answers before the limit (decisions, order of checks) without costing
   * every request within the limit a lookup.
   */
  exists?: (request: FastifyRequest) => Promise<void>;
  /** A keyed retry that runs nothing (see replaysAnswer and the onError hook) is not counted. */
  keyedRetriesFree?: boolean;
};

type HouseholdParams = { id: string; requestId?: string; '*'?: string };

const byUser = (request: FastifyRequest) => request.user?.userId ?? `ip:${request.ip}`;
/**
 * The chat turns' limit: HTTP chat and mission creation (which runs the first turn) count here, and
 * the voice socket counts each spoken turn under the same name and key (createSharedLimiter), so a
 * user has one budget of turns whichever way they come.
 */
export const CHAT_TURNS = 'chat';

/** The routes the gateway's limits count (also what the OpenAPI document marks 429). */
export const LIMITED_ROUTES = {
  login: { name: 'login', method: 'POST', url: '/api/v1/auth/login' },
  // A chat, or a new mission (its first turn runs at creation).
  chat: {
    name: CHAT_TURNS,
    method: 'POST',
    url: '/api/v1/households/:id/orchestrator/*',
    covers: (path: string) => /^missions(?:\/[^/]+\/chat)?$/.test(path),
  },
  // Each event is stored in the mission's log (replayed to every stream) and the audit log.
  events: {
    name: 'events',
    method: 'POST',
    url: '/api/v1/households/:id/orchestrator/*',
    covers: (path: string) => /^missions\/[^/]+\/events$/.test(path),
  },
  confirm: {
    name: 'confirm',
    method: 'POST',
    url: '/api/v1/households/:id/requests/:requestId/confirm-checkout',
  },
  // Each token is a live secret for CHECKOUT_TOKEN_TTL_SECONDS and an audit entry: a client in a
  // loop would fill both. Its own count, under the same setting as confirmations.
  confirmationToken: {
    name: 'confirmation-token',
    method: 'POST',
    url: '/api/v1/households/:id/requests/:requestId/confirmation-token',
  },
  // Per day: the live households a user created are capped, but leaving one frees its place, so
  // without a limit in time one account could create (and fill) households without end. Counted
  // by the route itself, only when a household is made (a keyed retry replays, a refusal is free).
  createHousehold: { name: 'households', method: 'POST', url: '/api/v1/households' },
} satisfies Record<string, LimitedRoute>;

/**
 * Rate limits (decisions "Public URLs, browsers and proxies"): sign-in per client address (as
 * TRUST_PROXY reveals it), chat turns, mission client events, checkout confirmations and confirmation tokens per user, counted in the
 * gateway's store so they hold across replicas. Checked after authentication and before the
 * body is read; over the limit is 429 RATE_LIMITED with Retry-After. The limits are route-level
 * `onRequest` hooks, which Fastify runs after the instance's own (authentication, then membership
 * and role in the route-access hook), so 401/403 come first; a missing resource is 404 rather than
 * 429 (see `exists`, and plugins/resource-exists.ts for purchase requests). Must be registered
 * before the routes it limits.
 */
export async function registerRateLimits(app: ServiceApp, ctx: GatewayContext): Promise<void> {
  const limits = ctx.config.rateLimits;
  const loadMission = createMissionLookup(ctx.peers.orchestrator);
  /**
   * 404 for a missing mission, and the 403 of a caller the route refuses on it, before the 429.
   * `othersAdultsMay`: the route is open to an adult or guardian on a mission they do not follow
   * (client events: the purchase signals, the orchestrator's `eventRule`), so the lookup's 403
   * "not a follower" only stands for a CHILD.
   */
  const missionExists = (othersAdultsMay: boolean) => async (request: FastifyRequest) => {
    const { id, '*': rest = '' } = request.params as HouseholdParams;
    // A new mission names none (the household's existence was checked with membership).
    if (rest === 'missions') return;
    const missionId = decodeURIComponent(rest.split('/')[1] ?? '');
    const access = await accessHousehold(ctx.households, request, id);
    const caller: Caller = { userId: access.userId, role: access.member.role, email: access.email };
    try {
      await loadMission(id, missionId, caller, request.id);
    } catch (err) {
      if (othersAdultsMay && caller.role !== 'CHILD' && err instanceof AppError && err.status === 403) return;
      throw err;
    }
  };
  /**
   * A keyed retry answered from the stored reply (no demotion since, not a streamed turn): it runs
   * nothing, so it is neither counted nor refused, and a client recovers a reply it lost (a 504)
   * even over the limit. A stored answer stays one for the request's time (it outlives it by a
   * minute), unlike a key still running, whose first attempt may fail and free the key for this
   * very request: such a retry is counted, and given back once it is answered 409 (see below).
   */
  const replaysAnswer = async (request: FastifyRequest): Promise<boolean> => {
    if (!request.user || request.headers['idempotency-key'] === undefined) return false;
    const { scope, key } = idempotencyScope(request, request.user.userId);
    if (key === undefined || !IDEMPOTENCY_KEY.test(key)) return false;
    const kept = await ctx.buyflow.idempotency.storedAnswer(scope, key);
    if (kept === null) return false;
    const access = await accessHousehold(ctx.households, request, (request.params as HouseholdParams).id);
    return replaysWithoutWork(kept, access.member.role);
  };
  const refunds = createHitRefunds(ctx.store);
  // A retry answered 409 because its key's first attempt still runs ran nothing: its hit is given
  // back, so a client retrying as told (Retry-After: 1) during a slow turn keeps its budget.
  app.addHook('onError', async (request, _reply, error) => {
    const counted = countedHits.get(request);
    if (!counted || !(error instanceof AppError) || error.message !== IDEMPOTENCY_MESSAGES.running) return;
    countedHits.delete(request);
    await refunds.refund(counted.key, counted.expiresAt).catch(() => {});
  });
  await app.register(fastifyRateLimit, { global: false, store: sharedRateLimitStore(ctx.store) as never });
  const rules: Rule[] = (
    [
      {
        ...LIMITED_ROUTES.login,
        max: limits.loginPerMinute,
        key: (request: FastifyRequest) => clientAddressKey(request.ip),
      },
      {
        ...LIMITED_ROUTES.chat,
        max: limits.chatPerMinute,
        key: byUser,
        exists: missionExists(false),
        keyedRetriesFree: true,
      },
      { ...LIMITED_ROUTES.events, max: limits.eventsPerMinute, key: byUser, exists: missionExists(true) },
      // The purchase request's existence is checked before any limit (plugins/resource-exists.ts).
      { ...LIMITED_ROUTES.confirm, max: limits.confirmPerMinute, key: byUser, keyedRetriesFree: true },
      { ...LIMITED_ROUTES.confirmationToken, max: limits.confirmPerMinute, key: byUser },
    ] satisfies Rule[]
  ).filter((rule) => rule.max > 0);

  for (const rule of rules) {
    const check = app.createRateLimit({
      max: rule.max,
      timeWindow: MINUTE_MS,
      keyGenerator: (request) => `${rule.name}:${rule.key(request)}`,
    });
    const hook = async (request: FastifyRequest) => {
      // A wildcard route serves every method: reading a mission list is not a chat turn.
      if (request.method !== rule.method) return;
      if (rule.covers && !rule.covers((request.params as HouseholdParams)['*'] ?? '')) return;
      // Neither counted nor refused (one store read, only for a keyed request).
      if (rule.keyedRetriesFree && (await replaysAnswer(request))) return;
      const result = await check(request);
      if (result.isAllowed) return;
      if (!result.isExceeded) {
        if (rule.keyedRetriesFree && request.headers['idempotency-key'] !== undefined)
          countedHits.set(request, { key: result.key, expiresAt: Date.now() + result.ttl });
        return;
      }
      await rule.exists?.(request);
      const retryAfter = Math.max(1, result.ttlInSeconds);
      throw rateLimited(`Too many requests; retry in ${retryAfter} s`, retryAfter);
    };
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (route.url !== rule.url || !methods.includes(rule.method as never)) return;
      const existing = route.onRequest ? [route.onRequest].flat() : [];
      route.onRequest = [...existing, hook] as never;
    });
  }
}
