import {
  ImageParams,
  ItemParams,
  sniffImageType,
  UploadUrlRequest,
  UploadUrlResponse,
  WardrobeItem,
} from '@hs/contracts';
import {
  type AppError,
  badRequest,
  conflict,
  errorResponses,
  newId,
  notFound,
  nowIso,
  type ServiceApp,
  upstreamError,
} from '@hs/service-kit';
import type { SignedUpload } from '@hs/storage';
import type { WardrobeContext } from '../context.ts';
import { etagOf } from '../domain/etag.ts';
import {
  assertMayChange,
  imageKey,
  itemView,
  MAX_IMAGES_PER_ITEM,
  type StoredImage,
} from '../domain/items.ts';

const errors = errorResponses(400, 403, 404, 409, 422, 502);
const tags = ['images'];
const H = '/api/v1/households/:id/wardrobe';

export function registerImageRoutes(app: ServiceApp, ctx: WardrobeContext): void {
  app.post(
    `${H}/items/:itemId/upload-url`,
    {
      schema: {
        tags,
        description:
          'A signed, expiring URL to PUT one image (png, jpeg or webp, at most UPLOAD_MAX_BYTES) with the returned headers; then confirm it.',
        params: ItemParams,
        body: UploadUrlRequest,
        response: { 200: UploadUrlResponse, ...errors },
      },
    },
    async (request) => {
      const { id, itemId } = request.params;
      const item = await ctx.items.get(id, itemId);
      if (!item) throw notFound('Item not found');
      assertMayChange(request.caller, item);
      if (item.images.length >= MAX_IMAGES_PER_ITEM)
        throw conflict(`An item has at most ${MAX_IMAGES_PER_ITEM} images`);
      const imageId = newId('img');
      const key = imageKey(id, itemId, imageId);
      // Sign before recording, so a signing failure leaves no pending image behind.
      let signed: SignedUpload;
      try {
        signed = await ctx.storage.signUpload(key, {
          contentType: request.body.contentType,
          maxBytes: ctx.config.uploads.maxBytes,
          expiresInSeconds: ctx.config.uploads.urlTtlSeconds,
        });
      } catch (err) {
        throw upstreamError('Signed upload URL generation failed', err);
      }
      const image: StoredImage = {
        imageId,
        status: 'pending',
        contentType: request.body.contentType,
        fileName: request.body.fileName ?? null,
        size: null,
        sha256: null,
        ref: ctx.storage.refFor(key),
        createdAt: nowIso(),
        confirmedAt: null,
        key,
      };
      const result = await ctx.items.change(id, itemId, (current) => {
        if (current.images.length >= MAX_IMAGES_PER_ITEM)
          throw conflict(`An item has at most ${MAX_IMAGES_PER_ITEM} images`);
        return { ...current, images: [...current.images, image], updatedAt: image.createdAt };
      });
      if (result.kind === 'missing') throw notFound('Item not found');
      if (result.kind === 'refused') throw result.reason as AppError;
      return {
        imageId,
        uploadUrl: signed.url,
        method: 'PUT' as const,
        headers: signed.headers,
        expiresAt: signed.expiresAt,
      };
    },
  );

  app.post(
    `${H}/items/:itemId/images/:imageId/confirm`,
    {
      schema: {
        tags,
        description:
          'Checks the bytes arrived and really are the signed image type (else 400; bytes of another type are deleted), records size, content type and checksum, and marks the image confirmed (once; again is 409). Returns the item.',
        params: ImageParams,
        response: { 200: WardrobeItem, ...errors },
      },
    },
    async (request, reply) => {
      const { id, itemId, imageId } = request.params;
      const item = await ctx.items.get(id, itemId);
      const image = item?.images.find((i) => i.imageId === imageId);
      if (!item) throw notFound('Item not found');
      assertMayChange(request.caller, item);
      if (!image) throw notFound('Image not found');
      if (image.status === 'confirmed') throw conflict('Image is already confirmed');
      // Read the bytes, not just their metadata: with cloudstore they went straight to the bucket,
      // so this is the one place that can tell whether they really are the signed image type.
      const stored = await ctx.storage.get(image.key);
      if (!stored || stored.bytes.byteLength === 0) throw badRequest('No image bytes have been uploaded yet');
      if (sniffImageType(stored.bytes) !== image.contentType) {
        await ctx.storage.delete(image.key).catch(() => undefined);
        throw badRequest(`The uploaded bytes are not a ${image.contentType} image; upload it again`);
      }
      const info = stored.info;
      const now = nowIso();
      const result = await ctx.items.change(id, itemId, (current) => {
        const at = current.images.findIndex((i) => i.imageId === imageId);
        if (at < 0) throw notFound('Image not found');
        if (current.images[at]!.status === 'confirmed') throw conflict('Image is already confirmed');
        const confirmed: StoredImage = {
          ...current.images[at]!,
          status: 'confirmed',
          size: info.size,
          contentType: image.contentType,
          sha256: info.sha256,
          confirmedAt: now,
        };
        const images = current.images.map((i, n) => (n === at ? confirmed : i));
        return { ...current, images, updatedAt: now };
      });
      if (result.kind === 'missing') throw notFound('Item not found');
      if (result.kind === 'refused') throw result.reason as AppError;
      const view = itemView(result.doc!);
      return reply.header('etag', etagOf(view)).send(view);
    },
  );
}
