import type { CreateHouseholdRequest } from '@hs/contracts';
import { keyedId, newId, nowIso, rateLimited } from '@hs/service-kit';
import { createSharedLimiter } from '../adapters/rate-limit-store.ts';
import type { GatewayContext } from '../context.ts';
import {
  newHousehold,
  publicHousehold,
  requireRoomToCreate,
  tooManyCreated,
  tooManyJoined,
} from '../domain/household-rules.ts';

const DAY_MS = 24 * 3600_000;

/**
 * Creating a household, run inside its Idempotency-Key's work: the caller becomes its
 * PARENT_GUARDIAN, within the user's caps, and the creation is audited.
 * - Leaving a household frees its place among the live ones a user created: without a limit in
 *   time one account could create (and fill) households without end, so at most
 *   RATE_LIMIT_HOUSEHOLDS_PER_DAY are made a day. Counted only when one is made: a keyed retry
 *   replays, a refused create costs nothing.
 * - Under a key the household's id is the key's: a retry whose first attempt saved it but never
 *   answered (a crash, its lease run out) finds it again, but only as the key's own retry (its
 *   life not over, the caller still a member: one who left or was removed must not read the
 *   household again through an old key).
 */
export function householdCreation(ctx: GatewayContext) {
  const perDay = ctx.config.rateLimits.householdsPerDay;
  const creations = createSharedLimiter(ctx.store, { name: 'households', limit: perDay, windowMs: DAY_MS });
  const countCreation = async (userId: string) => {
    if (perDay === 0) return;
    const { allowed, retryAfterSeconds } = await creations.hit(userId);
    if (!allowed)
      throw rateLimited(
        `You can create at most ${perDay} households a day; retry in ${retryAfterSeconds} s`,
        retryAfterSeconds,
      );
  };

  return async (
    request: { id: string },
    userId: string,
    body: CreateHouseholdRequest,
    idempotency: { scope: string; key: string | undefined },
  ) => {
    const { scope, key } = idempotency;
    const keyed = key ? keyedId('h', key, [scope], body) : null;
    const saved = keyed ? await ctx.households.get(keyed) : null;
    let household =
      saved && ctx.buyflow.idempotency.madeUnderLiveKey(saved.createdAt) && saved.memberIds.includes(userId)
        ? saved
        : null;
    if (!household) {
      requireRoomToCreate(await ctx.households.listFor(userId), userId);
      household = newHousehold(keyed && !saved ? keyed : newId('h'), body.name, userId, nowIso());
      // The caps again, atomically with the write (concurrent creates passed the check above
      // together); the day's count only once the slots are held, so a refused create costs nothing.
      const refused = await ctx.households.create(household, () => countCreation(userId));
      if (refused === 'created-cap') throw tooManyCreated();
      if (refused === 'member-cap') throw tooManyJoined('You already belong');
    }
    await ctx.audit.record(
      household.householdId,
      {
        category: 'USER_ACTION',
        action: 'HOUSEHOLD_CREATED',
        actorId: userId,
        targetType: 'HOUSEHOLD',
        targetId: household.householdId,
        detail: { name: household.name },
      },
      request.id,
      // One entry per household, whichever attempt records it.
      key ? keyedId('aud', household.householdId, ['HOUSEHOLD_CREATED'], null) : undefined,
    );
    return { status: 201, body: publicHousehold(household) };
  };
}
