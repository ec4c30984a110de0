import {
  IfNoneMatchHeaders,
  ImageContentType,
  ImageParams,
  ItemParams,
  UploadUrlRequest,
  UploadUrlResponse,
  WardrobeItem,
} from '@hs/contracts';
import { errorResponses, notFound, type ServiceApp } from '@hs/service-kit';
import { z } from 'zod';
import type { WardrobeContext } from '../context.ts';
import { etagOf, noneMatchHits } from '../domain/etag.ts';
import { removeImage } from '../flows/image-removal.ts';
import { confirmImage, startImageUpload } from '../flows/image-upload.ts';
import { wardrobeChecks } from './before-body.ts';

const errors = errorResponses(400, 403, 404, 409, 422, 502);
const tags = ['images'];
const H = '/api/v1/households/:id/wardrobe';

export function registerImageRoutes(app: ServiceApp, ctx: WardrobeContext): void {
  const checks = wardrobeChecks(ctx);
  app.post(
    `${H}/items/:itemId/upload-url`,
    {
      schema: {
        tags,
        description:
          "A signed, expiring URL to PUT one image (png, jpeg or webp, at most UPLOAD_MAX_BYTES, or what is left of the household's WARDROBE_MAX_UPLOAD_BYTES_PER_HOUSEHOLD when less) with the returned headers; then confirm it. A pending upload holds its URL's limit of the quota, a confirmed image its size; deleting the item gives them back. 409 CONFLICT when the quota is used up (uploads abandoned over an hour ago are dropped first), when the caller already holds WARDROBE_MAX_PENDING_UPLOADS_PER_MEMBER (default 20) upload URLs not confirmed yet (confirming or deleting one frees its place), or the item has 10 images.",
        params: ItemParams,
        body: UploadUrlRequest,
        response: { 200: UploadUrlResponse, ...errors },
      },
      onRequest: checks.itemToChange,
    },
    async (request) =>
      startImageUpload(
        ctx,
        request.caller,
        { householdId: request.params.id, itemId: request.params.itemId },
        request.body,
      ),
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
      onRequest: checks.imageToChange,
    },
    async (request, reply) => {
      const { id, itemId, imageId } = request.params;
      const view = await confirmImage(ctx, request.caller, { householdId: id, itemId, imageId });
      return reply.header('etag', etagOf(view)).send(view);
    },
  );

  app.get(
    `${H}/items/:itemId/images/:imageId/content`,
    {
      config: {
        openapi: {
          responses: {
            200: {
              description: 'The picture, in the type it was uploaded as',
              content: Object.fromEntries(
                ImageContentType.options.map((type) => [
                  type,
                  { schema: { type: 'string', format: 'binary' } },
                ]),
              ),
            },
          },
        },
      },
      schema: {
        tags,
        description:
          "A confirmed image's bytes (image/png, image/jpeg or image/webp, as confirmed), for any member of the household to show: the item's images[].contentPath. An image never changes, so ETag is its SHA-256 (its id when the storage reported none) and If-None-Match gives 304 without reading it again; Cache-Control is private (the bytes are the family's). 404 for an unknown item or image, and for an image not confirmed yet.",
        params: ImageParams,
        headers: IfNoneMatchHeaders,
        response: { 200: z.any().describe('image bytes'), 304: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { id, itemId, imageId } = request.params;
      const item = await ctx.items.get(id, itemId);
      const image = item?.images.find((i) => i.imageId === imageId);
      if (!image) throw notFound('Image not found');
      if (image.status !== 'confirmed') throw notFound('Image has not been uploaded and confirmed yet');
      // The bytes behind an image id never change, so any id for them is a strong tag, known
      // without reading them: a client's cached copy costs no read of the storage.
      const etag = `"${image.sha256 ?? image.imageId}"`;
      reply.header('etag', etag).header('cache-control', 'private, max-age=86400');
      if (noneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send(null);
      const object = await ctx.storage.get(image.key);
      if (!object) throw notFound('Image not found');
      const bytes = object.bytes;
      return reply
        .type(image.contentType)
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );

  app.delete(
    `${H}/items/:itemId/images/:imageId`,
    {
      schema: {
        tags,
        description:
          "Deletes the image, pending or confirmed, and its bytes; they no longer count against the household's WARDROBE_MAX_UPLOAD_BYTES_PER_HOUSEHOLD. 404 for an unknown item or image; a CHILD deletes only images of their own items (403).",
        params: ImageParams,
        response: { 204: z.null(), ...errors },
      },
      onRequest: checks.imageToChange,
    },
    async (request, reply) => {
      const { id, itemId, imageId } = request.params;
      await removeImage(ctx, request.caller, { householdId: id, itemId, imageId });
      return reply.code(204).send(null);
    },
  );
}
