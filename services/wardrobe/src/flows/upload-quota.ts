import { conflict, nowIso } from '@hs/service-kit';
import type { UploadSlot } from '../adapters/upload-usage-repository.ts';
import type { WardrobeContext } from '../context.ts';
import { abandonedUploads } from '../domain/items.ts';
import { chargeOfAll } from '../domain/upload-quota.ts';

const quotaUsedUp = (quota: number) =>
  conflict(
    `The household's image storage is full (${quota} bytes, WARDROBE_MAX_UPLOAD_BYTES_PER_HOUSEHOLD); delete items with images to make room`,
  );

const tooManyPending = (bound: number) =>
  conflict(
    `You have ${bound} image uploads waiting to be confirmed (WARDROBE_MAX_PENDING_UPLOADS_PER_MEMBER); confirm or delete them, or wait until they are dropped (an hour after their URL expires)`,
  );

/**
 * When a full household last looked for abandoned uploads and found none. Looking reads every
 * item of the household, so a client asking again and again at a full quota looks once a minute.
 */
const fruitlessReclaims = new WeakMap<WardrobeContext, Map<string, number>>();
const RECLAIM_AGAIN_AFTER_MS = 60_000;

function mayReclaim(ctx: WardrobeContext, householdId: string, nowMs: number): boolean {
  const at = fruitlessReclaims.get(ctx)?.get(householdId);
  return at === undefined || nowMs - at >= RECLAIM_AGAIN_AFTER_MS;
}

function noteFruitless(ctx: WardrobeContext, householdId: string, nowMs: number): void {
  const seen = fruitlessReclaims.get(ctx) ?? new Map<string, number>();
  fruitlessReclaims.set(ctx, seen);
  // Bounded: entries older than the wait say nothing any more.
  if (seen.size >= 10_000)
    for (const [id, at] of seen) if (nowMs - at >= RECLAIM_AGAIN_AFTER_MS) seen.delete(id);
  seen.set(householdId, nowMs);
}

/**
 * Takes the bytes of one upload URL from the household's quota: UPLOAD_MAX_BYTES, or what is
 * left when less is. When nothing is left, uploads abandoned anywhere in the household (URL
 * expired over an hour ago, never confirmed) are dropped and the household's count is set to what
 * its images hold (which also heals a count a failed give-back left too high); at most once a
 * minute while that frees nothing. Still nothing left is 409 CONFLICT. A member who already holds
 * WARDROBE_MAX_PENDING_UPLOADS_PER_MEMBER unconfirmed upload URLs gets 409 CONFLICT too (`slot`:
 * the member's URL; null for a call with no member).
 */
export async function reserveUploadBytes(
  ctx: WardrobeContext,
  householdId: string,
  slot: UploadSlot | null,
): Promise<number> {
  const { maxBytes, maxBytesPerHousehold } = ctx.config.uploads;
  const countExisting = async () =>
    (await ctx.items.all(householdId)).reduce((sum, item) => sum + chargeOfAll(item.images), 0);
  const take = async () => {
    const reservation = await ctx.uploadUsage.reserve(
      householdId,
      maxBytes,
      maxBytesPerHousehold,
      countExisting,
      slot,
    );
    if (reservation.memberAtBound) throw tooManyPending(slot?.maxPerMember ?? 0);
    return reservation.granted;
  };
  const granted = await take();
  if (granted > 0) return granted;
  const nowMs = Date.now();
  if (!mayReclaim(ctx, householdId, nowMs)) throw quotaUsedUp(maxBytesPerHousehold);
  await ctx.uploadUsage.recount(householdId, await dropAbandonedAndCount(ctx, householdId, nowMs));
  const retried = await take();
  if (retried > 0) return retried;
  noteFruitless(ctx, householdId, nowMs);
  throw quotaUsedUp(maxBytesPerHousehold);
}

/** Drops every abandoned upload of the household with its bytes; what its images then hold. */
async function dropAbandonedAndCount(
  ctx: WardrobeContext,
  householdId: string,
  nowMs: number,
): Promise<number> {
  const ttl = ctx.config.uploads.urlTtlSeconds;
  let held = 0;
  for (const item of await ctx.items.all(householdId)) {
    if (abandonedUploads(item, nowMs, ttl).length === 0) {
      held += chargeOfAll(item.images);
      continue;
    }
    let dropped: typeof item.images = [];
    const result = await ctx.items.change(householdId, item.itemId, (current) => {
      dropped = abandonedUploads(current, nowMs, ttl);
      return { ...current, images: current.images.filter((i) => !dropped.includes(i)), updatedAt: nowIso() };
    });
    if (result.kind !== 'done' || !result.doc) continue;
    held += chargeOfAll(result.doc.images);
    await Promise.all(dropped.map((i) => ctx.storage.delete(i.key).catch(() => undefined)));
  }
  return held;
}
