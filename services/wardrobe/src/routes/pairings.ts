import { HouseholdParams, PairingsRequest, PairingsResult } from '@hs/contracts';
import { errorResponses, type ServiceApp } from '@hs/service-kit';
import type { WardrobeContext } from '../context.ts';
import { pairingsFor } from '../domain/pairings.ts';
import { itemPiece, loadWardrobe } from '../flows/curate-item.ts';

const errors = errorResponses(400, 403, 404, 422);

export function registerPairingRoutes(app: ServiceApp, ctx: WardrobeContext): void {
  app.post(
    '/api/v1/households/:id/wardrobe/pairings',
    {
      schema: {
        tags: ['curation'],
        description:
          'Owned items that go with a piece (its category and colours): the categories that complete it and the best non-clashing items of those categories, each with why. The stylist uses it to pair suggestions with the wardrobe.',
        params: HouseholdParams,
        body: PairingsRequest,
        response: { 200: PairingsResult, ...errors },
      },
    },
    async (request) => {
      const wardrobe = (await loadWardrobe(ctx, request.params.id)).map(itemPiece);
      return pairingsFor(request.body, wardrobe);
    },
  );
}
