import { BriefPatch, MissionParams, MissionView } from '@hs/contracts';
import { errorResponses, requireCaller, type ServiceApp } from '@hs/service-kit';
import type { OrchestratorContext } from '../context.ts';
import { toView } from '../domain/mission.ts';
import { correctBrief } from '../flows/correct-brief.ts';
import { missionGuard, ownerOnly } from './mission-access.ts';

const errors = errorResponses(400, 403, 404, 409, 422);

export function registerBriefRoutes(app: ServiceApp, ctx: OrchestratorContext): void {
  app.patch(
    '/api/v1/households/:id/orchestrator/missions/:mId/brief',
    {
      config: { guard: missionGuard(ctx, ownerOnly('Only the owner of the mission can correct its brief')) },
      schema: {
        tags: ['missions'],
        summary:
          "The owner corrects the shopper's brief: given fields replace the stored ones, null removes one; the next turn uses it",
        params: MissionParams,
        body: BriefPatch,
        response: { 200: MissionView, ...errors },
      },
    },
    async (request) => {
      const mission = await correctBrief(ctx, {
        householdId: request.params.id,
        missionId: request.params.mId,
        caller: requireCaller(request),
        patch: request.body as BriefPatch,
        requestId: request.id,
      });
      return toView(mission);
    },
  );
}
