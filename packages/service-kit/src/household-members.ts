// Asks the gateway who belongs to a household (GET /api/v1/internal/households/{id}/members,
// with the gateway's internal token) on every call instead of keeping a copy that could go stale.
import { HouseholdMembership, type Member } from '@hs/contracts';
import type { PeerClient } from './peer-client.ts';

export function createHouseholdMembers(gateway: PeerClient) {
  async function members(householdId: string, requestId?: string): Promise<Member[]> {
    const reply = await gateway.call({
      method: 'GET',
      path: `/api/v1/internal/households/${encodeURIComponent(householdId)}/members`,
      schema: HouseholdMembership,
      ...(requestId ? { requestId } : {}),
    });
    return reply.body.members;
  }
  return {
    members,
    async isMember(householdId: string, memberId: string, requestId?: string): Promise<boolean> {
      return (await members(householdId, requestId)).some((m) => m.memberId === memberId);
    },
  };
}

export type HouseholdMembers = ReturnType<typeof createHouseholdMembers>;
