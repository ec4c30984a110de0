import type { Brief } from '@hs/contracts';
import type { PriceReading } from './price.ts';
import { KINDS } from './vocabulary.ts';

/**
 * Several items in one message, each with its own words: "black jeans under 40 and a white tee"
 * asks for black jeans under 40 and a white tee at any price. The brief stays the union (what
 * the app shows); the searches of the turn that said it take each item's own colour, size and
 * price. Positions are in the normalised message.
 */
export type ItemScope = { colors: string[]; sizes: string[]; price: PriceReading };
export type ItemScopes = {
  byKind: Record<string, ItemScope>;
  /** A price said for every item ("both under 60", ", budget 80"): the items without their own keep it. */
  shared: PriceReading;
  /**
   * Sizes from a child's age ("for my 8 year old", "size 9-10 years"): the person's, so every item
   * without its own size.
   */
  ageSizes: string[];
};

/** What separates two items in a list: "and", "plus", "with", a comma or a sentence break. */
const SEPARATOR = / (?:,|\.|;|!|&|\+|and|plus|with|also|then|as well as) /g;
/** Words that put what a clause says on every item: "both under 60", "30 each", "in total". */
export const SHARED_WORDS =
  /\b(?:both|each|apiece|a piece|altogether|in total|total|everything|all of them|for all|the lot|all)\b/;

type Found = { at: number; w: string; kind: string };
type Span = { kind: string; from: number; to: number; wordEnd: number };

/**
 * The word that ends before `at` and the one that starts after it (spaces skipped), read in place:
 * splitting the text around each separator cost time in the square of the message's length (a
 * message of 8 KB of commas held the service for a second).
 */
function wordBefore(text: string, at: number): string {
  let end = at;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  let start = end;
  while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
  return text.slice(start, end);
}
function wordAfter(text: string, at: number): string {
  let start = at;
  while (start < text.length && /\s/.test(text[start]!)) start++;
  let end = start;
  while (end < text.length && !/\s/.test(text[end]!)) end++;
  return text.slice(start, end);
}

/**
 * Each item's stretch of the message: from the separator before it to the separator after it.
 * Between two items the last separator counts ("jeans under 40 and a white or cream tee"), but
 * never one inside a run of colours ("a black and white top"). Two items with no separator
 * between them ("black jeans white tee") meet right after the first item word.
 */
export function itemSpans(text: string, found: Found[], isColour: (word: string) => boolean): Span[] {
  const seps = [...text.matchAll(SEPARATOR)]
    .map((m) => ({ from: m.index!, to: m.index! + m[0].length }))
    .filter(({ from, to }) => {
      const before = wordBefore(text, from);
      const after = wordAfter(text, to);
      // "black and white", "red or pink": one item's colours; a comma still parts two items.
      return m0(text, from) === ',' || !(isColour(before) && isColour(after));
    });
  const spans: Span[] = [];
  for (const [i, f] of found.entries()) {
    const wordEnd = f.at + f.w.length;
    const prev = found[i - 1];
    const next = found[i + 1];
    const prevEnd = prev ? prev.at + prev.w.length : 0;
    const before = seps.filter((s) => s.from >= prevEnd && s.to <= f.at).pop();
    const from = before ? before.to : prev ? Math.max(prevEnd, spans[i - 1]?.to ?? 0) : 0;
    const upTo = next ? next.at : text.length;
    const inGap = seps.filter((s) => s.from >= wordEnd && s.to <= upTo);
    const to = next ? (inGap.pop()?.from ?? pricedEnd(text, wordEnd, upTo)) : (inGap[0]?.from ?? text.length);
    spans.push({ kind: f.kind, from, to, wordEnd });
  }
  return spans;
}

/**
 * "a coat max 70 boots max 50": with no separator between two items, a ceiling said right after
 * the first is the first's (the items then meet after it); otherwise they meet after the item word.
 */
const CEILING_AFTER_ITEM =
  /^ (?:(?:max(?:imum)?|under|below|up to|less than|no more than|at most|for|around|about) ?(?:[$£€] ?)?\d+(?:\.\d{1,2})?(?: ?(?:[$£€]|quid|pounds?|euros?|dollars?|bucks|max|tops))?)(?= )/;
function pricedEnd(text: string, wordEnd: number, upTo: number): number {
  const m = text.slice(wordEnd, upTo).match(CEILING_AFTER_ITEM);
  return m ? wordEnd + m[0].length : wordEnd;
}

/** The category of a kind, maternity wear ("maternity jeans") as its item's. */
const categoryOf = (kind: string) => KINDS.find((k) => k.kind === kind.replace(/^maternity /, ''))?.category;

/**
 * An item added later with no words of its own ("and a hoodie as well") takes the whole brief,
 * but no size another kind of garment owns: "size 16" was the dress's, not the sandals'.
 */
function addedBare(brief: Brief, kind: string, scopes: ItemScopes): Brief {
  const category = categoryOf(kind);
  const foreign = new Set(
    Object.entries(scopes.byKind)
      .filter(([k]) => categoryOf(k) !== category)
      .flatMap(([, s]) => s.sizes),
  );
  const sizes = (brief.sizes ?? []).filter((z) => !foreign.has(z));
  const out: Brief = { ...brief, sizes: sizes.length > 0 ? sizes : scopes.ageSizes };
  if (out.sizes?.length === 0) delete out.sizes;
  return out;
}

const m0 = (text: string, at: number) => text.slice(at + 1, at + 2);

const hasPrice = (p: PriceReading) => p.maxPrice !== undefined || p.minPrice !== undefined;

/**
 * The widest price of the items' own: what the brief shows when each item has its own budget
 * ("trainers under 50 and a hoodie under 35" shows under 50).
 */
export function widestPrice(scopes: ItemScopes): PriceReading {
  if (hasPrice(scopes.shared)) return scopes.shared;
  const prices = Object.values(scopes.byKind)
    .map((s) => s.price)
    .filter(hasPrice);
  const out: PriceReading = {};
  if (prices.length === 0) return out;
  if (prices.every((p) => p.maxPrice !== undefined))
    out.maxPrice = Math.max(...prices.map((p) => p.maxPrice!));
  if (prices.every((p) => p.minPrice !== undefined))
    out.minPrice = Math.min(...prices.map((p) => p.minPrice!));
  const currency = prices.find((p) => p.currency)?.currency;
  if (currency) out.currency = currency;
  return out;
}

/**
 * The brief one item's search uses: its own colours, sizes and price when it said any; else the
 * brief's less what the other items said for themselves ("black jeans and a tee": the tee has no
 * colour), the brief's price, and the sizes of the person's age.
 */
export function briefForKind(brief: Brief, kind: string | undefined, scopes: ItemScopes | undefined): Brief {
  if (!scopes || kind === undefined) return brief;
  const own = scopes.byKind[kind];
  if (!own) return addedBare(brief, kind, scopes);
  const others = Object.entries(scopes.byKind)
    .filter(([k]) => k !== kind)
    .map(([, s]) => s);
  const out: Brief = { ...brief };
  const othersColours = new Set(others.flatMap((s) => s.colors));
  out.colors = own.colors.length > 0 ? own.colors : (brief.colors ?? []).filter((c) => !othersColours.has(c));
  const othersSizes = new Set(others.flatMap((s) => s.sizes));
  const rest = (brief.sizes ?? []).filter((s) => !othersSizes.has(s));
  out.sizes = own.sizes.length > 0 ? own.sizes : rest.length > 0 ? rest : scopes.ageSizes;
  // An item with no price of its own keeps the brief's (a shared one, or the widest said): every
  // offer shown stays within the budget the app shows, "black jeans under 40 and a white tee"
  // included.
  const price = hasPrice(own.price) ? own.price : hasPrice(scopes.shared) ? scopes.shared : undefined;
  if (price) {
    delete out.minPrice;
    delete out.maxPrice;
    if (price.minPrice !== undefined) out.minPrice = price.minPrice;
    if (price.maxPrice !== undefined) out.maxPrice = price.maxPrice;
    if (price.currency) out.currency = price.currency;
    else if (!hasPrice(price)) delete out.currency;
  }
  for (const k of ['colors', 'sizes'] as const) if (out[k]?.length === 0) delete out[k];
  return out;
}
