import { drawText, GLYPH_HEIGHT, textWidth } from './label-font.ts';

/** Straight (non-premultiplied) 8-bit RGBA pixels, row by row. */
export type Raster = { width: number; height: number; data: Uint8Array };

export const PREVIEW_LABEL = 'VIRTUAL TRY-ON PREVIEW';
const MAX_WIDTH = 512;
const MAX_HEIGHT = 768;
const MIN_WIDTH = 288;
const BAND_HEIGHT = 40;
const BACKGROUND = [243, 244, 246] as const;
const BAND = [31, 41, 55] as const;
const GARMENT_OPACITY = 0.9;
/** Where a garment sits on a standing person, as fractions of the person image. */
const TORSO = { left: 0.22, right: 0.78, top: 0.2, bottom: 0.62 };

/** Size of the preview for a person image of the given size: person fitted in 512×768, plus the band. */
export function previewSize(personWidth: number, personHeight: number) {
  const scale = Math.min(MAX_WIDTH / personWidth, MAX_HEIGHT / personHeight);
  const width = Math.max(1, Math.round(personWidth * scale));
  const height = Math.max(1, Math.round(personHeight * scale));
  return {
    personWidth: width,
    personHeight: height,
    width: Math.max(width, MIN_WIDTH),
    height: height + BAND_HEIGHT,
  };
}

/** Bilinear sample at (x, y) in source pixel coordinates; writes RGBA into out. */
function sample(src: Raster, x: number, y: number, out: number[]): void {
  const cx = Math.min(Math.max(x - 0.5, 0), src.width - 1);
  const cy = Math.min(Math.max(y - 0.5, 0), src.height - 1);
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(x0 + 1, src.width - 1);
  const y1 = Math.min(y0 + 1, src.height - 1);
  const fx = cx - x0;
  const fy = cy - y0;
  for (let c = 0; c < 4; c++) {
    const p = (xx: number, yy: number) => src.data[(yy * src.width + xx) * 4 + c]!;
    const top = p(x0, y0) * (1 - fx) + p(x1, y0) * fx;
    const bottom = p(x0, y1) * (1 - fx) + p(x1, y1) * fx;
    out[c] = top * (1 - fy) + bottom * fy;
  }
}

/** Product photos sit on white: near-white pixels fade out so the garment, not its backdrop, lands on the torso. */
function backdropAlpha(r: number, g: number, b: number): number {
  const lightest = Math.min(r, g, b);
  if (lightest >= 240) return 0;
  if (lightest <= 215) return 1;
  return (240 - lightest) / 25;
}

/**
 * A try-on preview without a model: the person scaled onto the canvas, the garment scaled into
 * the torso region and alpha-blended over it, and a label band saying it is a preview.
 */
export function composePreview(person: Raster, garment: Raster): Raster {
  const size = previewSize(person.width, person.height);
  const out: Raster = {
    width: size.width,
    height: size.height,
    data: new Uint8Array(size.width * size.height * 4),
  };
  const px = new Array<number>(4).fill(0);
  const blend = (x: number, y: number, rgb: readonly number[], alpha: number) => {
    const i = (y * out.width + x) * 4;
    for (let c = 0; c < 3; c++)
      out.data[i + c] = Math.round(rgb[c]! * alpha + out.data[i + c]! * (1 - alpha));
    out.data[i + 3] = 255;
  };

  for (let y = 0; y < size.height; y++)
    for (let x = 0; x < size.width; x++) blend(x, y, y < size.personHeight ? BACKGROUND : BAND, 1);

  const personLeft = Math.floor((size.width - size.personWidth) / 2);
  const sx = person.width / size.personWidth;
  const sy = person.height / size.personHeight;
  for (let y = 0; y < size.personHeight; y++)
    for (let x = 0; x < size.personWidth; x++) {
      sample(person, (x + 0.5) * sx, (y + 0.5) * sy, px);
      blend(personLeft + x, y, px, px[3]! / 255);
    }

  const torsoW = (TORSO.right - TORSO.left) * size.personWidth;
  const torsoH = (TORSO.bottom - TORSO.top) * size.personHeight;
  const gScale = Math.min(torsoW / garment.width, torsoH / garment.height);
  const gw = Math.max(1, Math.round(garment.width * gScale));
  const gh = Math.max(1, Math.round(garment.height * gScale));
  const gLeft = personLeft + Math.round(TORSO.left * size.personWidth + (torsoW - gw) / 2);
  const gTop = Math.round(TORSO.top * size.personHeight);
  for (let y = 0; y < gh; y++)
    for (let x = 0; x < gw; x++) {
      sample(garment, (x + 0.5) / gScale, (y + 0.5) / gScale, px);
      const alpha = (px[3]! / 255) * backdropAlpha(px[0]!, px[1]!, px[2]!) * GARMENT_OPACITY;
      if (alpha > 0) blend(gLeft + x, gTop + y, px, alpha);
    }

  const scale = textWidth(PREVIEW_LABEL, 2) + 16 <= size.width ? 2 : 1;
  const labelLeft = Math.floor((size.width - textWidth(PREVIEW_LABEL, scale)) / 2);
  const labelTop = size.personHeight + Math.floor((BAND_HEIGHT - GLYPH_HEIGHT * scale) / 2);
  drawText(PREVIEW_LABEL, labelLeft, labelTop, scale, (x, y) => blend(x, y, [255, 255, 255], 1));
  return out;
}
