import {
  AddCollectionEntryRequest,
  CollectionEntryParams,
  CollectionList,
  CollectionParams,
  CreateCollectionRequest,
  FeedCollection,
  HouseholdParams,
} from '@hs/contracts';
import {
  conflict,
  errorResponses,
  idempotencyKeyOf,
  keyedId,
  locationOf,
  newId,
  notFound,
  nowIso,
  type ServiceApp,
} from '@hs/service-kit';
import { StoreConflictError } from '@hs/store';
import { z } from 'zod';
import type { WardrobeContext } from '../context.ts';
import {
  collectionView,
  MAX_COLLECTIONS_PER_HOUSEHOLD,
  MAX_ENTRIES_PER_COLLECTION,
  PREVIEW_ENTRIES,
  type StoredCollection,
} from '../domain/collections.ts';
import { assertMayChange } from '../domain/ownership.ts';
import { wardrobeChecks } from './before-body.ts';

const errors = errorResponses(400, 403, 404, 409, 422);
const H = '/api/v1/households/:id/wardrobe/feed';
const tags = ['feed'];
/** Named collections of items and outfits; they appear in the feed (routes/feed.ts). */
export function registerCollectionRoutes(app: ServiceApp, ctx: WardrobeContext): void {
  const checks = wardrobeChecks(ctx);
  app.post(
    `${H}/collections`,
    {
      config: { validationStatus: 400 },
      schema: {
        tags,
        description: `A named collection of items and outfits; a missing name is 400 VALIDATION_ERROR. A household has at most ${MAX_COLLECTIONS_PER_HOUSEHOLD} collections: one more is 409 CONFLICT. With an Idempotency-Key (the gateway passes the client's on) the same caller, key and body always give the same collection: a retry whose first attempt was saved here but never answered (a restart, a 504) gets it back (201) instead of a second one.`,
        params: HouseholdParams,
        body: CreateCollectionRequest,
        response: { 201: FeedCollection, ...errors },
      },
    },
    async (request, reply) => {
      const householdId = request.params.id;
      const key = idempotencyKeyOf(request.headers);
      const collectionId = key
        ? keyedId('col', key, [householdId, request.caller?.userId ?? null, 'collection'], request.body)
        : newId('col');
      const saved = (c: StoredCollection) =>
        reply.code(201).header('location', locationOf(request, c.collectionId)).send(collectionView(c));
      // The same key's earlier attempt saved it (its answer was lost), or is saving it right now.
      const first = async () => (key ? await ctx.collections.get(householdId, collectionId) : null);
      const before = await first();
      if (before) return saved(before);
      const now = nowIso();
      const collection: StoredCollection = {
        collectionId,
        householdId,
        name: request.body.name,
        entries: [],
        createdBy: request.caller?.userId ?? null,
        createdAt: now,
        updatedAt: now,
      };
      try {
        if (!(await ctx.collections.create(collection)))
          throw conflict(`A household can have at most ${MAX_COLLECTIONS_PER_HOUSEHOLD} collections`);
      } catch (err) {
        const raced = err instanceof StoreConflictError ? await first() : null;
        if (raced) return saved(raced);
        throw err;
      }
      return saved(collection);
    },
  );

  app.get(
    `${H}/collections`,
    {
      schema: {
        tags,
        description: `Every collection of the household, newest first, each with its newest ${PREVIEW_ENTRIES} entries and entryCount.`,
        params: HouseholdParams,
        response: { 200: CollectionList, ...errors },
      },
    },
    async (request) => ({
      items: (await ctx.collections.newest(request.params.id, MAX_COLLECTIONS_PER_HOUSEHOLD)).items.map((c) =>
        collectionView(c, true),
      ),
    }),
  );

  app.get(
    `${H}/collections/:collectionId`,
    { schema: { tags, params: CollectionParams, response: { 200: FeedCollection, ...errors } } },
    async (request) => {
      const c = await ctx.collections.get(request.params.id, request.params.collectionId);
      if (!c) throw notFound('Collection not found');
      return collectionView(c);
    },
  );

  app.post(
    `${H}/collections/:collectionId/entries`,
    {
      schema: {
        tags,
        description: `Adds an item or outfit of this household (404 otherwise); adding one twice changes nothing. A collection holds at most ${MAX_ENTRIES_PER_COLLECTION} entries: one more is 409 CONFLICT.`,
        params: CollectionParams,
        body: AddCollectionEntryRequest,
        response: { 200: FeedCollection, ...errors },
      },
      onRequest: checks.collectionToChange,
    },
    async (request) => {
      const { id, collectionId } = request.params;
      const { type, id: refId } = request.body;
      const collection = await ctx.collections.get(id, collectionId);
      if (!collection) throw notFound('Collection not found');
      // Its creator never changes, so this check holds for the atomic change below.
      assertMayChange(request.caller, 'collection', collection.createdBy);
      const exists = async () =>
        (type === 'ITEM' ? await ctx.items.get(id, refId) : await ctx.outfits.get(id, refId)) !== null;
      const gone = () => notFound(`${type === 'ITEM' ? 'Item' : 'Outfit'} not found`);
      if (!(await exists())) throw gone();
      const now = nowIso();
      const addedBy = request.caller?.userId ?? null;
      const updated = await ctx.collections.addEntry(id, collectionId, {
        type,
        id: refId,
        addedAt: now,
        addedBy,
      });
      if (updated === 'full')
        throw conflict(`A collection can hold at most ${MAX_ENTRIES_PER_COLLECTION} entries`);
      if (!updated) throw notFound('Collection not found');
      // Deleting the item or outfit removes it first, then cleans the collections it finds: one
      // deleted between the check above and this entry's write was never found there, so look again.
      if (!(await exists())) {
        await ctx.collections.removeEntry(id, collectionId, { type, id: refId }, nowIso());
        throw gone();
      }
      return collectionView(updated);
    },
  );

  app.delete(
    `${H}/collections/:collectionId`,
    {
      schema: {
        tags,
        description:
          "Deletes the collection (not the items and outfits it lists), freeing its place among the household's collections. A CHILD deletes only their own (403).",
        params: CollectionParams,
        response: { 204: z.null(), ...errors },
      },
      onRequest: checks.collectionToChange,
    },
    async (request, reply) => {
      const { id, collectionId } = request.params;
      const deleted = await ctx.collections.remove(id, collectionId, (c) =>
        assertMayChange(request.caller, 'collection', c.createdBy),
      );
      if (!deleted) throw notFound('Collection not found');
      return reply.code(204).send(null);
    },
  );

  app.delete(
    `${H}/collections/:collectionId/entries/:type/:entryId`,
    {
      schema: {
        tags,
        description:
          'Removes one entry (the item or outfit itself stays); 404 when the collection does not list it. A CHILD changes only their own collections (403).',
        params: CollectionEntryParams,
        response: { 204: z.null(), ...errors },
      },
      onRequest: checks.entryToRemove,
    },
    async (request, reply) => {
      const { id, collectionId, type, entryId } = request.params;
      const collection = await ctx.collections.get(id, collectionId);
      if (!collection) throw notFound('Collection not found');
      // Its creator never changes, so this check holds for the atomic change below.
      assertMayChange(request.caller, 'collection', collection.createdBy);
      if (!(await ctx.collections.removeEntry(id, collectionId, { type, id: entryId }, nowIso())))
        throw notFound('Entry not found');
      return reply.code(204).send(null);
    },
  );
}
