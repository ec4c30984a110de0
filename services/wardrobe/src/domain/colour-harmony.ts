/**
 * Colour rules a stylist would explain: neutrals go with anything, one hue in different shades
 * is tonal, opposite hues on the six-part colour wheel are complementary, neighbours are
 * analogous; anything else is a clash.
 */
const NEUTRALS = new Set([
  'black',
  'white',
  'grey',
  'gray',
  'beige',
  'cream',
  'ivory',
  'navy',
  'brown',
  'tan',
  'khaki',
  'camel',
  'charcoal',
  'denim',
  'nude',
  'taupe',
  'silver',
  'stone',
]);
const WHEEL = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'] as const;
const HUE_OF: Record<string, (typeof WHEEL)[number]> = {
  red: 'red',
  pink: 'red',
  burgundy: 'red',
  maroon: 'red',
  wine: 'red',
  rose: 'red',
  orange: 'orange',
  coral: 'orange',
  rust: 'orange',
  peach: 'orange',
  yellow: 'yellow',
  mustard: 'yellow',
  gold: 'yellow',
  lemon: 'yellow',
  green: 'green',
  olive: 'green',
  mint: 'green',
  emerald: 'green',
  sage: 'green',
  teal: 'green',
  blue: 'blue',
  turquoise: 'blue',
  cobalt: 'blue',
  sky: 'blue',
  indigo: 'blue',
  purple: 'purple',
  violet: 'purple',
  lavender: 'purple',
  lilac: 'purple',
  plum: 'purple',
};

export type Harmony = {
  score: number;
  kind: 'neutral' | 'tonal' | 'complementary' | 'analogous' | 'clash' | 'unknown';
  reason: string | null;
};

const norm = (c: string) => c.trim().toLowerCase();
const hueOf = (c: string) =>
  HUE_OF[norm(c)] ??
  HUE_OF[
    norm(c)
      .split(/[\s-]+/)
      .at(-1) ?? ''
  ];

function pair(a: string, b: string): Harmony {
  const [x, y] = [norm(a), norm(b)];
  if (NEUTRALS.has(x) || NEUTRALS.has(y)) {
    const neutral = NEUTRALS.has(x) ? x : y;
    return {
      score: 1,
      kind: 'neutral',
      reason:
        x === y
          ? `${x} with ${y}: matching neutrals`
          : `${neutral} is a neutral and goes with ${neutral === x ? y : x}`,
    };
  }
  const [hx, hy] = [hueOf(x), hueOf(y)];
  if (!hx || !hy) return { score: 0.5, kind: 'unknown', reason: null };
  const distance = Math.abs(WHEEL.indexOf(hx) - WHEEL.indexOf(hy));
  const steps = Math.min(distance, WHEEL.length - distance);
  if (steps === 0)
    return { score: 0.9, kind: 'tonal', reason: `${x} and ${y} are tonal (one colour family)` };
  if (steps === 3)
    return { score: 0.8, kind: 'complementary', reason: `${x} and ${y} are complementary colours` };
  if (steps === 1) return { score: 0.7, kind: 'analogous', reason: `${x} and ${y} are analogous colours` };
  return { score: 0.2, kind: 'clash', reason: null };
}

/** The best-matching pair of colours between two pieces (no colours: neither good nor bad). */
export function harmonyOf(a: readonly string[], b: readonly string[]): Harmony {
  let best: Harmony = { score: 0.5, kind: 'unknown', reason: null };
  let first = true;
  for (const x of a) {
    for (const y of b) {
      const h = pair(x, y);
      if (first || h.score > best.score) best = h;
      first = false;
    }
  }
  return best;
}
