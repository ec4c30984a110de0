import {
  Feed,
  type FeedEntry,
  FeedQuery,
  type FeedSource,
  HouseholdParams,
  IfNoneMatchHeaders,
} from '@hs/contracts';
import { errorResponses, type ServiceApp } from '@hs/service-kit';
import { z } from 'zod';
import type { WardrobeContext } from '../context.ts';
import { collectionView, PREVIEW_ENTRIES } from '../domain/collections.ts';
import { mergeFeed } from '../domain/feed.ts';
import { itemView } from '../domain/items.ts';
import { withEtag } from './http-cache.ts';

const errors = errorResponses(400, 403, 404, 422);
const H = '/api/v1/households/:id/wardrobe/feed';
const tags = ['feed'];

export function registerFeedRoutes(app: ServiceApp, ctx: WardrobeContext): void {
  const read: Record<
    Exclude<FeedSource, 'ALL'>,
    (householdId: string, limit: number, requestId: string) => Promise<FeedEntry[]>
  > = {
    WARDROBE: async (h, limit) =>
      (await ctx.items.newest(h, limit)).items.map((i) => ({
        type: 'ITEM',
        id: i.itemId,
        at: i.updatedAt,
        item: itemView(i),
      })),
    OUTFITS: async (h, limit) =>
      (await ctx.outfits.newest(h, limit)).items.map((o) => ({
        type: 'OUTFIT',
        id: o.outfitId,
        at: o.updatedAt,
        outfit: o,
      })),
    COLLECTIONS: async (h, limit) =>
      (await ctx.collections.newest(h, limit)).items.map((c) => ({
        type: 'COLLECTION',
        id: c.collectionId,
        at: c.updatedAt,
        collection: collectionView(c, true),
      })),
    OFFERS: async (h, limit, requestId) =>
      (await ctx.offers.search({ householdId: h, limit: Math.min(limit, 100) }, requestId)).map((o) => ({
        type: 'OFFER',
        id: o.offerId,
        at: o.updatedAt,
        offer: o,
      })),
  };

  app.get(
    H,
    {
      config: { validationStatus: 400 },
      schema: {
        tags,
        description: `Items, outfits, active offers and collections (each with its newest ${PREVIEW_ENTRIES} entries and entryCount) of the household, newest first. An unsupported source is 400 VALIDATION_ERROR. A source that cannot be read (commerce down) is listed in unavailableSources. Strong ETag; If-None-Match gives 304.`,
        params: HouseholdParams,
        querystring: FeedQuery,
        headers: IfNoneMatchHeaders,
        response: { 200: Feed, 304: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { source, limit } = request.query;
      const wanted = source === 'ALL' ? (Object.keys(read) as (keyof typeof read)[]) : [source];
      const unavailableSources: FeedSource[] = [];
      const lists = await Promise.all(
        wanted.map((s) =>
          read[s](request.params.id, limit, request.id).catch((err) => {
            if (s !== 'OFFERS') throw err;
            unavailableSources.push(s);
            return [];
          }),
        ),
      );
      return withEtag(request, reply, { source, entries: mergeFeed(lists, limit), unavailableSources });
    },
  );
}
