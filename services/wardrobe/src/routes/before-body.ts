import { checkBeforeBody, notFound } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { WardrobeContext } from '../context.ts';
import type { EntryRef, StoredCollection } from '../domain/collections.ts';
import { holds } from '../domain/collections.ts';
import type { StoredItem } from '../domain/items.ts';
import { assertMayChange } from '../domain/ownership.ts';

type ItemPath = { id: string; itemId: string };
type ImagePath = ItemPath & { imageId: string };
type OutfitPath = { id: string; outfitId: string };
type CollectionPath = { id: string; collectionId: string };
type EntryPath = CollectionPath & { type: EntryRef['type']; entryId: string };

const mayChangeItem = (item: StoredItem, request: FastifyRequest) =>
  assertMayChange(request.caller, 'item', item.ownerMemberId);
const mayChangeCollection = (c: StoredCollection, request: FastifyRequest) =>
  assertMayChange(request.caller, 'collection', c.createdBy);

/**
 * The wardrobe's route-level `onRequest` checks (decisions, Conventions): the item, image, outfit
 * or collection the path names exists (404) and a CHILD's ownership rule (403) are answered before
 * the body is read, so a missing item is 404 whatever the body, and a CHILD's change to another
 * member's item is 403 before its JSON or schema is looked at. One store get each; the handlers
 * check again inside their atomic changes (races). Rules that depend on the body (an
 * ownerMemberId handed over) stay in the handlers.
 */
export function wardrobeChecks(ctx: WardrobeContext) {
  const item = (rule?: (item: StoredItem, request: FastifyRequest, params: ImagePath) => void) =>
    checkBeforeBody<ImagePath, StoredItem>({
      find: (p) => ctx.items.get(p.id, p.itemId),
      missing: 'Item not found',
      ...(rule ? { rule } : {}),
    });
  return {
    /** Curate: the item exists (reading it needs no ownership). */
    itemToRead: item(),
    /** PATCH, DELETE, upload-url: the item exists and a CHILD changes only their own. */
    itemToChange: item(mayChangeItem),
    /** Confirm and delete an image: the item, a CHILD's ownership, then the image on it. */
    imageToChange: item((found, request, p) => {
      mayChangeItem(found, request);
      if (!found.images.some((i) => i.imageId === p.imageId)) throw notFound('Image not found');
    }),
    outfitToChange: checkBeforeBody<OutfitPath, { createdBy?: string | null }>({
      find: (p) => ctx.outfits.get(p.id, p.outfitId),
      missing: 'Outfit not found',
      rule: (outfit, request) => assertMayChange(request.caller, 'outfit', outfit.createdBy),
    }),
    collectionToChange: checkBeforeBody<CollectionPath, StoredCollection>({
      find: (p) => ctx.collections.get(p.id, p.collectionId),
      missing: 'Collection not found',
      rule: mayChangeCollection,
    }),
    /** Remove an entry: the collection, a CHILD's ownership, then the entry it lists. */
    entryToRemove: checkBeforeBody<EntryPath, StoredCollection>({
      find: (p) => ctx.collections.get(p.id, p.collectionId),
      missing: 'Collection not found',
      rule: (c, request, p) => {
        mayChangeCollection(c, request);
        if (!holds(c, { type: p.type, id: p.entryId })) throw notFound('Entry not found');
      },
    }),
  };
}

export type WardrobeChecks = ReturnType<typeof wardrobeChecks>;
