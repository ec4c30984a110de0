import { ErrorEnvelope, OfferPage, SearchOffersRequest } from '@hs/contracts';
import type { ServiceApp } from '@hs/service-kit';
import type { CommerceContext } from './context.ts';
import { runSearch } from './run-search.ts';

/** Internal search (orchestrator's search_commerce tool, wardrobe curation): active offers of one household. */
export function registerSearchRoutes(app: ServiceApp, ctx: CommerceContext): void {
  app.post(
    '/api/v1/search',
    {
      schema: {
        tags: ['internal'],
        security: [{ internalToken: [] }],
        description: 'Active offers of one household matching the constraints, by price ascending.',
        body: SearchOffersRequest,
        response: { 200: OfferPage, 400: ErrorEnvelope, 403: ErrorEnvelope, 422: ErrorEnvelope },
      },
    },
    async (request) => {
      const { householdId, ...constraints } = request.body;
      return runSearch(ctx, householdId, 'ACTIVE', constraints);
    },
  );
}
