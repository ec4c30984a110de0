/**
 * A 5×7 bitmap font for the preview's label band: just the glyphs the label uses, so the
 * service needs no font files or text renderer. Unknown characters render as blanks.
 */
const GLYPHS: Record<string, readonly string[]> = {
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  I: ['.###.', '..#..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  N: ['#...#', '##..#', '#.#.#', '#.#.#', '#..##', '#...#', '#...#'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  P: ['####.', '#...#', '#...#', '####.', '#....', '#....', '#....'],
  R: ['####.', '#...#', '#...#', '####.', '#.#..', '#..#.', '#...#'],
  T: ['#####', '..#..', '..#..', '..#..', '..#..', '..#..', '..#..'],
  U: ['#...#', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  V: ['#...#', '#...#', '#...#', '#...#', '#...#', '.#.#.', '..#..'],
  W: ['#...#', '#...#', '#...#', '#.#.#', '#.#.#', '##.##', '#...#'],
  Y: ['#...#', '#...#', '.#.#.', '..#..', '..#..', '..#..', '..#..'],
  '-': ['.....', '.....', '.....', '#####', '.....', '.....', '.....'],
};

export const GLYPH_WIDTH = 5;
export const GLYPH_HEIGHT = 7;
const SPACING = 1;

/** Width in pixels of `text` at `scale`. */
export const textWidth = (text: string, scale: number) =>
  text.length * (GLYPH_WIDTH + SPACING) * scale - SPACING * scale;

/** Calls `plot(x, y)` for every lit pixel of `text` drawn at (left, top). */
export function drawText(
  text: string,
  left: number,
  top: number,
  scale: number,
  plot: (x: number, y: number) => void,
) {
  [...text.toUpperCase()].forEach((ch, index) => {
    const glyph = GLYPHS[ch];
    if (!glyph) return;
    const x0 = left + index * (GLYPH_WIDTH + SPACING) * scale;
    glyph.forEach((row, gy) => {
      for (let gx = 0; gx < GLYPH_WIDTH; gx++) {
        if (row[gx] !== '#') continue;
        for (let dy = 0; dy < scale; dy++)
          for (let dx = 0; dx < scale; dx++) plot(x0 + gx * scale + dx, top + gy * scale + dy);
      }
    });
  });
}
