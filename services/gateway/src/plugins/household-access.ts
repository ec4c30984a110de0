import type { Member } from '@hs/contracts';
import { notFound } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { HouseholdRepository } from '../adapters/household-repository.ts';
import { memberOf, type StoredHousehold } from '../domain/household-rules.ts';
import { currentUser } from './authenticate.ts';

export type HouseholdAccess = { household: StoredHousehold; member: Member; userId: string; email: string };

/** 404 for a household that doesn't exist, 403 "User is not a household member" for one the caller is not in. */
export async function accessHousehold(
  households: HouseholdRepository,
  request: FastifyRequest,
  householdId: string,
): Promise<HouseholdAccess> {
  const user = currentUser(request);
  const household = await households.getRecent(householdId);
  if (!household) throw notFound('Household not found');
  return { household, member: memberOf(household, user.userId), userId: user.userId, email: user.email };
}
