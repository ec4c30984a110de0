// The order of checks (decisions, Conventions): membership and role (403) and the resource's
// existence (404) come before the body is read (413, 400, 422) and before its state (409). The
// gateway checked membership; the mission's own rules (who owns or follows it) are checked here,
// as each route's `guard`, which the kit runs in `onRequest`: a member who may not act on a
// mission, or names one that does not exist, hears that whatever their body or Last-Event-ID.
// The flows check again inside their atomic updates; this is the early answer, not the only one.
import { type Caller, forbidden, notFound, requireCaller } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { OrchestratorContext } from '../context.ts';
import { CHILD_MAY_NOT_CHAT_INTERACTIVE, refusesBrowserChat } from '../domain/browser-roles.ts';
import { type MissionDoc, mayFollow, NOT_A_FOLLOWER } from '../domain/mission.ts';

/** Why this caller may not use the route on this mission, or null. */
export type MissionRule = (mission: MissionDoc, caller: Caller) => string | null;

/** Chat, brief, complete, cancel: the owner's alone. */
export const ownerOnly =
  (message: string): MissionRule =>
  (mission, caller) =>
    mission.owner_id === caller.userId ? null : message;

/** Chat: the owner's; in an INTERACTIVE mission not a CHILD's (role before state). */
export const chatRule: MissionRule = (mission, caller) =>
  ownerOnly('Only the owner of the mission can chat with it')(mission, caller) ??
  (refusesBrowserChat(mission.mission_type, caller.role) ? CHILD_MAY_NOT_CHAT_INTERACTIVE : null);

/** Read and stream: its owner, or any member for a POLL. */
export const followerRule: MissionRule = (mission, caller) =>
  mayFollow(mission, caller.userId) ? null : NOT_A_FOLLOWER;

/**
 * Client events: which event a non-follower sends is in the body, and the purchase signals are
 * open to a guardian (approval) and an adult (checkout) on any mission. A CHILD who does not
 * follow the mission may send none of them, so that refusal needs no body.
 */
export const eventRule: MissionRule = (mission, caller) =>
  mayFollow(mission, caller.userId) || caller.role !== 'CHILD' ? null : NOT_A_FOLLOWER;

const checked = new WeakMap<FastifyRequest, MissionDoc>();

/**
 * A route `guard`: 404 for a mission missing here, then the route's 403, before the body. The
 * mission it read stays with the request (`guardedMission`), for a handler that only reads it.
 */
export function missionGuard(ctx: OrchestratorContext, rule: MissionRule) {
  return async (request: FastifyRequest): Promise<void> => {
    const caller = requireCaller(request);
    const { id, mId } = request.params as { id?: string; mId?: string };
    const mission = id && mId ? await ctx.missions.get(id, mId) : null;
    if (!mission) throw notFound('Mission not found');
    const refusal = rule(mission, caller);
    if (refusal) throw forbidden(refusal);
    checked.set(request, mission);
  };
}

/** The mission the route's guard read and let through (a route without a mission guard has none). */
export function guardedMission(request: FastifyRequest): MissionDoc {
  const mission = checked.get(request);
  if (!mission) throw new Error('guardedMission: the route has no mission guard');
  return mission;
}
