// Who may use a session through the member routes (decisions "What each role may do": members
// act on THEIR sessions). The live view shows the owner's browser, maybe signed in at a shop, so
// another member of the household is refused even though they may see that the session exists.
import type { Role } from '@hs/contracts';
import { type AppError, forbidden } from '@hs/service-kit';
import type { StoredBrowserSession } from './session-machine.ts';

export const NOT_THE_OWNER = 'Only the owner of the mission can use its browser session';

/**
 * 403 for anyone but the owner of the session's mission. A session stored before owners were
 * recorded (or opened by a service for no member) has none and stays open to the household.
 */
export function ownerRefusal(session: StoredBrowserSession, userId: string): AppError | null {
  if (!session.ownerId) return null;
  return session.ownerId === userId ? null : forbidden(NOT_THE_OWNER);
}

/**
 * Whether a member may be handed the session's live view. The live view is a control surface
 * (its takeover, release and input act on the page without a bearer token), and a CHILD may not
 * act on browser sessions: a CHILD (an owner demoted after starting the mission, say) reads the
 * session without the link, as the member routes refuse them takeover, release and terminate.
 */
export const mayHoldLiveView = (role: Role | null): boolean => role !== 'CHILD';
