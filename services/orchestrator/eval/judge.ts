/**
 * The eval's own judgement, written apart from the stylist's code so it can catch it out:
 * whether a brief matches the label, and whether a presented offer really satisfies the brief
 * (or the reply names the constraint it relaxed).
 */
import type { Brief, CreateOfferRequest } from '@hs/contracts';

export type Label = {
  id: string;
  tag: string;
  turns: string[];
  brief: Record<string, unknown>;
  expect?: string;
  owned?: string;
};

export const KINDS_OF_CONSTRAINT = {
  kind: ['itemKinds'],
  price: ['minPrice', 'maxPrice'],
  size: ['sizes'],
  color: ['colors'],
  excludedColor: ['excludedColors'],
  excludedKind: ['excludedKinds'],
  excludedBrand: ['excludedBrands'],
  season: ['seasons'],
  occasion: ['occasion'],
  age: ['forAge'],
} as const;
export type ConstraintKind = keyof typeof KINDS_OF_CONSTRAINT;

const sorted = (v: unknown) => (Array.isArray(v) ? [...v].map(String).sort() : v);

function fieldMatches(expected: unknown, actual: unknown): boolean {
  if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
    const bound = expected as { lt?: number; lte?: number };
    if (typeof actual !== 'number') return false;
    if (bound.lt !== undefined) return actual < bound.lt;
    return actual <= bound.lte!;
  }
  return JSON.stringify(sorted(expected)) === JSON.stringify(sorted(actual));
}

const present = (v: unknown) => v !== undefined && !(Array.isArray(v) && v.length === 0);

/** Per constraint kind: null when neither the label nor the brief states it (not scored). */
export function judgeBrief(label: Label, brief: Brief): Record<ConstraintKind, boolean | null> {
  const out = {} as Record<ConstraintKind, boolean | null>;
  for (const [kind, fields] of Object.entries(KINDS_OF_CONSTRAINT) as Array<
    [ConstraintKind, readonly string[]]
  >) {
    const stated = fields.some(
      (f) => present(label.brief[f]) || present((brief as Record<string, unknown>)[f]),
    );
    out[kind] = stated
      ? fields.every((f) => fieldMatches(label.brief[f], (brief as Record<string, unknown>)[f]))
      : null;
  }
  return out;
}

// ---- suggestions ----

const stem = (w: string) => w.toLowerCase().replace(/(?:es|s)$/, '');
const SYNONYMS: Record<string, string[]> = {
  sneakers: ['sneaker', 'trainer'],
  't-shirt': ['t-shirt', 'tee'],
  puffer: ['puffer'],
  raincoat: ['raincoat', 'rain jacket'],
  pajamas: ['pajama', 'pyjama'],
  swimsuit: ['swimsuit', 'swim trunks'],
  bag: ['bag', 'handbag', 'clutch', 'tote', 'backpack'],
  heels: ['heel', 'pump'],
  boots: ['boot'],
  sandals: ['sandal'],
  shoes: [''],
  top: [''],
  hoodie: ['hoodie'],
};

export function titleHasKind(title: string, kind: string): boolean {
  const t = title.toLowerCase();
  const words = SYNONYMS[kind] ?? [stem(kind)];
  return words.some((w) => t.includes(w));
}

function sizeKey(s: string): string {
  const x = s.trim().toLowerCase();
  const kids = x.match(/^(?:kids|age)\s*(\d+)$|^(\d+)\s*y$/);
  if (kids) return `kids ${Number(kids[1] ?? kids[2])}`;
  const named: Record<string, string> = {
    small: 's',
    medium: 'm',
    large: 'l',
    'x-large': 'xl',
    'extra large': 'xl',
  };
  if (named[x]) return named[x]!;
  return x.replace(/^(eu|us|uk)\s*/, '').replace(/^w(\d)/, '$1');
}

function sizeFits(offerSizes: string[], wanted: string): boolean {
  const w = wanted.trim().toLowerCase();
  const system = w.match(/^(eu|us|uk)\s*(\S+)$/);
  return offerSizes.some((s) => {
    const o = s.trim().toLowerCase();
    if (system) return o === `${system[1]} ${system[2]}` || o === system[2];
    return sizeKey(o) === sizeKey(w);
  });
}

export type OfferView = CreateOfferRequest & { offerId: string };

/** Constraints the offer breaks, given the brief and what the reply says it relaxed. */
export function brokenConstraints(
  offer: OfferView,
  brief: Brief,
  kind: string | undefined,
  reply: string,
): string[] {
  const relaxedSaid = (what: string) => new RegExp(`relaxed[^.]*${what}`, 'i').test(reply);
  const broken: string[] = [];
  const colours = (offer.colors ?? []).map((c) => c.toLowerCase());
  if (brief.maxPrice !== undefined && offer.price > brief.maxPrice && !relaxedSaid('price'))
    broken.push('maxPrice');
  if (brief.minPrice !== undefined && offer.price < brief.minPrice && !relaxedSaid('price'))
    broken.push('minPrice');
  if (brief.colors?.length && !colours.some((c) => brief.colors!.includes(c)) && !relaxedSaid('colour'))
    broken.push('colors');
  if (brief.excludedColors?.some((c) => colours.includes(c))) broken.push('excludedColors');
  if (brief.excludedBrands?.some((b) => offer.brand?.toLowerCase() === b)) broken.push('excludedBrands');
  if (brief.excludedKinds?.some((k) => titleHasKind(offer.title, k) && SYNONYMS[k]?.[0] !== ''))
    broken.push('excludedKinds');
  if (brief.sizes?.length && !brief.sizes.some((s) => sizeFits(offer.sizes ?? [], s)) && !relaxedSaid('size'))
    broken.push('sizes');
  const seasons = offer.season ?? [];
  if (
    brief.seasons?.length &&
    seasons.length > 0 &&
    !brief.seasons.some((s) => seasons.includes(s)) &&
    !relaxedSaid('season')
  )
    broken.push('seasons');
  if (kind && !titleHasKind(offer.title, kind) && !relaxedSaid('item')) broken.push(`kind:${kind}`);
  return broken;
}
