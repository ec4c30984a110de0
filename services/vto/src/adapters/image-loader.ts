import type { BlobStorage } from '@hs/storage';
import { type Image, sniffImage } from '../domain/image-format.ts';
import type { ImageRef } from '../domain/image-ref.ts';
import { TryOnFailure } from '../domain/try-on-failure.ts';
import type { RemoteImageFetcher } from './remote-image-fetcher.ts';

/** `gs://bucket/` or `local://`: what this storage's refs start with (refFor refuses an empty key). */
export const storageRefPrefix = (storage: BlobStorage) => storage.refFor('x').slice(0, -1);

export type ImageLoader = (ref: ImageRef, role: 'person' | 'garment', signal: AbortSignal) => Promise<Image>;

/** Reads an input image from this service's blob storage or through the SSRF-safe fetcher, and checks it is an image. */
export function createImageLoader(deps: {
  storage: BlobStorage;
  fetcher: RemoteImageFetcher;
  maxBytes: number;
}): ImageLoader {
  return async (ref, role, signal) => {
    let bytes: Uint8Array;
    if (ref.kind === 'storage') {
      const stat = await deps.storage.stat(ref.key);
      if (!stat)
        throw new TryOnFailure(
          'INPUT_MISSING',
          `The ${role} image ${deps.storage.refFor(ref.key)} does not exist`,
        );
      if (stat.size > deps.maxBytes)
        throw new TryOnFailure(
          'INPUT_TOO_LARGE',
          `The ${role} image is larger than the ${deps.maxBytes}-byte limit`,
        );
      const object = await deps.storage.get(ref.key);
      if (!object)
        throw new TryOnFailure(
          'INPUT_MISSING',
          `The ${role} image ${deps.storage.refFor(ref.key)} does not exist`,
        );
      bytes = object.bytes;
    } else {
      bytes = await deps.fetcher.fetch(ref.url, signal);
    }
    const mimeType = sniffImage(bytes);
    if (!mimeType)
      throw new TryOnFailure('INPUT_UNSUPPORTED', `The ${role} image is not a PNG or JPEG image`);
    return { bytes, mimeType };
  };
}
