import {
  AddCollectionEntryRequest,
  CollectionList,
  CollectionParams,
  CreateCollectionRequest,
  FeedCollection,
  HouseholdParams,
} from '@hs/contracts';
import { errorResponses, newId, notFound, nowIso, type ServiceApp } from '@hs/service-kit';
import type { WardrobeContext } from '../context.ts';
import { assertMayChange } from '../domain/ownership.ts';

const errors = errorResponses(400, 403, 404, 422);
const H = '/api/v1/households/:id/wardrobe/feed';
const tags = ['feed'];

/** Named collections of items and outfits; they appear in the feed (routes/feed.ts). */
export function registerCollectionRoutes(app: ServiceApp, ctx: WardrobeContext): void {
  app.post(
    `${H}/collections`,
    {
      config: { validationStatus: 400 },
      schema: {
        tags,
        description: 'A named collection of items and outfits; a missing name is 400 VALIDATION_ERROR.',
        params: HouseholdParams,
        body: CreateCollectionRequest,
        response: { 201: FeedCollection, ...errors },
      },
    },
    async (request, reply) => {
      const now = nowIso();
      const collection: FeedCollection = {
        collectionId: newId('col'),
        householdId: request.params.id,
        name: request.body.name,
        entries: [],
        createdBy: request.caller?.userId ?? null,
        createdAt: now,
        updatedAt: now,
      };
      await ctx.collections.create(collection);
      return reply.code(201).send(collection);
    },
  );

  app.get(
    `${H}/collections`,
    { schema: { tags, params: HouseholdParams, response: { 200: CollectionList, ...errors } } },
    async (request) => ({ items: (await ctx.collections.newest(request.params.id, 200)).items }),
  );

  app.get(
    `${H}/collections/:collectionId`,
    { schema: { tags, params: CollectionParams, response: { 200: FeedCollection, ...errors } } },
    async (request) => {
      const c = await ctx.collections.get(request.params.id, request.params.collectionId);
      if (!c) throw notFound('Collection not found');
      return c;
    },
  );

  app.post(
    `${H}/collections/:collectionId/entries`,
    {
      schema: {
        tags,
        description:
          'Adds an item or outfit of this household (404 otherwise); adding one twice changes nothing.',
        params: CollectionParams,
        body: AddCollectionEntryRequest,
        response: { 200: FeedCollection, ...errors },
      },
    },
    async (request) => {
      const { id, collectionId } = request.params;
      const { type, id: refId } = request.body;
      const collection = await ctx.collections.get(id, collectionId);
      if (!collection) throw notFound('Collection not found');
      // Its creator never changes, so this check holds for the atomic change below.
      assertMayChange(request.caller, 'collection', collection.createdBy);
      const exists = type === 'ITEM' ? await ctx.items.get(id, refId) : await ctx.outfits.get(id, refId);
      if (!exists) throw notFound(`${type === 'ITEM' ? 'Item' : 'Outfit'} not found`);
      const now = nowIso();
      const addedBy = request.caller?.userId ?? null;
      const updated = await ctx.collections.change(id, collectionId, (c) =>
        c.entries.some((e) => e.type === type && e.id === refId)
          ? c
          : { ...c, entries: [...c.entries, { type, id: refId, addedAt: now, addedBy }], updatedAt: now },
      );
      if (!updated) throw notFound('Collection not found');
      return updated;
    },
  );
}
