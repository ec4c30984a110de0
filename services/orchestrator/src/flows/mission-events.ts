import type { BrowserEventRequest, ClientEventAck, ClientEventRequest } from '@hs/contracts';
import { TAKEOVER_EVENTS } from '@hs/contracts';
import { AppError, type Caller, conflict, forbidden, invalidState, notFound, nowIso } from '@hs/service-kit';
import { ABORT } from '@hs/store';
import type { OrchestratorContext } from '../context.ts';
import { CHILD_MAY_NOT_ACT_ON_SESSIONS, mayDriveBrowser } from '../domain/browser-roles.ts';
import { clientEventAuditDetail } from '../domain/client-event-audit.ts';
import { isTerminal, type MissionDoc, mayFollow, NOT_A_FOLLOWER } from '../domain/mission.ts';
import { recordVote, voteRefusal } from '../domain/poll-tally.ts';
import { applyTakeoverEvent } from './browser-takeover.ts';
import { assertSignalFollowsAction } from './purchase-signal.ts';

const invalidMissionType = (message: string) => new AppError('INVALID_MISSION_TYPE', 409, message);

/**
 * A member's event on a mission (spec part 6): likes and dislikes are the POLL's votes; takeover
 * events change the browser session through the bridge; the others are signals the domain APIs
 * already acted on. Every event is shown on the stream.
 */
export async function recordClientEvent(
  ctx: OrchestratorContext,
  input: {
    householdId: string;
    missionId: string;
    caller: Caller;
    event: ClientEventRequest;
    requestId: string;
  },
): Promise<ClientEventAck> {
  const { event, missionId } = input;
  const mission = await ctx.missions.get(input.householdId, missionId);
  if (!mission) throw notFound('Mission not found');
  const refusal = eventRefusal(mission, input.caller, event.eventType);
  if (refusal) throw forbidden(refusal);
  if (isTerminal(mission.state)) throw invalidState(`Mission is ${mission.state}; it accepts no more events`);
  if (TAKEOVER_EVENTS.includes(event.eventType) && mission.mission_type !== 'INTERACTIVE')
    throw invalidMissionType(
      `${event.eventType} needs an INTERACTIVE mission; this one is ${mission.mission_type}`,
    );
  await assertSignalFollowsAction(ctx, {
    householdId: input.householdId,
    caller: input.caller,
    event,
    requestId: input.requestId,
  });
  if (TAKEOVER_EVENTS.includes(event.eventType) && event.sessionId)
    await applyTakeoverEvent(ctx, {
      householdId: input.householdId,
      missionId,
      sessionId: event.sessionId,
      eventType: event.eventType,
      caller: input.caller,
      requestId: input.requestId,
    });
  const vote =
    event.eventType === 'USER_LIKED_ITEM'
      ? 'like'
      : event.eventType === 'USER_DISLIKED_ITEM'
        ? 'dislike'
        : null;
  if (vote && event.offerId) {
    const offerId = event.offerId;
    // Checked on the document as stored: a turn may have proposed new candidates meanwhile.
    let refused = null as AppError | null;
    await ctx.missions.update(missionId, (m) => {
      refused = refusedVote(m, offerId);
      if (refused) return ABORT;
      return {
        ...m,
        context: recordVote(m.context, offerId, input.caller.userId, vote),
        updated_at: nowIso(),
      };
    });
    if (refused) throw refused;
  }
  // Stored as before; the stream frame adds the camelCase `memberId` (domain/stream-frame.ts).
  await ctx.events.append(missionId, 'client.event', { ...event, member_id: input.caller.userId });
  await ctx.audit.record(
    input.householdId,
    {
      missionId,
      category: 'USER_ACTION',
      severity: 'INFO',
      action: 'CLIENT_EVENT',
      detail: clientEventAuditDetail(event),
      actorId: input.caller.userId,
      targetType: 'mission',
      targetId: missionId,
    },
    input.requestId,
  );
  return { accepted: true, missionId, eventType: event.eventType };
}

/** 409 for a vote the mission can't take: it has ended, or the offer is not one to vote on. */
function refusedVote(mission: MissionDoc, offerId: string): AppError | null {
  if (isTerminal(mission.state))
    return invalidState(`Mission is ${mission.state}; it accepts no more events`);
  const why = voteRefusal(mission.context, offerId);
  return why ? conflict(why) : null;
}

/**
 * Who may send an event. The purchase signals follow their authoritative actions (spec part 6),
 * taken by a role and not by the mission's owner alone: a guardian approves a member's request and
 * then signals it on that member's mission; confirming checkout is an adult's or a guardian's.
 * Votes and takeovers are for those who follow the mission; takeovers not for a CHILD.
 */
function eventRefusal(
  mission: MissionDoc,
  caller: Caller,
  eventType: ClientEventRequest['eventType'],
): string | null {
  if (eventType === 'USER_APPROVED_REQUEST')
    return caller.role === 'PARENT_GUARDIAN' ? null : 'Only a parent or guardian approves purchase requests';
  if (eventType === 'USER_CONFIRMED_FINAL_CHECKOUT')
    return caller.role === 'ADULT' || caller.role === 'PARENT_GUARDIAN'
      ? null
      : 'A child member cannot confirm a checkout';
  if (!mayFollow(mission, caller.userId)) return NOT_A_FOLLOWER;
  // Taking or giving back a browser is acting on the session: not a CHILD's (an owner demoted
  // since included), refused here with the role checks, before the mission's state and type.
  if (TAKEOVER_EVENTS.includes(eventType) && !mayDriveBrowser(caller.role))
    return CHILD_MAY_NOT_ACT_ON_SESSIONS;
  return null;
}

/** An extension event the bridge forwards: INTERACTIVE missions only, appended to the stream. */
export async function recordBrowserEvent(
  ctx: OrchestratorContext,
  input: { event: BrowserEventRequest; requestId: string },
): Promise<ClientEventAck> {
  const { event } = input;
  const mission = await ctx.missions.getById(event.missionId);
  if (!mission || (event.householdId && mission.household_id !== event.householdId))
    throw notFound('Mission not found');
  if (mission.mission_type !== 'INTERACTIVE')
    throw invalidMissionType(
      `Browser events need an INTERACTIVE mission; this one is ${mission.mission_type}`,
    );
  // Stored as before; the stream frame adds the camelCase `sessionId` (domain/stream-frame.ts).
  await ctx.events.append(mission.mission_id, 'browser.event', {
    session_id: event.sessionId,
    type: event.type,
    payload: event.payload ?? {},
  });
  await ctx.audit.record(
    mission.household_id,
    {
      missionId: mission.mission_id,
      category: 'SESSION_EVENT',
      severity: 'INFO',
      action: 'BROWSER_EVENT',
      detail: { type: event.type, sessionId: event.sessionId, payload: event.payload ?? {} },
      targetType: 'browser_session',
      targetId: event.sessionId,
    },
    input.requestId,
  );
  return { accepted: true, missionId: mission.mission_id, eventType: event.type };
}
