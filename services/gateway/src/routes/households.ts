import { CreateHouseholdRequest, ErrorEnvelope, Household, HouseholdParams } from '@hs/contracts';
import { errorResponses, locationOf, type ServiceApp } from '@hs/service-kit';
import { z } from 'zod';
import type { GatewayContext } from '../context.ts';
import {
  MAX_HOUSEHOLDS_CREATED_PER_USER,
  MAX_HOUSEHOLDS_PER_USER,
  publicHousehold,
} from '../domain/household-rules.ts';
import { householdCreation } from '../flows/create-household.ts';
import { currentUser } from '../plugins/authenticate.ts';
import { accessHousehold } from '../plugins/household-access.ts';
import { IdempotencyHeaders, idempotencyScope, sendStored } from '../plugins/idempotency-key.ts';

const errors = errorResponses(401, 403, 404);

export function registerHouseholdRoutes(app: ServiceApp, ctx: GatewayContext): void {
  const createHousehold = householdCreation(ctx);
  app.post(
    '/api/v1/households',
    {
      schema: {
        tags: ['households'],
        security: [{ bearer: [] }],
        description: `The caller becomes its PARENT_GUARDIAN. A user creates at most ${MAX_HOUSEHOLDS_CREATED_PER_USER} households and belongs to at most ${MAX_HOUSEHOLDS_PER_USER}: past either, 409 CONFLICT. Leaving a household frees its place; creating more than RATE_LIMIT_HOUSEHOLDS_PER_DAY (default 50) in 24 hours is 429 RATE_LIMITED with Retry-After. Honours Idempotency-Key.`,
        headers: IdempotencyHeaders,
        body: CreateHouseholdRequest,
        response: {
          201: Household,
          401: ErrorEnvelope,
          409: ErrorEnvelope,
          422: ErrorEnvelope,
          429: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { scope, key } = idempotencyScope(request, user.userId);
      const result = await ctx.buyflow.idempotency.run(scope, key, request.body, () =>
        createHousehold(request, user.userId, request.body, { scope, key }),
      );
      return sendStored(reply, result, (body) =>
        locationOf(request, (body as { householdId: string }).householdId),
      );
    },
  );

  app.get(
    '/api/v1/households',
    {
      schema: {
        tags: ['households'],
        security: [{ bearer: [] }],
        summary: "The caller's households, oldest first",
        description: `At most ${MAX_HOUSEHOLDS_PER_USER}, the most a user can belong to.`,
        response: { 200: z.array(Household), 401: ErrorEnvelope },
      },
    },
    async (request) => (await ctx.households.listFor(currentUser(request).userId)).map(publicHousehold),
  );

  app.get(
    '/api/v1/households/:id',
    {
      schema: {
        tags: ['households'],
        security: [{ bearer: [] }],
        params: HouseholdParams,
        response: { 200: Household, ...errors },
      },
    },
    async (request) =>
      publicHousehold((await accessHousehold(ctx.households, request, request.params.id)).household),
  );
}
