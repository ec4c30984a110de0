import {
  CreateItemRequest,
  HouseholdParams,
  IfMatchHeaders,
  IfNoneMatchHeaders,
  ItemPage,
  ItemParams,
  ListItemsQuery,
  UpdateItemRequest,
  WardrobeItem,
} from '@hs/contracts';
import {
  type AppError,
  badRequest,
  conflict,
  errorResponses,
  idempotencyKeyOf,
  keyedId,
  locationOf,
  newId,
  notFound,
  nowIso,
  requireCaller,
  type ServiceApp,
} from '@hs/service-kit';
import { StoreConflictError, StoreQueryError } from '@hs/store';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { WardrobeContext } from '../context.ts';
import { etagOf } from '../domain/etag.ts';
import { itemView, newItem, patchItem, type StoredItem } from '../domain/items.ts';
import { assertMayChange } from '../domain/ownership.ts';
import { chargeOfAll } from '../domain/upload-quota.ts';
import { forgetItem } from '../flows/forget-references.ts';
import { wardrobeChecks } from './before-body.ts';
import { checkIfMatch, withEtag } from './http-cache.ts';

const errors = errorResponses(400, 401, 403, 404, 412, 422);
const createErrors = errorResponses(400, 401, 403, 404, 409, 422);
const tags = ['items'];
const H = '/api/v1/households/:id/wardrobe';
const NOT_MEMBER = 'ownerMemberId is not a household member';
const EPOCH = '1970-01-01T00:00:00.000Z';

export function registerItemRoutes(app: ServiceApp, ctx: WardrobeContext): void {
  const checks = wardrobeChecks(ctx);
  const assertMember = async (request: FastifyRequest, householdId: string, memberId: string) => {
    if (request.caller?.userId === memberId) return; // the gateway already checked the caller
    if (!(await ctx.members.isMember(householdId, memberId, request.id))) throw badRequest(NOT_MEMBER);
  };

  /**
   * Saves a new item (409 at WARDROBE_MAX_ITEMS_PER_HOUSEHOLD). Under an Idempotency-Key its id is
   * the key's: a retry racing the first attempt finds the item that attempt saved.
   */
  const createItem = async (item: StoredItem, keyed: boolean): Promise<StoredItem> => {
    try {
      if (await ctx.items.create(item)) return item;
    } catch (err) {
      const first =
        keyed && err instanceof StoreConflictError && (await ctx.items.get(item.householdId, item.itemId));
      if (first) return first;
      throw err;
    }
    throw conflict(
      `This household already has ${ctx.items.maxItems} wardrobe items (WARDROBE_MAX_ITEMS_PER_HOUSEHOLD); delete some first`,
    );
  };

  app.post(
    `${H}/items`,
    {
      schema: {
        tags,
        description:
          "Adds an item (a CHILD only for themselves). 409 CONFLICT when the household already holds WARDROBE_MAX_ITEMS_PER_HOUSEHOLD items (default 5000; deleting one frees its place at once). With an Idempotency-Key (the gateway passes the client's on) the same caller, key and body always give the same item: a retry whose first attempt was saved here but never answered (a restart, a 504) gets that item back (201) instead of a second one.",
        params: HouseholdParams,
        body: CreateItemRequest,
        response: { 201: WardrobeItem, ...createErrors },
      },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const householdId = request.params.id;
      const ownerMemberId = request.body.ownerMemberId ?? caller.userId;
      assertMayChange(caller, 'item', ownerMemberId);
      await assertMember(request, householdId, ownerMemberId);
      const key = idempotencyKeyOf(request.headers);
      const itemId = key
        ? keyedId('item', key, [householdId, caller.userId, 'item'], request.body)
        : newId('item');
      const item =
        (key && (await ctx.items.get(householdId, itemId))) ||
        (await createItem(
          newItem(request.body, { itemId, householdId, ownerMemberId, now: nowIso() }),
          key !== null,
        ));
      const view = itemView(item);
      return reply
        .code(201)
        .header('etag', etagOf(view))
        .header('location', locationOf(request, view.itemId))
        .send(view);
    },
  );

  app.get(
    `${H}/items`,
    {
      schema: {
        tags,
        description:
          'Items by updatedAt ascending. With updatedSince: only changes at or after it, plus deletedItemIds. Strong ETag; If-None-Match gives 304.',
        params: HouseholdParams,
        querystring: ListItemsQuery,
        headers: IfNoneMatchHeaders,
        response: { 200: ItemPage, 304: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { limit, cursor, ...filter } = request.query;
      const since = filter.updatedSince ? new Date(filter.updatedSince).toISOString() : undefined;
      let page: Awaited<ReturnType<typeof ctx.items.list>>;
      try {
        page = await ctx.items.list(
          request.params.id,
          { ...filter, updatedSince: since },
          limit,
          cursor ?? null,
        );
      } catch (err) {
        if (err instanceof StoreQueryError) throw badRequest('Invalid cursor');
        throw err;
      }
      const tombstones = since ? await ctx.items.deletedSince(request.params.id, since) : [];
      // The newest change included: deterministic, so an unchanged answer keeps its ETag.
      // ISO timestamps in UTC sort as strings.
      const syncedAt = [
        since ?? EPOCH,
        ...page.items.map((i) => i.updatedAt),
        ...tombstones.map((t) => t.deletedAt),
      ]
        .sort()
        .at(-1)!;
      const body = {
        items: page.items.map(itemView),
        nextCursor: page.nextCursor,
        deletedItemIds: tombstones.map((t) => t.itemId),
        syncedAt,
      };
      return withEtag(request, reply, body);
    },
  );

  app.get(
    `${H}/items/:itemId`,
    {
      schema: {
        tags,
        params: ItemParams,
        headers: IfNoneMatchHeaders,
        response: { 200: WardrobeItem, 304: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const item = await ctx.items.get(request.params.id, request.params.itemId);
      if (!item) throw notFound('Item not found');
      return withEtag(request, reply, itemView(item));
    },
  );

  app.patch(
    `${H}/items/:itemId`,
    {
      schema: {
        tags,
        description: 'Partial update. If-Match with a stale ETag gives 412 PRECONDITION_FAILED.',
        params: ItemParams,
        headers: IfMatchHeaders,
        body: UpdateItemRequest,
        response: { 200: WardrobeItem, ...errors },
      },
      onRequest: checks.itemToChange,
    },
    async (request, reply) => {
      const { id, itemId } = request.params;
      const { ownerMemberId } = request.body;
      if (ownerMemberId) {
        // Handing the item over is a change to the new owner's item too (before asking the gateway).
        assertMayChange(request.caller, 'item', ownerMemberId);
        await assertMember(request, id, ownerMemberId);
      }
      const now = nowIso();
      const result = await ctx.items.change(id, itemId, (item: StoredItem) => {
        assertMayChange(request.caller, 'item', item.ownerMemberId);
        checkIfMatch(request, itemView(item));
        return patchItem(item, request.body, now);
      });
      if (result.kind === 'missing') throw notFound('Item not found');
      if (result.kind === 'refused') throw result.reason as AppError;
      const view = itemView(result.doc!);
      return reply.header('etag', etagOf(view)).send(view);
    },
  );

  app.delete(
    `${H}/items/:itemId`,
    {
      schema: {
        tags,
        description:
          'Deletes the item and its images; leaves a tombstone for updatedSince syncs; outfits drop it (an outfit left empty is deleted) and collections stop listing it. If-Match as for PATCH.',
        params: ItemParams,
        headers: IfMatchHeaders,
        response: { 204: z.null(), ...errors },
      },
      onRequest: checks.itemToChange,
    },
    async (request, reply) => {
      const { id, itemId } = request.params;
      const result = await ctx.items.remove(
        id,
        itemId,
        (item) => {
          assertMayChange(request.caller, 'item', item.ownerMemberId);
          checkIfMatch(request, itemView(item));
        },
        nowIso(),
      );
      if (result.kind === 'missing') throw notFound('Item not found');
      if (result.kind === 'refused') throw result.reason as AppError;
      // Blobs after the record: an orphaned file is harmless, a record without its file is not.
      await Promise.all(result.doc.images.map((img) => ctx.storage.delete(img.key).catch(() => undefined)));
      await forgetItem(ctx, id, itemId);
      await ctx.uploadUsage.release(
        id,
        chargeOfAll(result.doc.images),
        result.doc.images.map((i) => i.imageId),
      );
      return reply.code(204).send(null);
    },
  );
}
