import type { Readable } from 'node:stream';
import { ErrorEnvelope, ImageContentType, UploadReceipt, UploadSignatureQuery } from '@hs/contracts';
import {
  AppError,
  badRequest,
  conflict,
  discardRest,
  forbidden,
  notFound,
  type ServiceApp,
} from '@hs/service-kit';
import {
  EmptyUploadError,
  isValidKey,
  type LocalBlobStorage,
  UPLOAD_ROUTE_PREFIX,
  UploadExistsError,
  UploadTooLargeError,
  verifyLocalUploadSignature,
} from '@hs/storage';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WardrobeContext } from '../context.ts';
import { parseImageKey } from '../domain/items.ts';
import { fenceBody, NotTheSignedImageError, requireImageType } from './upload-body.ts';

const tooLarge = (max: number) =>
  new AppError('PAYLOAD_TOO_LARGE', 413, `Upload is larger than ${max} bytes`);
const unsupported = () =>
  new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    415,
    `Content-Type must be one of ${ImageContentType.options.join(', ')}`,
  );

const notThatImage = (contentType: string) =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', 415, `Upload bytes are not a ${contentType} image`);

const ALREADY_UPLOADED = 'An image was already uploaded to this URL; ask for a new upload URL';

type UploadQuery = { expires?: string; max?: string; sig?: string };

/** How much of a refused upload is read and dropped before the connection is closed instead. */
const discardLimit = (maxBytes: number) => Math.max(8 * 1024 * 1024, 4 * maxBytes);

/**
 * The local backend's signed upload URLs, reached through the gateway without a bearer token:
 * the URL's own HMAC signature and expiry authorise it. Checks, in order: content type (images
 * only), signature (covers key, content type, byte limit, expiry), expiry, declared length,
 * that the image is still pending and its asker still a member; then streams the body into storage, counting bytes and
 * stopping past the limit, and takes the bytes back when the image was deleted meanwhile. A
 * refused upload stores nothing, and is answered without resetting the connection (see
 * discardRest).
 */
export function registerUploadRoutes(app: ServiceApp, ctx: WardrobeContext, storage: LocalBlobStorage): void {
  const secret = ctx.config.storage.signingSecret;

  const authorise = (request: FastifyRequest, method: 'PUT' | 'GET', contentType: string) => {
    const key = (request.params as { '*': string })['*'];
    const check = verifyLocalUploadSignature({
      secret,
      method,
      key,
      contentType,
      query: request.query as UploadQuery,
    });
    if (!check.ok)
      throw forbidden(
        check.reason === 'expired' ? 'Upload URL has expired' : 'Upload URL signature is invalid',
      );
    if (!isValidKey(key)) throw notFound('Upload target not found');
    return { key, maxBytes: check.maxBytes ?? 0 };
  };

  /** The image the upload key names, as its item now holds it (null: the image or item is gone). */
  const imageOf = async (target: { householdId: string; itemId: string; imageId: string }) => {
    const item = await ctx.items.get(target.householdId, target.itemId);
    return item?.images.find((i) => i.imageId === target.imageId) ?? null;
  };
  /** The image is still on its item. A store that cannot say keeps the bytes (the image may well be). */
  const stillThere = (target: { householdId: string; itemId: string; imageId: string }) =>
    imageOf(target).then(
      (image) => image !== null,
      () => true,
    );

  app.register(async (scope: FastifyInstance) => {
    // Raw bytes for this route only: the body is streamed to storage, never buffered or parsed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    // A refusal comes before (or in the middle of) the body. What the client still sends is read
    // and dropped, up to a bound, before the answer goes out, instead of resetting the
    // connection: through the gateway a reset turns our 413 into its 502. Past the bound, the
    // answer goes out at once and the connection closes after it.
    scope.addHook('onSend', async (request, reply, payload) => {
      if (reply.getHeader('connection') === 'close') return payload;
      const drained = await discardRest(request.raw, discardLimit(ctx.config.uploads.maxBytes));
      if (!drained) reply.header('connection', 'close');
      return payload;
    });

    scope.put(
      `${UPLOAD_ROUTE_PREFIX}/*`,
      {
        config: {
          public: true,
          openapi: {
            body: {
              required: true,
              description: 'The image bytes, with the Content-Type the upload URL was signed for.',
              content: Object.fromEntries(
                ImageContentType.options.map((type) => [
                  type,
                  { schema: { type: 'string', format: 'binary' } },
                ]),
              ),
            },
          },
        },
        schema: {
          tags: ['uploads'],
          description:
            'Target of a signed upload URL (local storage). Authorised by its signature, not a token.',
          querystring: UploadSignatureQuery,
          response: {
            200: UploadReceipt,
            400: ErrorEnvelope,
            403: ErrorEnvelope,
            404: ErrorEnvelope,
            409: ErrorEnvelope,
            413: ErrorEnvelope,
            415: ErrorEnvelope,
            // The blob directory is full or not writable: nothing is kept, the image stays pending.
            503: ErrorEnvelope,
          },
        },
      },
      async (request, reply) => {
        const contentType = String(request.headers['content-type'] ?? '')
          .split(';')[0]!
          .trim()
          .toLowerCase();
        if (!ImageContentType.safeParse(contentType).success) throw unsupported();
        const { key, maxBytes } = authorise(request, 'PUT', contentType);
        const limit = Math.min(maxBytes, ctx.config.uploads.maxBytes);
        const declared = Number(request.headers['content-length'] ?? Number.NaN);
        if (declared > limit) {
          // More than we will ever read: say so now rather than after reading it all.
          if (declared > discardLimit(ctx.config.uploads.maxBytes)) reply.header('connection', 'close');
          throw tooLarge(limit);
        }
        const target = parseImageKey(key);
        if (!target) throw notFound('Upload target not found');
        const image = await imageOf(target);
        if (!image) throw notFound('Upload target not found');
        if (image.status === 'confirmed') throw conflict('Image is already confirmed');
        // The URL is the asker's: once they have left the household (or were removed), it is dead.
        if (
          image.requestedBy &&
          !(await ctx.members.isMember(target.householdId, image.requestedBy, request.id))
        )
          throw forbidden('The member who asked for this upload URL no longer belongs to the household');
        if (await storage.stat(key)) throw conflict(ALREADY_UPLOADED);
        const body = request.body as Readable | undefined;
        if (!body || declared === 0) throw badRequest('Upload body is empty');
        try {
          const checked = fenceBody(body, requireImageType(contentType as ImageContentType));
          const info = await storage.receiveUpload(key, checked, { contentType, maxBytes: limit });
          if (!(await stillThere(target))) {
            // Deleted (the image or its item) while the bytes streamed in: the removal deleted a
            // file that was not there yet, so these bytes would stay on disk, uncounted, for good.
            await storage.delete(key);
            throw notFound('The image was deleted during its upload');
          }
          return { size: info.size, contentType: info.contentType, sha256: info.sha256 ?? '' };
        } catch (err) {
          if (err instanceof UploadTooLargeError) throw tooLarge(limit);
          if (err instanceof EmptyUploadError) throw badRequest('Upload body is empty');
          if (err instanceof NotTheSignedImageError) throw notThatImage(contentType);
          if (err instanceof UploadExistsError) throw conflict(ALREADY_UPLOADED);
          throw err;
        }
      },
    );

    scope.get(
      `${UPLOAD_ROUTE_PREFIX}/*`,
      {
        config: { public: true },
        schema: {
          tags: ['uploads'],
          description: 'Target of a signed download URL (local storage).',
          hide: true,
        },
      },
      async (request, reply) => {
        const { key } = authorise(request, 'GET', '');
        const found = await storage.get(key);
        if (!found) throw notFound('Object not found');
        return (
          reply
            .type(found.info.contentType)
            .header('cache-control', 'private, max-age=300')
            // Served as exactly the stored type, never sniffed into something a browser would run.
            .header('x-content-type-options', 'nosniff')
            .send(Buffer.from(found.bytes))
        );
      },
    );
  });
}
