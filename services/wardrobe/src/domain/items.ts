import type { CreateItemRequest, ItemImage, UpdateItemRequest, WardrobeItem } from '@hs/contracts';
import type { z } from 'zod';

/**
 * `chargedBytes`: what the image holds of the household's upload quota (see upload-quota.ts).
 * `requestedBy`: the member who asked for its upload URL (the URL works only while they belong).
 */
export type StoredImage = Omit<ItemImage, 'contentPath'> & {
  key: string;
  chargedBytes?: number;
  requestedBy?: string | null;
};
export type StoredItem = Omit<WardrobeItem, 'images'> & { images: StoredImage[] };
export type Tombstone = { itemId: string; householdId: string; deletedAt: string };

/** Pending images count too, so abandoned upload URLs can't grow an item without bound. */
export const MAX_IMAGES_PER_ITEM = 10;

/** How long after its upload URL expired a pending image may still be confirmed (later: 409). */
const LATE_CONFIRM_MS = 60 * 60 * 1000;

/**
 * The item's pending images nobody can finish any more: their upload URL expired more than an
 * hour ago. A new upload replaces them (and deletes what bytes they got), so ten abandoned
 * uploads don't leave an item with no room for an image, nor their bytes on disk forever.
 */
export function abandonedUploads(item: StoredItem, nowMs: number, urlTtlSeconds: number): StoredImage[] {
  return item.images.filter(
    (i) => i.status === 'pending' && nowMs > abandonTime(Date.parse(i.createdAt), urlTtlSeconds),
  );
}

/** When an upload started at `startedAtMs` counts as abandoned (ms). */
export const abandonTime = (startedAtMs: number, urlTtlSeconds: number): number =>
  startedAtMs + urlTtlSeconds * 1000 + LATE_CONFIRM_MS;

const dedupe = <T>(list: readonly T[]): T[] => [...new Set(list)];

export function newItem(
  input: z.output<typeof CreateItemRequest>,
  ids: { itemId: string; householdId: string; ownerMemberId: string; now: string },
): StoredItem {
  return {
    itemId: ids.itemId,
    householdId: ids.householdId,
    ownerMemberId: ids.ownerMemberId,
    category: input.category,
    brand: input.brand,
    colors: dedupe(input.colors),
    season: dedupe(input.season),
    occasion: dedupe(input.occasion),
    tags: dedupe(input.tags),
    images: [],
    createdAt: ids.now,
    updatedAt: ids.now,
  };
}

export function patchItem(item: StoredItem, patch: UpdateItemRequest, now: string): StoredItem {
  const next: StoredItem = { ...item };
  if (patch.category !== undefined) next.category = patch.category;
  if (patch.ownerMemberId !== undefined) next.ownerMemberId = patch.ownerMemberId;
  if (patch.brand !== undefined) next.brand = patch.brand;
  if (patch.colors !== undefined) next.colors = dedupe(patch.colors);
  if (patch.season !== undefined) next.season = dedupe(patch.season);
  if (patch.occasion !== undefined) next.occasion = dedupe(patch.occasion);
  if (patch.tags !== undefined) next.tags = dedupe(patch.tags);
  next.updatedAt = now;
  return next;
}

/** Where a confirmed image's bytes are read (`GET .../images/{imageId}/content`, routes/images.ts). */
export const imageContentPath = (item: Pick<StoredItem, 'householdId' | 'itemId'>, imageId: string) =>
  `/api/v1/households/${encodeURIComponent(item.householdId)}/wardrobe/items/${encodeURIComponent(item.itemId)}/images/${encodeURIComponent(imageId)}/content`;

/** The client's view: storage keys stay inside the service; a confirmed image says where to read it. */
export function itemView(item: StoredItem): WardrobeItem {
  return {
    itemId: item.itemId,
    householdId: item.householdId,
    ownerMemberId: item.ownerMemberId,
    category: item.category,
    brand: item.brand,
    colors: item.colors,
    season: item.season,
    occasion: item.occasion,
    tags: item.tags,
    images: item.images.map(({ key: _key, chargedBytes: _charged, requestedBy: _by, ...image }) => ({
      ...image,
      contentPath: image.status === 'confirmed' ? imageContentPath(item, image.imageId) : null,
    })),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

/** Object key of an item image; the upload route parses it back to find the image. */
export const imageKey = (householdId: string, itemId: string, imageId: string) =>
  `households/${householdId}/items/${itemId}/${imageId}`;

export function parseImageKey(key: string): { householdId: string; itemId: string; imageId: string } | null {
  const m = /^households\/([^/]+)\/items\/([^/]+)\/([^/]+)$/.exec(key);
  return m ? { householdId: m[1]!, itemId: m[2]!, imageId: m[3]! } : null;
}

export const hasConfirmedImage = (item: StoredItem) => item.images.some((i) => i.status === 'confirmed');
