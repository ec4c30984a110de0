import { flagsWithoutTags } from '@hs/contracts';

/**
 * What the model reads comes from many writers: a member's wardrobe labels and brands, offer
 * titles from any shop, the brief, earlier messages. Characters nobody sees on a screen can still
 * carry text a model reads (tag characters U+E0000-U+E007F spell ASCII, variation selectors can
 * encode bytes) or turn a line around (direction overrides): an instruction one member hides in an
 * item's brand would reach another member's stylist. So every string bound for the model (and for
 * a reply quoting stored labels) loses them; whole subdivision flags (England's, Scotland's) keep
 * their black flag, the only part a reader sees.
 */
const HIDDEN = /[\p{Cc}\p{Cs}\u200b\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}]/gu;
/** Variation selectors other than text/emoji presentation (U+FE0E/U+FE0F: they only change the look). */
const SELECTOR = /\p{Variation_Selector}/gu;

export function modelSafeText(text: string): string {
  return flagsWithoutTags(text)
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(HIDDEN, (c) => (c === '\n' ? c : ''))
    .replace(SELECTOR, (c) => (c === '\ufe0e' || c === '\ufe0f' ? c : ''));
}

/** The same, through every string of a JSON-like value (tool arguments and results). */
export function modelSafeValue<T>(value: T): T {
  if (typeof value === 'string') return modelSafeText(value) as T;
  if (Array.isArray(value)) return value.map(modelSafeValue) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, modelSafeValue(v)]),
    ) as T;
  return value;
}
