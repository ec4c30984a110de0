import { BrowserEventRequest, ClientEventAck, ClientEventRequest, MissionParams } from '@hs/contracts';
import {
  errorResponses,
  forbidden,
  internalTokenOf,
  requireCaller,
  type ServiceApp,
  secretsEqual,
} from '@hs/service-kit';
import type { OrchestratorContext } from '../context.ts';
import { recordBrowserEvent, recordClientEvent } from '../flows/mission-events.ts';
import { eventRule, missionGuard } from './mission-access.ts';

const errors = errorResponses(400, 403, 404, 409, 422);

export function registerEventRoutes(app: ServiceApp, ctx: OrchestratorContext): void {
  app.post(
    '/api/v1/households/:id/orchestrator/missions/:mId/events',
    {
      // Spec part 7: a missing required field (and an unknown eventType) is 400 here, not 422;
      // so is any other field out of bounds (metadata over its size included).
      config: { validationStatus: 400, guard: missionGuard(ctx, eventRule) },
      schema: {
        tags: ['missions'],
        summary: 'A client event on a mission',
        description:
          "Votes and takeovers from those who follow the mission (its owner; any member, for a POLL mission). The purchase signals follow the roles that take those actions, on any mission of the household: USER_APPROVED_REQUEST from a PARENT_GUARDIAN (who approves a member's request, then signals it on that member's mission), USER_CONFIRMED_FINAL_CHECKOUT from an ADULT or PARENT_GUARDIAN. Others get 403; so does a CHILD (an owner demoted since included) for USER_TAKEOVER_START/END, before the mission's state or type is checked. Every body that fails the schema is 400 VALIDATION_ERROR with details, not 422 (the spec's rule for this route): an unknown eventType, a missing field the type needs (offerId for USER_LIKED_ITEM, reason for USER_DISLIKED_ITEM, sessionId for takeovers, requestId for the purchase signals), and `metadata` over 20 keys or 2048 bytes as JSON (loc body.metadata). A vote (USER_LIKED_ITEM / USER_DISLIKED_ITEM) on a mission with candidates must name one of them, and a mission without candidates keeps votes on at most 500 distinct offers (a changed vote is always taken): else 409 CONFLICT. A purchase signal is checked against its request: USER_APPROVED_REQUEST needs it approved (APPROVED or later), USER_CONFIRMED_FINAL_CHECKOUT needs it COMPLETED, else 409 CONFLICT; a request the household does not have is 404.",
        params: MissionParams,
        body: ClientEventRequest,
        response: { 200: ClientEventAck, ...errors },
      },
    },
    async (request) =>
      recordClientEvent(ctx, {
        householdId: request.params.id,
        missionId: request.params.mId,
        caller: requireCaller(request),
        event: request.body,
        requestId: request.id,
      }),
  );

  app.post(
    '/api/v1/internal/browser/events',
    {
      // Checked here rather than by the shared hook: the spec gives this route its own message
      // and REQUIRE_INTERNAL_EVENT_TOKEN switch.
      config: { public: true },
      schema: {
        tags: ['internal'],
        summary: 'Browser events forwarded by the bridge (INTERACTIVE missions only)',
        security: [{ internalToken: [] }],
        body: BrowserEventRequest,
        response: { 200: ClientEventAck, ...errors },
      },
      onRequest: async (request) => {
        if (
          ctx.config.requireInternalEventToken &&
          !secretsEqual(internalTokenOf(request), ctx.config.internalToken)
        )
          throw forbidden('Missing or invalid internal event token');
      },
    },
    async (request) => recordBrowserEvent(ctx, { event: request.body, requestId: request.id }),
  );
}
