import {
  CreateOutfitRequest,
  CurationResult,
  HouseholdParams,
  ItemParams,
  Outfit,
  OutfitList,
  OutfitParams,
} from '@hs/contracts';
import {
  badRequest,
  conflict,
  errorResponses,
  idempotencyKeyOf,
  keyedId,
  locationOf,
  newId,
  notFound,
  nowIso,
  type ServiceApp,
  serviceUnavailable,
} from '@hs/service-kit';
import { StoreConflictError } from '@hs/store';
import { z } from 'zod';
import type { WardrobeContext } from '../context.ts';
import { hasConfirmedImage } from '../domain/items.ts';
import { assertMayChange } from '../domain/ownership.ts';
import { curateItem } from '../flows/curate-item.ts';
import { forgetOutfit } from '../flows/forget-references.ts';
import { wardrobeChecks } from './before-body.ts';

const errors = errorResponses(400, 403, 404, 422, 502, 503);
const createErrors = errorResponses(400, 403, 404, 409, 422, 502, 503);
const H = '/api/v1/households/:id/wardrobe';
const DISABLED = 'Curation is not enabled in this environment';

/**
 * Saves a new outfit (409 at WARDROBE_MAX_OUTFITS_PER_HOUSEHOLD). Under an Idempotency-Key its id
 * is the key's: a retry racing the first attempt gets the outfit that attempt saved.
 */
async function createOutfit(ctx: WardrobeContext, outfit: Outfit, keyed: boolean): Promise<Outfit> {
  try {
    if (await ctx.outfits.create(outfit)) return outfit;
  } catch (err) {
    const first =
      keyed &&
      err instanceof StoreConflictError &&
      (await ctx.outfits.get(outfit.householdId, outfit.outfitId));
    if (first) return first;
    throw err;
  }
  throw conflict(
    `This household already has ${ctx.outfits.maxOutfits} outfits (WARDROBE_MAX_OUTFITS_PER_HOUSEHOLD); delete some first`,
  );
}

/**
 * Run once the outfit is stored: an item deleted meanwhile must not stay in it. The item's delete
 * removes the item first and then cleans the outfits it finds, so an outfit written after that
 * search is never cleaned by it; re-reading the items after the write catches exactly that case.
 * An outfit this request just wrote (MANUAL: exactly the items asked for) whose item is gone is
 * taken back whole and answered 404 like any missing item. One saved earlier (a keyed retry's)
 * belongs to the family already: the gone items are dropped as the item's delete would drop them
 * (404 only when none is left), as is done for a curated look.
 */
async function withoutVanishedItems(
  ctx: WardrobeContext,
  outfit: Outfit,
  writtenHere: boolean,
): Promise<Outfit> {
  const { householdId, outfitId } = outfit;
  const found = await ctx.items.getMany(householdId, outfit.itemIds);
  const gone = outfit.itemIds.filter((itemId) => !found.has(itemId));
  if (gone.length === 0) return outfit;
  const missing = notFound(`Item ${gone[0]} not found`);
  if (outfit.source === 'MANUAL' && writtenHere) {
    if (await ctx.outfits.delete(householdId, outfitId)) await forgetOutfit(ctx, householdId, outfitId);
    throw missing;
  }
  const now = nowIso();
  for (const itemId of gone) {
    if ((await ctx.outfits.withoutItem(householdId, outfitId, itemId, now)) === 'deleted') {
      await forgetOutfit(ctx, householdId, outfitId);
      throw missing;
    }
  }
  const current = await ctx.outfits.get(householdId, outfitId);
  if (!current) throw missing;
  return current;
}

export function registerCurationRoutes(app: ServiceApp, ctx: WardrobeContext): void {
  const checks = wardrobeChecks(ctx);
  const enabled = ctx.config.curation.backend !== 'disabled';

  app.post(
    `${H}/items/:itemId/curate`,
    {
      schema: {
        tags: ['curation'],
        description:
          'Looks built around the item from the wardrobe (and active offers filling a missing category), each with why. Needs a confirmed image (400); 503 when CURATION_BACKEND=disabled.',
        params: ItemParams,
        response: { 200: CurationResult, ...errors },
      },
      onRequest: checks.itemToRead,
    },
    async (request) => {
      const item = await ctx.items.get(request.params.id, request.params.itemId);
      if (!item) throw notFound('Item not found');
      if (!enabled) throw serviceUnavailable(DISABLED);
      if (!hasConfirmedImage(item)) throw badRequest('The item has no confirmed image yet');
      return curateItem(ctx, item, request.id);
    },
  );

  app.post(
    `${H}/outfits`,
    {
      schema: {
        tags: ['outfits'],
        description:
          "With itemIds: saves exactly those items (each must be an item of this household, else 404). Without: saves the best curated look around anchorItemId (default: the most recently changed item); 503 when curation is disabled, 400 when the wardrobe is empty; 409 CONFLICT when the household already holds WARDROBE_MAX_OUTFITS_PER_HOUSEHOLD outfits (default 2000; deleting one frees its place). With an Idempotency-Key (the gateway passes the client's on) the same caller, key and body always give the same outfit: a retry whose first attempt was saved here but never answered (a restart, a 504) gets that outfit back (201) instead of a second one.",
        params: HouseholdParams,
        body: CreateOutfitRequest,
        response: { 201: Outfit, ...createErrors },
      },
    },
    async (request, reply) => {
      const householdId = request.params.id;
      const { itemIds, anchorItemId, name } = request.body;
      const key = idempotencyKeyOf(request.headers);
      const outfitId = key
        ? keyedId('out', key, [householdId, request.caller?.userId ?? null, 'outfit'], request.body)
        : newId('out');
      const first = key ? await ctx.outfits.get(householdId, outfitId) : null;
      const saved = (outfit: Outfit) =>
        reply.code(201).header('location', locationOf(request, outfit.outfitId)).send(outfit);
      const settled = async (outfit: Outfit, writtenHere: boolean) =>
        saved(await withoutVanishedItems(ctx, outfit, writtenHere));
      // Written here unless a retry racing this one saved it first (createOutfit hands that back).
      const written = async (outfit: Outfit) => {
        const stored = await createOutfit(ctx, outfit, key !== null);
        return settled(stored, stored === outfit);
      };
      if (first) return settled(first, false);
      const now = nowIso();
      const base = {
        outfitId,
        householdId,
        createdBy: request.caller?.userId ?? null,
        createdAt: now,
        updatedAt: now,
      };
      if (itemIds) {
        const unique = [...new Set(itemIds)];
        const found = await ctx.items.getMany(householdId, unique);
        const missing = unique.find((id) => !found.has(id));
        if (missing) throw notFound(`Item ${missing} not found`);
        const outfit: Outfit = {
          ...base,
          name: name ?? 'Outfit',
          itemIds: unique,
          offerIds: [],
          source: 'MANUAL',
          why: [],
        };
        return written(outfit);
      }
      if (!enabled) throw serviceUnavailable(DISABLED);
      const anchor = anchorItemId
        ? await ctx.items.get(householdId, anchorItemId)
        : ((await ctx.items.newest(householdId, 1)).items[0] ?? null);
      if (anchorItemId && !anchor) throw notFound(`Item ${anchorItemId} not found`);
      if (!anchor) throw badRequest('The wardrobe has no items to build an outfit from');
      const curated = await curateItem(ctx, anchor, request.id);
      const best = curated.looks[0];
      const outfit: Outfit = {
        ...base,
        name: name ?? `Look around ${anchor.brand || anchor.category.toLowerCase()}`,
        itemIds: best?.itemIds ?? [anchor.itemId],
        offerIds: best?.offerIds ?? [],
        source: 'CURATED',
        why: best?.why ?? ['Nothing in the wardrobe or the offers completes this item yet', ...curated.notes],
      };
      return written(outfit);
    },
  );

  app.get(
    `${H}/outfits`,
    { schema: { tags: ['outfits'], params: HouseholdParams, response: { 200: OutfitList, ...errors } } },
    async (request) => ({ items: (await ctx.outfits.newest(request.params.id, 200)).items }),
  );

  app.get(
    `${H}/outfits/:outfitId`,
    { schema: { tags: ['outfits'], params: OutfitParams, response: { 200: Outfit, ...errors } } },
    async (request) => {
      const outfit = await ctx.outfits.get(request.params.id, request.params.outfitId);
      if (!outfit) throw notFound('Outfit not found');
      return outfit;
    },
  );

  app.delete(
    `${H}/outfits/:outfitId`,
    {
      schema: {
        tags: ['outfits'],
        description: 'Deletes the outfit; collections stop listing it.',
        params: OutfitParams,
        response: { 204: z.null(), ...errors },
      },
      onRequest: checks.outfitToChange,
    },
    async (request, reply) => {
      const deleted = await ctx.outfits.delete(request.params.id, request.params.outfitId, (outfit) =>
        assertMayChange(request.caller, 'outfit', outfit.createdBy),
      );
      if (!deleted) throw notFound('Outfit not found');
      await forgetOutfit(ctx, request.params.id, request.params.outfitId);
      return reply.code(204).send(null);
    },
  );
}
