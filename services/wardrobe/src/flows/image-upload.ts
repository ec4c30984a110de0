import {
  type ImageContentType,
  sniffImageType,
  type UploadUrlResponse,
  type WardrobeItem,
} from '@hs/contracts';
import {
  type AppError,
  badRequest,
  type Caller,
  conflict,
  newId,
  notFound,
  nowIso,
  runFlow,
  upstreamError,
} from '@hs/service-kit';
import type { SignedUpload } from '@hs/storage';
import type { Change } from '../adapters/item-repository.ts';
import type { WardrobeContext } from '../context.ts';
import {
  abandonedUploads,
  abandonTime,
  imageKey,
  itemView,
  MAX_IMAGES_PER_ITEM,
  type StoredImage,
  type StoredItem,
} from '../domain/items.ts';
import { assertMayChange } from '../domain/ownership.ts';
import { chargeOf, chargeOfAll } from '../domain/upload-quota.ts';
import { reserveUploadBytes } from './upload-quota.ts';

type ItemRef = { householdId: string; itemId: string };

/** The item's images but its abandoned uploads, with room for one more (409 past the limit). */
const keptWithRoom = (ctx: WardrobeContext, item: StoredItem, nowMs: number) => {
  const abandoned = new Set(abandonedUploads(item, nowMs, ctx.config.uploads.urlTtlSeconds));
  const kept = item.images.filter((i) => !abandoned.has(i));
  if (kept.length >= MAX_IMAGES_PER_ITEM) throw conflict(`An item has at most ${MAX_IMAGES_PER_ITEM} images`);
  return { kept, abandoned: [...abandoned] };
};

/** The item after an atomic change, or the change's refusal. */
function changed(result: Change<StoredItem | null>): StoredItem {
  if (result.kind === 'missing') throw notFound('Item not found');
  if (result.kind === 'refused') throw result.reason as AppError;
  return result.doc!;
}

/**
 * Starting an image upload is four named steps:
 *  1. check the item exists and has room for one more image (409 past MAX_IMAGES_PER_ITEM;
 *     abandoned uploads don't count: step 4 drops them and their bytes);
 *  2. take the URL's bytes from the household's quota (409 when it is used up, or when the
 *     member already holds WARDROBE_MAX_PENDING_UPLOADS_PER_MEMBER unconfirmed URLs; undo: give
 *     them back), so the URL allows at most what is left;
 *  3. sign the upload URL (before recording, so a signing failure leaves no pending image;
 *     a signature nobody uses needs no undo, it expires);
 *  4. record the image as pending on the item (atomic; the room is checked again there) and
 *     give back the bytes of the abandoned uploads it drops.
 */
export async function startImageUpload(
  ctx: WardrobeContext,
  caller: Caller | null,
  { householdId, itemId }: ItemRef,
  file: { contentType: ImageContentType; fileName?: string | undefined },
): Promise<UploadUrlResponse> {
  const imageId = newId('img');
  const key = imageKey(householdId, itemId, imageId);
  const startedAt = Date.now();
  const state = {
    signed: undefined as SignedUpload | undefined,
    dropped: [] as StoredImage[],
    reserved: 0,
  };
  await runFlow(
    [
      {
        name: 'check room',
        run: async () => {
          const item = await ctx.items.get(householdId, itemId);
          if (!item) throw notFound('Item not found');
          assertMayChange(caller, 'item', item.ownerMemberId);
          keptWithRoom(ctx, item, startedAt);
        },
      },
      {
        name: 'take quota',
        run: async (s) => {
          const { urlTtlSeconds, maxPendingPerMember } = ctx.config.uploads;
          const slot = caller && {
            memberId: caller.userId,
            imageId,
            abandonAt: abandonTime(startedAt, urlTtlSeconds),
            maxPerMember: maxPendingPerMember,
          };
          s.reserved = await reserveUploadBytes(ctx, householdId, slot);
        },
        undo: async (s) => {
          await ctx.uploadUsage.release(householdId, s.reserved, [imageId]);
        },
      },
      {
        name: 'sign upload URL',
        run: async (s) => {
          try {
            s.signed = await ctx.storage.signUpload(key, {
              contentType: file.contentType,
              maxBytes: s.reserved,
              expiresInSeconds: ctx.config.uploads.urlTtlSeconds,
            });
          } catch (err) {
            throw upstreamError('Signed upload URL generation failed', err);
          }
        },
      },
      {
        name: 'record pending image',
        run: async (s) => {
          const image: StoredImage = {
            imageId,
            status: 'pending',
            contentType: file.contentType,
            fileName: file.fileName ?? null,
            size: null,
            sha256: null,
            ref: ctx.storage.refFor(key),
            createdAt: nowIso(),
            confirmedAt: null,
            key,
            chargedBytes: s.reserved,
            requestedBy: caller?.userId ?? null,
          };
          changed(
            await ctx.items.change(householdId, itemId, (current) => {
              assertMayChange(caller, 'item', current.ownerMemberId);
              const { kept, abandoned } = keptWithRoom(ctx, current, startedAt);
              s.dropped = abandoned;
              return { ...current, images: [...kept, image], updatedAt: image.createdAt };
            }),
          );
        },
      },
    ],
    state,
  );
  // Their URLs expired long ago: nothing can write these keys again.
  await ctx.uploadUsage.release(
    householdId,
    chargeOfAll(state.dropped),
    state.dropped.map((i) => i.imageId),
  );
  await Promise.all(state.dropped.map((i) => ctx.storage.delete(i.key).catch(() => undefined)));
  const signed = state.signed as SignedUpload;
  return {
    imageId,
    uploadUrl: signed.url,
    method: 'PUT',
    headers: signed.headers,
    expiresAt: signed.expiresAt,
  };
}

/**
 * Confirming an image is three named steps:
 *  1. find the pending image (404; already confirmed is 409);
 *  2. read the stored bytes, not just their metadata: with cloudstore they went straight to the
 *     bucket, so this is the one place that can tell whether they really are the signed image
 *     type; bytes of another type are deleted (400, upload again);
 *  3. mark it confirmed with size and checksum (atomic; once).
 */
export async function confirmImage(
  ctx: WardrobeContext,
  caller: Caller | null,
  { householdId, itemId, imageId }: ItemRef & { imageId: string },
): Promise<WardrobeItem> {
  const item = await ctx.items.get(householdId, itemId);
  const image = item?.images.find((i) => i.imageId === imageId);
  if (!item) throw notFound('Item not found');
  assertMayChange(caller, 'item', item.ownerMemberId);
  if (!image) throw notFound('Image not found');
  if (image.status === 'confirmed') throw conflict('Image is already confirmed');
  // The same deadline the next upload URL drops it by: confirming is the upload's last step.
  if (abandonedUploads(item, Date.now(), ctx.config.uploads.urlTtlSeconds).includes(image))
    throw conflict('This upload was abandoned (its URL expired over an hour ago); ask for a new upload URL');

  const stored = await ctx.storage.get(image.key);
  if (!stored || stored.bytes.byteLength === 0) throw badRequest('No image bytes have been uploaded yet');
  if (sniffImageType(stored.bytes) !== image.contentType) {
    await ctx.storage.delete(image.key).catch(() => undefined);
    throw badRequest(`The uploaded bytes are not a ${image.contentType} image; upload it again`);
  }

  const info = stored.info;
  const now = nowIso();
  let pendingCharge = 0;
  const doc = changed(
    await ctx.items.change(householdId, itemId, (current) => {
      assertMayChange(caller, 'item', current.ownerMemberId);
      const at = current.images.findIndex((i) => i.imageId === imageId);
      if (at < 0) throw notFound('Image not found');
      if (current.images[at]!.status === 'confirmed') throw conflict('Image is already confirmed');
      pendingCharge = chargeOf(current.images[at]!);
      const confirmed: StoredImage = {
        ...current.images[at]!,
        status: 'confirmed',
        size: info.size,
        chargedBytes: info.size,
        contentType: image.contentType,
        sha256: info.sha256,
        confirmedAt: now,
      };
      const images = current.images.map((i, n) => (n === at ? confirmed : i));
      return { ...current, images, updatedAt: now };
    }),
  );
  // The URL's bytes were taken from the quota: keep what the image holds, give back the rest.
  // The member's upload URL is used: it no longer counts against their bound.
  const unused = pendingCharge - info.size;
  if (unused < 0) await ctx.uploadUsage.add(householdId, -unused).catch(() => undefined);
  await ctx.uploadUsage.release(householdId, Math.max(0, unused), [imageId]);
  return itemView(doc);
}
