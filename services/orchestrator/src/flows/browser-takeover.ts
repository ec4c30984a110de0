import { BrowserSession, type ClientEventType, SCOPE_HEADERS } from '@hs/contracts';
import { type Caller, forbidden, isAppError, notFound } from '@hs/service-kit';
import type { OrchestratorContext } from '../context.ts';
import { CHILD_MAY_NOT_ACT_ON_SESSIONS, mayDriveBrowser } from '../domain/browser-roles.ts';

const BRIDGE_ACTION: Partial<Record<ClientEventType, 'takeover' | 'release'>> = {
  USER_TAKEOVER_START: 'takeover',
  USER_TAKEOVER_END: 'release',
};

/**
 * The spec's fallback for the takeover routes: a USER_TAKEOVER_START/END client event changes
 * the browser session through the bridge's own takeover/release, so both paths end in the same
 * state. The session must be this mission's (anything else is 404, as for an unknown id); a
 * bridge refusal (409 on a finished session) reaches the client as it is.
 */
export async function applyTakeoverEvent(
  ctx: OrchestratorContext,
  input: {
    householdId: string;
    missionId: string;
    sessionId: string;
    eventType: ClientEventType;
    caller: Caller;
    requestId: string;
  },
): Promise<BrowserSession | null> {
  const action = BRIDGE_ACTION[input.eventType];
  if (!action) return null;
  if (!mayDriveBrowser(input.caller.role)) throw forbidden(CHILD_MAY_NOT_ACT_ON_SESSIONS);
  const path = `/api/v1/sessions/${encodeURIComponent(input.sessionId)}`;
  const call = {
    requestId: input.requestId,
    caller: input.caller,
    schema: BrowserSession,
    headers: { [SCOPE_HEADERS.householdId]: input.householdId, [SCOPE_HEADERS.missionId]: input.missionId },
  } as const;
  let session: BrowserSession;
  try {
    session = (await ctx.peers.bridge.call({ method: 'GET', path, ...call })).body;
  } catch (err) {
    if (isAppError(err) && err.status === 404) throw notFound('Browser session not found');
    throw err;
  }
  if (session.householdId !== input.householdId || session.missionId !== input.missionId)
    throw notFound('Browser session not found');
  return (await ctx.peers.bridge.call({ method: 'POST', path: `${path}/${action}`, ...call })).body;
}
