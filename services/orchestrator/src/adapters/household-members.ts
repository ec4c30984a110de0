// The household's members, from the gateway's internal membership route, so the stylist can tell
// who "for Emma" or "for my son" is and a corrected brief names only a member. During a turn a
// read that fails leaves the stylist without names (`onError`): the turn goes on rather than
// failing over a nicety; without `onError` the failure is the caller's. A nicety also gets only a
// moment: a gateway that accepted the connection and never answered held the turn for its whole
// deadline, so the search the user asked for was then never sent (commerce "did not answer
// within 0 ms").
import { HouseholdMembership } from '@hs/contracts';
import type { HouseholdPerson } from '../domain/brief/for-member.ts';
import type { OrchestratorPeers } from './peers.ts';

/** How long a turn waits for the member list (a local read that takes milliseconds) before going on without it. */
export const MEMBERS_READ_IN_TURN_TIMEOUT_MS = 2000;

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
      ...(onError ? { timeoutMs: MEMBERS_READ_IN_TURN_TIMEOUT_MS } : {}),
    });
    return read.body.members.map(({ memberId, displayName, role }) => ({ memberId, displayName, role }));
  } catch (err) {
    if (!onError) throw err;
    onError(err);
    return [];
  }
}
