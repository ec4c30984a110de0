// Composes a preview picture in-process with pngjs (https://github.com/pngjs/pngjs): no model,
// but a real image a user can look at. PNG inputs only; JPEG would need a decoder dependency.
import { PNG } from 'pngjs';
import { composePreview, type Raster } from '../../domain/compose-preview.ts';
import { type Image, pngDimensions } from '../../domain/image-format.ts';
import { TryOnFailure } from '../../domain/try-on-failure.ts';
import type { TryOnBackend } from './try-on-backend.ts';

/** Decoded size limit: a small compressed PNG can decode to gigabytes. */
const MAX_SIDE = 4096;

function decode(image: Image, role: string): Raster {
  if (image.mimeType !== 'image/png')
    throw new TryOnFailure(
      'INPUT_UNSUPPORTED',
      `The ${role} image is a JPEG; the inline try-on backend reads PNG images only. Upload a PNG or use the http backend.`,
    );
  const size = pngDimensions(image.bytes);
  if (!size || size.width === 0 || size.height === 0)
    throw new TryOnFailure('INPUT_UNSUPPORTED', `The ${role} image is not a valid PNG`);
  if (size.width > MAX_SIDE || size.height > MAX_SIDE)
    throw new TryOnFailure(
      'INPUT_TOO_LARGE',
      `The ${role} image is ${size.width}×${size.height}; the inline backend accepts at most ${MAX_SIDE}×${MAX_SIDE}`,
    );
  try {
    const png = PNG.sync.read(
      Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength),
    );
    return { width: png.width, height: png.height, data: png.data };
  } catch (err) {
    throw new TryOnFailure('INPUT_UNSUPPORTED', `The ${role} image is not a valid PNG`, { cause: err });
  }
}

export function createInlineBackend(): TryOnBackend {
  return {
    name: 'inline',
    needsInputs: true,
    async render(person, garment, signal) {
      const personRaster = decode(person, 'person');
      const garmentRaster = decode(garment, 'garment');
      signal.throwIfAborted();
      const preview = composePreview(personRaster, garmentRaster);
      const png = new PNG({ width: preview.width, height: preview.height });
      png.data = Buffer.from(preview.data.buffer, preview.data.byteOffset, preview.data.byteLength);
      return PNG.sync.write(png);
    },
  };
}
