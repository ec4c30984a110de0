import type { Member } from '@hs/contracts';
import { notFound } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { HouseholdRepository } from '../adapters/household-repository.ts';
import { forwardableEmail } from '../domain/forwarded-email.ts';
import { memberOf, type StoredHousehold } from '../domain/household-rules.ts';
import { currentUser } from './authenticate.ts';

export type HouseholdAccess = {
  household: StoredHousehold;
  member: Member;
  userId: string;
  /** As peers get it in X-User-Email: empty when it cannot travel in a header (forwarded-email.ts). */
  email: string;
};

// One membership read per request: the route-access hook reads it before the body, the handler reuses it.
const checked = new WeakMap<FastifyRequest, { householdId: string; access: Promise<HouseholdAccess> }>();

/** 404 for a household that doesn't exist, 403 "User is not a household member" for one the caller is not in. */
export function accessHousehold(
  households: HouseholdRepository,
  request: FastifyRequest,
  householdId: string,
): Promise<HouseholdAccess> {
  const seen = checked.get(request);
  if (seen?.householdId === householdId) return seen.access;
  const access = (async () => {
    const user = currentUser(request);
    const household = await households.getRecent(householdId);
    if (!household) throw notFound('Household not found');
    return {
      household,
      member: memberOf(household, user.userId),
      userId: user.userId,
      email: forwardableEmail(user.email),
    };
  })();
  checked.set(request, { householdId, access });
  return access;
}
