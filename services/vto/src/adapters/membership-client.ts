import { HouseholdMembership } from '@hs/contracts';
import type { PeerClient } from '@hs/service-kit';

/** Answers whether memberId belongs to the household; asks the gateway each time (no stale copy). */
export type MembershipCheck = (householdId: string, memberId: string, requestId?: string) => Promise<boolean>;

export function createMembershipCheck(gateway: PeerClient): MembershipCheck {
  return async (householdId, memberId, requestId) => {
    const reply = await gateway.call({
      method: 'GET',
      path: `/api/v1/internal/households/${encodeURIComponent(householdId)}/members`,
      schema: HouseholdMembership,
      ...(requestId ? { requestId } : {}),
    });
    return reply.body.members.some((m) => m.memberId === memberId);
  };
}
