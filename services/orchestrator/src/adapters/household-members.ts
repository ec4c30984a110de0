// The household's members, from the gateway's internal membership route, so the stylist can tell
// who "for Emma" or "for my son" is and a corrected brief names only a member. During a turn a
// read that fails leaves the stylist without names (`onError`): the turn goes on rather than
// failing over a nicety; without `onError` the failure is the caller's.
import { HouseholdMembership } from '@hs/contracts';
import type { HouseholdPerson } from '../domain/brief/for-member.ts';
import type { OrchestratorPeers } from './peers.ts';

export async function readHouseholdMembers(
  peers: OrchestratorPeers,
  householdId: string,
  requestId: string,
  onError?: (err: unknown) => void,
): Promise<HouseholdPerson[]> {
  try {
    const read = await peers.gateway.call({
      method: 'GET',
      path: `/api/v1/internal/households/${encodeURIComponent(householdId)}/members`,
      schema: HouseholdMembership,
      requestId,
    });
    return read.body.members.map(({ memberId, displayName, role }) => ({ memberId, displayName, role }));
  } catch (err) {
    if (!onError) throw err;
    onError(err);
    return [];
  }
}
