// Asks the gateway who belongs to a household (GET /api/v1/internal/households/{id}/members,
// the gateway's internal token) instead of keeping a copy that could go stale.
import { HouseholdMembership } from '@hs/contracts';
import type { PeerClient } from '@hs/service-kit';

export function createHouseholdMembers(gateway: PeerClient) {
  return {
    async isMember(householdId: string, memberId: string, requestId?: string): Promise<boolean> {
      const reply = await gateway.call({
        method: 'GET',
        path: `/api/v1/internal/households/${encodeURIComponent(householdId)}/members`,
        schema: HouseholdMembership,
        ...(requestId ? { requestId } : {}),
      });
      return reply.body.members.some((m) => m.memberId === memberId);
    },
  };
}

export type HouseholdMembers = ReturnType<typeof createHouseholdMembers>;
