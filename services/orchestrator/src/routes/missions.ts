import {
  CreateMissionRequest,
  HouseholdParams,
  ListMissionsQuery,
  MissionAccessSnapshot,
  MissionParams,
  MissionView,
  NoBody,
  plainMessageText,
} from '@hs/contracts';
import {
  errorResponses,
  forbidden,
  idempotencyKeyOf,
  locationOf,
  notFound,
  requireCaller,
  type ServiceApp,
} from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { OrchestratorContext } from '../context.ts';
import { mayFollow, NOT_A_FOLLOWER, toView, visibleMissions } from '../domain/mission.ts';
import { createMission, endMission } from '../flows/mission-lifecycle.ts';
import { messageSource } from './message-source.ts';
import { missionGuard, ownerOnly } from './mission-access.ts';

const BASE = '/api/v1/households/:id/orchestrator/missions';
const errors = errorResponses(400, 403, 404, 409, 422);
const tags = ['missions'];

export function registerMissionRoutes(app: ServiceApp, ctx: OrchestratorContext): void {
  /** The mission named in the path, when the caller may read it (its owner; any member for a POLL). */
  const followedMission = async (request: FastifyRequest<{ Params: z.infer<typeof MissionParams> }>) => {
    const caller = requireCaller(request);
    const mission = await ctx.missions.get(request.params.id, request.params.mId);
    if (!mission) throw notFound('Mission not found');
    if (!mayFollow(mission, caller.userId)) throw forbidden(NOT_A_FOLLOWER);
    return mission;
  };

  app.post(
    BASE,
    {
      schema: {
        tags,
        summary: 'Create a mission; its first turn runs with the initial message before the reply',
        description:
          'With an `Idempotency-Key` (passed on by the gateway), the same key, caller, household and body always name the same mission: a retry whose first answer was lost returns that mission as it now is (201) instead of creating a second one and running its first turn again. If that first attempt was cut off (the service stopped) before its first turn answered, the retry finishes it: the first message is answered once (while the first turn is still under its lease: 409 CONFLICT with Retry-After, retry then).',
        params: HouseholdParams,
        body: CreateMissionRequest,
        response: { 201: MissionView, ...errors },
      },
    },
    async (request, reply) => {
      const mission = await createMission(ctx, {
        householdId: request.params.id,
        caller: requireCaller(request),
        missionType: request.body.mission_type,
        initialMessage: plainMessageText(request.body.initial_message).trim(),
        source: messageSource(request),
        requestId: request.id,
        idempotencyKey: idempotencyKeyOf(request.headers),
      });
      return reply
        .code(201)
        .header('location', locationOf(request, mission.mission_id))
        .send(toView(mission));
    },
  );

  app.get(
    BASE,
    {
      schema: {
        tags,
        summary:
          "The caller's missions in the household and the household's open (RUNNING) POLL missions, newest first; ?mine=true only the caller's own",
        description:
          "At most the caller's 100 most recent missions and the household's 100 most recent open POLL missions, each a whole MissionView (its history included); there are no further pages, so an app that keeps older missions keeps their ids and reads them one at a time.",
        params: HouseholdParams,
        querystring: ListMissionsQuery,
        response: { 200: z.array(MissionView), ...errors },
      },
    },
    async (request) => {
      const { userId } = requireCaller(request);
      const [own, polls] = await Promise.all([
        ctx.missions.listForOwner(request.params.id, userId),
        request.query.mine ? [] : ctx.missions.listOpenPolls(request.params.id),
      ]);
      return visibleMissions(own, polls).map(toView);
    },
  );

  app.get(
    `${BASE}/:mId`,
    {
      schema: {
        tags,
        summary: 'One mission (its owner; any member, for a POLL mission)',
        params: MissionParams,
        response: { 200: MissionView, ...errors },
      },
    },
    async (request) => toView(await followedMission(request)),
  );

  app.get(
    `${BASE}/:mId/access`,
    {
      schema: {
        tags,
        operationId: 'getMissionAccess',
        summary:
          'Who owns the mission, its type and state, without its history (who may read it: as GET the mission)',
        description:
          "The MissionView's fields that say who may act on the mission, at a size that does not grow with its history: the same 404 and 403 as reading the mission.",
        params: MissionParams,
        response: { 200: MissionAccessSnapshot, ...errors },
      },
    },
    async (request) => {
      const { mission_id, household_id, owner_id, mission_type, state } = await followedMission(request);
      return { mission_id, household_id, owner_id, mission_type, state };
    },
  );

  const ownerEnds = missionGuard(ctx, ownerOnly('Only the owner of the mission can end it'));
  for (const [action, finalState] of [
    ['complete', 'DONE'],
    ['cancel', 'FAILED'],
  ] as const) {
    app.post(
      `${BASE}/:mId/${action}`,
      {
        config: { guard: ownerEnds },
        schema: {
          tags,
          summary:
            action === 'complete'
              ? 'The owner ends the mission DONE'
              : 'The owner cancels the mission (FAILED)',
          params: MissionParams,
          body: NoBody,
          response: { 200: MissionView, ...errors },
        },
      },
      async (request) => {
        const mission = await endMission(ctx, {
          householdId: request.params.id,
          missionId: request.params.mId,
          caller: requireCaller(request),
          finalState,
          requestId: request.id,
        });
        return toView(mission);
      },
    );
  }
}
