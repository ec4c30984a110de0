import { CreateHouseholdRequest, ErrorEnvelope, Household, HouseholdParams } from '@hs/contracts';
import {
  AppError,
  errorResponses,
  keyedId,
  locationOf,
  newId,
  nowIso,
  type ServiceApp,
} from '@hs/service-kit';
import { z } from 'zod';
import { createSharedLimiter } from '../adapters/rate-limit-store.ts';
import type { GatewayContext } from '../context.ts';
import {
  MAX_HOUSEHOLDS_CREATED_PER_USER,
  MAX_HOUSEHOLDS_PER_USER,
  newHousehold,
  publicHousehold,
  requireRoomToCreate,
} from '../domain/household-rules.ts';
import { currentUser } from '../plugins/authenticate.ts';
import { accessHousehold } from '../plugins/household-access.ts';
import { IdempotencyHeaders, idempotencyScope, sendStored } from '../plugins/idempotency-key.ts';

const errors = errorResponses(401, 403, 404);

const DAY_MS = 24 * 3600_000;

export function registerHouseholdRoutes(app: ServiceApp, ctx: GatewayContext): void {
  // Leaving a household frees its place among the live ones a user created: without a limit in
  // time, one account could create (and fill) households without end. Counted only when one is
  // made, so a keyed retry replays and a refused create costs nothing.
  const perDay = ctx.config.rateLimits.householdsPerDay;
  const creations = createSharedLimiter(ctx.store, { name: 'households', limit: perDay, windowMs: DAY_MS });
  const countCreation = async (userId: string) => {
    if (perDay === 0) return;
    const { allowed, retryAfterSeconds } = await creations.hit(userId);
    if (!allowed)
      throw new AppError(
        'RATE_LIMITED',
        429,
        `You can create at most ${perDay} households a day; retry in ${retryAfterSeconds} s`,
        { headers: { 'retry-after': String(retryAfterSeconds) } },
      );
  };
  app.post(
    '/api/v1/households',
    {
      schema: {
        tags: ['households'],
        security: [{ bearer: [] }],
        description: `The caller becomes its PARENT_GUARDIAN. A user creates at most ${MAX_HOUSEHOLDS_CREATED_PER_USER} households and belongs to at most ${MAX_HOUSEHOLDS_PER_USER}: past either, 409 CONFLICT. Leaving a household frees its place; creating more than RATE_LIMIT_HOUSEHOLDS_PER_DAY (default 50) in 24 hours is 429 RATE_LIMITED with Retry-After. Honours Idempotency-Key.`,
        headers: IdempotencyHeaders,
        body: CreateHouseholdRequest,
        response: {
          201: Household,
          401: ErrorEnvelope,
          409: ErrorEnvelope,
          422: ErrorEnvelope,
          429: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { scope, key } = idempotencyScope(request, user.userId);
      const result = await ctx.buyflow.idempotency.run(scope, key, request.body, async () => {
        // Under a key the household's id (and its audit entry's) is the key's: a retry whose first
        // attempt saved it but never answered (a crash, its lease run out) finds it again.
        const keyed = key ? keyedId('h', key, [scope], request.body) : null;
        const saved = keyed ? await ctx.households.get(keyed) : null;
        // Only as the key's own retry: its life not over, the caller still a member (one who left
        // or was removed must not read the household again through an old key).
        let household =
          saved &&
          ctx.buyflow.idempotency.madeUnderLiveKey(saved.createdAt) &&
          saved.memberIds.includes(user.userId)
            ? saved
            : null;
        const householdId = keyed && !saved ? keyed : newId('h');
        if (!household) {
          requireRoomToCreate(await ctx.households.listFor(user.userId), user.userId);
          await countCreation(user.userId);
          household = newHousehold(householdId, request.body.name, user.userId, nowIso());
          await ctx.households.create(household);
        }
        await ctx.audit.record(
          household.householdId,
          {
            category: 'USER_ACTION',
            action: 'HOUSEHOLD_CREATED',
            actorId: user.userId,
            targetType: 'HOUSEHOLD',
            targetId: household.householdId,
            detail: { name: household.name },
          },
          request.id,
          key ? keyedId('aud', household.householdId, ['HOUSEHOLD_CREATED'], null) : undefined,
        );
        return { status: 201, body: publicHousehold(household) };
      });
      return sendStored(reply, result, (body) =>
        locationOf(request, (body as { householdId: string }).householdId),
      );
    },
  );

  app.get(
    '/api/v1/households',
    {
      schema: {
        tags: ['households'],
        security: [{ bearer: [] }],
        summary: "The caller's households, oldest first",
        description: `At most ${MAX_HOUSEHOLDS_PER_USER}, the most a user can belong to.`,
        response: { 200: z.array(Household), 401: ErrorEnvelope },
      },
    },
    async (request) => (await ctx.households.listFor(currentUser(request).userId)).map(publicHousehold),
  );

  app.get(
    '/api/v1/households/:id',
    {
      schema: {
        tags: ['households'],
        security: [{ bearer: [] }],
        params: HouseholdParams,
        response: { 200: Household, ...errors },
      },
    },
    async (request) =>
      publicHousehold((await accessHousehold(ctx.households, request, request.params.id)).household),
  );
}
