import type { Season, WardrobeCategory } from '@hs/contracts';
import { readAges, startsChildrenList } from './ages.ts';
import { readBabySizes } from './baby-sizes.ts';
import { bareItemPrices, namedAges } from './bare-figures.ts';
import { climateOf, localSeason } from './climate.ts';
import { type ItemScope, type ItemScopes, itemSpans, SHARED_WORDS, widestPrice } from './item-scopes.ts';
import { normalize } from './normalize.ts';
import {
  A_CHILD_SAID,
  AFTER_SALES,
  APPROVAL_ASKED,
  CLOTHES_CARE,
  CLOTHES_SAID,
  CLOTHING_TALK,
  CREATIVE_TASK,
  FOUND_AGAIN,
  OFF_TOPIC_SUBJECT,
  ORDER_ADMIN,
  OTHER_GOODS,
  OTHERS_DATA,
  SEXUALISED,
  UNDERAGE_ENTRY,
  WARDROBE_ASKED,
  WEARABLE_SAID,
  WEIGHT_LOSS,
} from './off-topic.ts';
import { CHEAPER, PRICE_CLEARED, PRICIER, type PriceReading, readPrice, topsBound } from './price.ts';
import {
  BRANDS,
  CALENDAR_HINTS,
  COLOR_FAMILIES,
  COLORS,
  COMMON_WORD_BRANDS,
  DESCRIBES_A_DRESS,
  DRESS_COMPOUNDS,
  KINDS,
  MATERIALS,
  MODIFIER_WORDS,
  NOT_GARMENTS,
  OCCASIONS,
  SEASON_HINTS,
} from './vocabulary.ts';

/** What one message says: the constraints it states and what it asks to change or clear. */
export type Reading = {
  text: string;
  /** `wardrobe`: a question about what the family already owns ("what's in my daughter's wardrobe"). */
  intent: 'search' | 'clarify' | 'offtopic' | 'buy' | 'refuse' | 'pair' | 'thanks' | 'wardrobe';
  kinds: string[];
  addKinds: boolean;
  price: PriceReading;
  cheaper: boolean;
  pricier: boolean;
  /** "smaller" / "a size up": one size down or up from the brief's. */
  sizeStep?: -1 | 1;
  sizes: string[];
  colors: string[];
  excludedColors: string[];
  excludedKinds: string[];
  excludedBrands: string[];
  /** Brands asked for ("nike trainers", "anything from zara"): searched as a query word (preferred-brand.ts). */
  brands: string[];
  seasons: Season[];
  occasion?: string;
  /** "less formal", "too dressy": the occasion stepped away from, which the brief then drops. */
  steppedFrom?: string;
  forAge?: number;
  clear: Array<'all' | 'price' | 'colors' | 'sizes' | 'seasons' | 'occasion' | 'kinds' | 'brands'>;
  /** "try 41" after a size was given: a size in the same system. */
  sizeRetry?: string;
  /** "in 11-12?", "what about 7-8": the pair's second size, beside `sizeRetry`. */
  sizeRetryTo?: string;
  /** "in 32?", "have you got them in 8": asked in a size, so never a new price ("jeans under 40", "in 32"). */
  sizeRetryIn?: true;
  /** "what goes with my white jeans": the owned item, as said. */
  owned?: { text: string; kind?: string; color?: string };
  /**
   * "what goes with it", "something to wear with the second one": the offer shown last to pair,
   * by its place in the first list shown (0 the first, -1 the last).
   */
  pairsShown?: number;
  /** Several items, some with words of their own ("black jeans under 40 and a white tee"). */
  items?: ItemScopes;
  /** The same, when the items join a list asked for before ("and a red top", "the hoodie in green"). */
  joinedItems?: ItemScopes;
};

/**
 * Maternity wear keeps its word with the item ("maternity jeans", "a nursing top", "bump-friendly
 * dress"): the kind is "maternity jeans", searched by that word, of the item's own category.
 */
export const MATERNITY = 'maternity ';
/** The item a kind is of: "jeans" for "maternity jeans". */
export const baseKind = (kind: string) => (kind.startsWith(MATERNITY) ? kind.slice(MATERNITY.length) : kind);
export const categoryOf = (kind: string): WardrobeCategory | undefined =>
  KINDS.find((k) => k.kind === baseKind(kind))?.category;
export const isGenericKind = (kind: string) => KINDS.find((k) => k.kind === kind)?.generic === true;
export const kindSeason = (kind: string) => KINDS.find((k) => k.kind === baseKind(kind))?.season;
/** The word before an item that makes it maternity wear, whatever the item. */
const MATERNITY_BEFORE = /(?:^|[^\w-])(?:maternity|pregnancy|bump[- ]friendly) $/;
/** Nursing wear: only what is worn on top ("nursing shoes" and "nursing scrubs" are a nurse's). */
const NURSING_BEFORE = /(?:^|[^\w-])(?:nursing|breastfeeding(?:[- ]friendly)?|feeding) $/;
const NURSING_KINDS = new Set([
  'top',
  't-shirt',
  'vest',
  'tank top',
  'bra',
  'sports bra',
  'dress',
  'pajamas',
  'nightdress',
  'swimsuit',
  'hoodie',
  'sweatshirt',
  'blouse',
  'shirt',
  'jumpsuit',
]);
function maternityKind(text: string, f: { at: number; kind: string }): string {
  const before = text.slice(Math.max(0, f.at - 24), f.at);
  const maternity =
    MATERNITY_BEFORE.test(before) || (NURSING_KINDS.has(f.kind) && NURSING_BEFORE.test(before));
  return maternity ? `${MATERNITY}${f.kind}` : f.kind;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`);
const phrase = (w: string) => new RegExp(`(?<![\\w-])${escapeRe(w)}(?![\\w-])`, 'g');
const KIND_WORDS = KINDS.flatMap((k) =>
  k.words.map((w) => ({ w, lit: w, kind: k.kind, re: phrase(w) })),
).sort((a, b) => b.w.length - a.w.length);
const COLOR_WORDS = [...COLORS.map(([w, c]): [string, string[]] => [w, [c]]), ...COLOR_FAMILIES]
  .sort((a, b) => b[0].length - a[0].length)
  .map(([w, cs]) => ({ cs, lit: w, re: phrase(w) }));
const MATERIAL_WORDS = [...MATERIALS]
  .sort((a, b) => b[0].length - a[0].length)
  .map(([w, words]) => ({ words, lit: w, re: phrase(w) }));
/** "gender neutral" says who, not which colour. */
const NOT_COLORS = /\bgender[ -]neutral\b/g;
const coloursOf = (text: string) =>
  take(text.replace(NOT_COLORS, ' '), COLOR_WORDS).found.flatMap((f) => f.cs);
const BRAND_WORDS = [...BRANDS]
  .sort((a, b) => b.length - a.length)
  .map((b) => ({ b, lit: b, re: phrase(b) }));
/** Brands a shopper can ask for: not those that are everyday words too ("next week", "a gap"). */
const ASKED_BRAND_WORDS = BRAND_WORDS.filter((w) => !COMMON_WORD_BRANDS.has(w.b));
/**
 * A brand that is an everyday word too, said as the shop bought from ("anything from next", "what's
 * good at next", "jeans from gap"): asked for only where a shop's name can stand: ending the
 * clause, before another shop ("from next or m&s"), a garment ("from gap jeans", blanked by then),
 * "for", "kids", "please", its sale or a price. Never a time ("from next week", "at next school
 * disco", "at next weeks party"), a place ("next to", "from next doors sale") or a word
 * ("something at gap between jobs", "my cousin from columbia needs a coat").
 */
// High-street shops the brand list does not carry (no brand of their own to search).
const SHOP_NAMES = [
  ...BRANDS,
  ...COMMON_WORD_BRANDS,
  'm&s',
  'm and s',
  'marks',
  'john lewis',
  'tesco',
  'asda',
  'sainsburys',
  'matalan',
  'tk maxx',
  'river island',
  'new look',
  'debenhams',
]
  .sort((a, b) => b.length - a.length)
  .map((b) => b.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`))
  .join('|');
const SHOP_SAID = new RegExp(
  String.raw`\b(?:from|at) (${[...COMMON_WORD_BRANDS].join('|')})\b(?= ?$| ?[,.;:!?)]| {2,}| (?:and|or|&|\/|nor) (?:${SHOP_NAMES})(?![\w&])| (?:for|kids|kid|baby|please|pls|plz|online|instead|too|only|again|outlet|sales?|under|below|max|less than|up to|upto|around|about|between [£$€]?\d+|budget|or less|[£$€]|\d+)\b|(?:'s| s|s) (?:sales?|kids|outlet|online)\b| [£$€])`,
  'g',
);
/** A brand as offers name it: "the north face" is "north face", "h and m" is "h&m". */
const brandName = (b: string) => b.replace(/^the /, '').replace(/^h and m$|^hm$/, 'h&m');

/** Finds vocabulary phrases, longest first, blanking each so "navy blue" is not also "blue". */
function take<T>(
  text: string,
  words: Array<{ re: RegExp; lit: string } & T>,
): { found: Array<T & { at: number }>; rest: string } {
  let rest = text;
  const found: Array<T & { at: number }> = [];
  for (const w of words) {
    // Most of the vocabulary is not in a message: a substring test skips its pattern cheaply.
    if (!rest.includes(w.lit)) continue;
    rest = rest.replace(w.re, (m, at: number) => {
      found.push({ ...w, at });
      return ' '.repeat(m.length);
    });
  }
  found.sort((a, b) => a.at - b.at);
  return { found, rest };
}

const uniq = <T>(xs: T[]) => [...new Set(xs)];

const NOT_GARMENT_RES = NOT_GARMENTS.map(phrase);
/** Shades named after an item word ("denim blue"): a colour, never the item. */
const ITEM_SHADES = COLORS.filter(([w]) =>
  KIND_WORDS.some((k) => new RegExp(phrase(k.w).source).test(w)),
).map(([w]) => phrase(w));
const blank = (text: string, res: RegExp[]) =>
  res.reduce((t, re) => t.replace(re, (m) => ' '.repeat(m.length)), text);
/** What may stand between a modifier and its garment ("denim mini skirt"), but never a new item's start. */
const MODIFIER_GAP =
  /^ (?:(?!(?:and|or|with|plus|also|then|instead|not|no|for|in|to|a|an|some|size|but)\b)[a-z'-]+ ){0,2}$/;

/**
 * What stands between an item and a cloth word said as its cloth ("a skirt in denim", "a skirt, um,
 * something denim", "a jacket made of denim"): a short gap ending in "in", "something" or "made of",
 * with no other item started ("a top and something denim" asks for both).
 */
const CLOTH_AFTER = /^ (?:[a-z'-]+ |, ){0,4}(?:in|something|anything|all|made of|made from|of)(?: , )? $/;
const clothOfPrevious = (gap: string) =>
  gap.length <= 48 && CLOTH_AFTER.test(gap) && !/ (?:and|or|plus|also|with|then|too|but|\.) /.test(gap);

/**
 * The item words of a text, longest phrase first: a phrase naming no garment ("costume
 * jewellery") or a shade ("denim blue") is not read, and a modifier word before another item
 * ("denim skirt", "dress shoes") describes that item rather than being one itself. A modifier
 * never reaches across a sentence or clause break (normalised to " . " or " , "): "need a
 * dress! boots too" asks for both.
 */
function takeKinds(text: string) {
  const clean = blank(text, NOT_GARMENT_RES);
  const shadeless = blank(clean, ITEM_SHADES);
  const taken = take(shadeless, KIND_WORDS);
  const colourless = take(shadeless, COLOR_WORDS).rest;
  const found = taken.found.filter((f, i) => {
    const next = taken.found[i + 1];
    // "a skirt in denim", "a jacket, something denim": the cloth of the item said just before.
    const prev = taken.found[i - 1];
    if (f.w === 'denim' && prev && clothOfPrevious(shadeless.slice(prev.at + prev.w.length, f.at)))
      return false;
    // "a jumper dress": the top word describes the dress.
    if (
      next?.kind === 'dress' &&
      DESCRIBES_A_DRESS.has(f.w) &&
      shadeless.slice(f.at + f.w.length, next.at) === ' '
    )
      return false;
    if (!MODIFIER_WORDS.has(f.w) || !next) return true;
    const gap = shadeless.slice(f.at + f.w.length, next.at);
    if (f.w === 'dress') return !(gap === ' ' && DRESS_COMPOUNDS.includes(next.w));
    // A colour in between starts another item: "black denim white sneakers".
    const coloured = colourless.slice(f.at + f.w.length, next.at) !== gap;
    return coloured || !MODIFIER_GAP.test(gap);
  });
  // What is left for colours keeps the shades: "denim blue" is read as blue.
  let rest = clean;
  for (const f of taken.found)
    rest = rest.slice(0, f.at) + ' '.repeat(f.w.length) + rest.slice(f.at + f.w.length);
  // Most messages say nothing of maternity wear: a substring test skips the look-back.
  if (!/maternity|pregnancy|bump|nursing|feeding/.test(shadeless)) return { found, rest };
  return { found: found.map((f) => ({ ...f, kind: maternityKind(shadeless, f) })), rest };
}

/**
 * An item said after another as what the other goes with ("a tie for my suit", "a vest to wear
 * under his school shirt", "braces for my husband's suit"): owned, not asked for. The "for" of a
 * shopping verb is no such phrase: "and i'm also looking for a dress", "searching for a bag" ask
 * for the item.
 */
const SERVED = new RegExp(
  String.raw`\b(?:(?:(?<!\b(?:look|looks|looking|looked|search|searching|searched|shop|shopping|shopped|hunt|hunting|browse|browsing|ask|asking|market) )for|under|over|beneath|to go with|to wear (?:with|under|over)|to match) (?:my|his|her|their|our|your|the|a|an)|with (?:my|his|her|their|our|your|the))(?: [a-z]+'s)?(?: (?:${COLORS.map(([w]) => w).join('|')}|school|work|wedding|party|new|old|best|favourite|favorite|good|smart|winter|summer|suit))? $`,
);

const SERVED_REACH = 60;
/** What follows an item asked for to go with another: "(the shoes) to match", "(a bag) to go with it". */
const TO_MATCH = /^ (?:to match|that match(?:es)?|matching|to go with (?:it|them|that|this))\b/;

/** The text with the items said as what another goes with blanked (SERVED), and the item words then left. */
function withoutServed(text: string, taken: ReturnType<typeof takeKinds>) {
  let rest = text;
  for (const f of taken.found.slice(1)) {
    // The phrase is a few words long: only the text just before the item is looked at.
    const from = Math.max(0, f.at - SERVED_REACH);
    const m = text.slice(from, f.at).match(SERVED);
    // "with the shoes to match", "with a bag to go with it": the item is asked for, to match.
    if (!m || TO_MATCH.test(text.slice(f.at + f.w.length))) continue;
    const [start, end] = [from + m.index!, f.at + f.w.length];
    rest = rest.slice(0, start) + ' '.repeat(end - start) + rest.slice(end);
  }
  return rest === text ? { text, taken } : { text: rest, taken: takeKinds(rest) };
}

/**
 * What is said no to: "not black", "no heels", "forget the shoes", "drop the hat" ("do not forget
 * the wedding" and "don't forget the shoes" are reminders, no negation; "drop the kids at school"
 * is the school run).
 */
const NEGATION =
  /(?<!\b(?:don'?t|do not|never|not|won'?t|can'?t|didn'?t|mustn'?t|shouldn'?t) )\b(?:forget(?: about)?|drop|skip|scrap|ditch|scratch|leave out|cross off) (?:the|those|that|them)(?= )(?! (?:kids?|children|boys|girls|twins|little ones|baby|dogs?) (?:at|to|off|in|round|over|with)\b)|\b(?:can'?t be|cannot be|shouldn'?t be|mustn'?t be|not be|anything but|any (?:\w+ ){0,2}but|but not|but no|other than|apart from|anything except|except(?: for)?|excluding|without|nothing|not|no|never|isn'?t|aren'?t|don'?t want|do not want|(?:don'?t|doesn'?t|didn'?t|do not|does not|never) like|dislikes?|hates?|hated|can'?t stand|won'?t wear|will not wear|refuses to wear|avoid|no more)\s+(?!forget\b)/g;
const SCOPE_END =
  /^(?:and|but|just|only|wait|thanks|problem|worries|way|idea|under|below|over|less|around|about|for|size|in|because|so|i|we|please|though|with|that|which|maybe|instead|anything|make|actually)$/;

/** A garment's details a family says no to ("no labels", "no logos", "no zips"): nouns, not items. */
const DETAILS =
  /^(?:labels?|tags?|logos?|zips?|zippers?|buttons?|laces|hoods?|frills?|ruffles?|prints?|patterns?|slogans?|writing|pockets?|straps?|sleeves?|collars?|glitter|embroidery|characters?|cartoons?|pictures?|bows?|seams?|fastenings?|poppers?)$/;

/**
 * A cut, fit or pattern said no to before the item ("not skinny jeans", "no ripped jeans", "no
 * floral dresses"): the item after it is still asked for, and the look is no exclusion.
 */
const LOOKS =
  /^(?:skinny|ripped|distressed|cropped|oversized|baggy|flared|sleeveless|strapless|backless|frilly|floral|florals|flowery|striped|stripy|stripey|checked|chequered|checkered|tartan|plaid|spotty|chunky|padded|pleated|tiered|ruffled|glittery|sparkly|sequined|sequinned|shiny|sheer|tight|fitted|slim|wide|straight|low-rise|high-waisted)$/;

/**
 * A cut or fit of the same item said next ("not skinny jeans, straight leg"): the family names what
 * they want instead, so the item said with the refused look is still wanted.
 */
const ANOTHER_LOOK = new RegExp(
  `^(?:${LOOKS.source.slice(4, -2)}|bootcut|boot-cut|mom|boyfriend|relaxed|regular|leg)$`,
);

/** Where a negated phrase ends: at a break, a scope word, or (if `atLook`) a detail or look said no to. */
function negatedEnd(text: string, start: number, atLook: boolean) {
  // At most seven words are looked at: splitting the whole rest of the message for each negation
  // cost time in the square of its length.
  const words = firstWords(text, start, 7);
  let end = start;
  // "hates anything pink", "won't wear anything green or brown": "anything" right after the
  // negation says what follows is said no to (elsewhere it ends the phrase: "no pink or anything").
  const lead = words[0] === 'anything' ? 1 : 0;
  for (const [i, w] of words.entries()) {
    if (i < lead) {
      end += w.length + 1;
      continue;
    }
    // "not in black", "nothing in pink": "in" right after the negation starts what is said no to.
    // "nothing with sequins" says no to sequins.
    const first = i === lead;
    // "she hates yellow and orange", "no pink and purple please": a colour said after "and" with no
    // item of its own is said no to as well ("no pink and blue trainers" asks for blue trainers).
    if (w === 'and' && !first && colourSaidAlone(words, i + 1)) {
      end += w.length + 1;
      continue;
    }
    if (
      i >= 5 + lead ||
      w === ',' ||
      w === '.' ||
      (SCOPE_END.test(w) && !(first && (w === 'in' || w === 'with')))
    )
      break;
    end += w.length + 1;
    // "no labels t-shirts", "not skinny jeans": a detail or a look said no to ends the phrase, the
    // item after it is asked for.
    if (DETAILS.test(w) || (atLook && LOOKS.test(w))) break;
  }
  return Math.min(end, text.length);
}

/** A lone colour word at `at`, ending the phrase: "(no pink and) purple", "purple please", "purple ,". */
const colourSaidAlone = (words: string[], at: number) => {
  const [colour, after] = [words[at], words[at + 1]];
  if (!colour || coloursOf(` ${colour} `).length === 0) return false;
  return (
    after === undefined ||
    after === '' ||
    after === ',' ||
    after === '.' ||
    /^(?:please|either|too|thanks|for|in|or)$/.test(after)
  );
};

/** The first `n` words from `start` (split on single spaces, as `split(' ')` gives them). */
function firstWords(text: string, start: number, n: number): string[] {
  const words: string[] = [];
  let at = start;
  while (words.length < n) {
    const space = text.indexOf(' ', at);
    if (space === -1) {
      words.push(text.slice(at));
      break;
    }
    words.push(text.slice(at, space));
    at = space + 1;
  }
  return words;
}

/** The text with each span blanked, in one pass (spans may overlap or come in any order). */
function blankSpans(text: string, spans: Array<[number, number]>): string {
  const parts: string[] = [];
  let at = 0;
  for (const [a, b] of [...spans].sort((x, y) => x[0] - y[0])) {
    if (b <= at) continue;
    const from = Math.max(a, at);
    parts.push(text.slice(at, from), ' '.repeat(b - from));
    at = b;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/**
 * "hates anything bright", "nothing too bright", "any colour except neon": brightness said no to
 * with no colour after it is the bright colours said no to (vocabulary.ts COLOR_FAMILIES); "not
 * bright pink" is pink, "no bright lights" no colour.
 */
const BRIGHT_SAID =
  /\b(?:bright|neon|fluorescent|fluoro|garish|lurid)\b(?![ -](?:colou?rs?|shades?|tones?|lights?|ideas?)\b)/g;
function brightSaidNo(negated: string): string {
  if (!/bright|neon|fluor|garish|lurid/.test(negated)) return negated;
  return negated.replace(BRIGHT_SAID, (m, at: number) => {
    const next = negated.slice(at + m.length, at + m.length + 24).match(/^[ -]([a-z]+)/)?.[1];
    return next && coloursOf(` ${next} `).length > 0 ? m : 'bright colours';
  });
}

/** The words a colour is said with before its item: an article, a use ("navy not black school shoes"). */
const CONTRAST_FILLER =
  /^(?:an?|school|rain|winter|summer|party|work|sports?|gym|dance|swim|beach|snow|ski|wedding|prom|christening|communion|bridesmaid|formal|football|running|walking|hiking|riding|ballet|,)$/;
/**
 * "a red, not a blue dress", "black no white trainers", "navy not black school shoes": a colour said
 * alone, then "not" or "no" and another colour with the item. The item is the one asked for, in
 * the first colour: only the other colour is said no to. Never when the first colour is itself said
 * no to ("no pink no purple dresses") or has an item of its own ("a black dress no white trainers").
 * Where the negated colour ends, or undefined when the words are no such contrast.
 */
function colourContrastEnd(text: string, negAt: number, start: number, lastSpanEnd: number) {
  const before = text
    .slice(Math.max(0, negAt - 40), negAt)
    .split(' ')
    .filter((w) => w && w !== ',');
  const colour = before.at(-1);
  if (!colour || coloursOf(` ${colour} `).length === 0) return undefined;
  const colourAt = text.lastIndexOf(colour, negAt);
  if (colourAt < lastSpanEnd) return undefined;
  const prev = before.at(-2);
  if (
    prev &&
    (/^(?:no|not|never|nothing|without|except|but|hates?|and|or|&)$/.test(prev) ||
      takeKinds(` ${prev} `).found.length)
  )
    return undefined;
  const words = firstWords(text, start, 6);
  const item = takeKinds(` ${words.join(' ')} `).found[0];
  if (!item) return undefined;
  // Up to the item: only an article, colours and a use.
  const upTo = words.join(' ').slice(0, item.at - 1);
  const rest = take(` ${upTo} `, COLOR_WORDS);
  if (rest.found.length === 0) return undefined;
  if (!rest.rest.split(' ').every((w) => w === '' || CONTRAST_FILLER.test(w))) return undefined;
  const lastColour = rest.found.at(-1)!;
  return start + lastColour.at - 1 + lastColour.lit.length;
}

/** Blanks negated phrases ("not black", "no heels", "anything but red") and returns what they excluded. */
function readNegations(text: string) {
  const spans: Array<[number, number]> = [];
  const looks: Array<{ span: number; end: number }> = [];
  for (const m of text.matchAll(NEGATION)) {
    const start = m.index! + m[0].length;
    const end =
      colourContrastEnd(text, m.index!, start, spans.at(-1)?.[1] ?? 0) ?? negatedEnd(text, start, true);
    const whole = negatedEnd(text, start, false);
    if (whole > end) looks.push({ span: spans.length, end: whole });
    spans.push([start, end]);
  }
  // "no skinny or ripped jeans, I want a dress", "no tight jeans, she wants a skirt": a look said no
  // to with its item, and another item asked for, refuses the item too. The item stays wanted when it
  // is the only one, or when another look of it follows ("not skinny jeans, straight leg").
  if (looks.length) {
    const whole = spans.map(([a, b], i): [number, number] => [a, looks.find((l) => l.span === i)?.end ?? b]);
    const others = takeKinds(blankSpans(text, whole)).found.map((f) => f.kind);
    for (const { span, end } of looks) {
      const lookKinds = takeKinds(` ${text.slice(spans[span]![1], end)} `).found.map((f) => f.kind);
      if (!lookKinds.length || !others.some((k) => !lookKinds.includes(k))) continue;
      const next = text.slice(end).replace(/^[\s,.]+/, '');
      const clause = ` ${next.split(/ [,.] /)[0]} `;
      const insteadLook =
        ANOTHER_LOOK.test(next.split(' ')[0] ?? '') &&
        takeKinds(clause).found.every((f) => lookKinds.includes(f.kind));
      if (!insteadLook) spans[span] = [spans[span]![0], end];
    }
  }
  const negated = spans.map(([a, b]) => ` ${text.slice(a, b)} `).join(' ; ');
  const kinds = takeKinds(negated).found.map((f) => f.kind);
  const colors = coloursOf(brightSaidNo(negated));
  const materials = take(negated, MATERIAL_WORDS).found.flatMap((f) => f.words);
  const brands = take(negated, BRAND_WORDS).found.map((f) => brandName(f.b));
  const rest = blankSpans(text, spans);
  return {
    kinds: uniq([...kinds, ...materials]),
    colors: uniq(colors),
    brands: uniq(brands),
    rest,
    negated,
  };
}

/**
 * A message split into what it asks for and what it says no to ("a black top, no white": "white"
 * is said no to), normalised as the brief reads it. The mission's constraint parser reads its
 * colours and categories from the first part, so the two readers agree on every negation.
 */
export function splitNegations(message: string): { positive: string; negated: string } {
  const { rest, negated } = readNegations(` ${normalize(message)} `);
  return { positive: rest, negated };
}

const CLEARS: Array<[RegExp, Reading['clear'][number]]> = [
  [
    /\b(?:start (?:over|again|fresh)|reset|new search|scratch (?:that|all that)|forget (?:all|everything|all of) (?:that|this|of that)?|forget everything|clear (?:it|everything|all))\b/,
    'all',
  ],
  [PRICE_CLEARED, 'price'],
  [
    /\b(?:forget|drop|ignore|remove|never ?mind|scrap) (?:the |about the )?colou?rs?\b|\bany colou?r\b(?! but| except)|\bcolou?r doesn'?t matter\b|\bdon'?t care about (?:the )?colou?r\b/,
    'colors',
  ],
  [/\b(?:forget|drop|ignore|remove|never ?mind) (?:the )?size\b|\bany size\b/, 'sizes'],
  [
    /\b(?:forget|drop|ignore|never ?mind) (?:the )?brands?\b|\bany brand\b|\bbrand doesn'?t matter\b|\bdon'?t care about (?:the )?brands?\b/,
    'brands',
  ],
  // "forget the party, it's for school now": the occasion goes (a "party dress" is still asked for).
  // "don't forget the wedding" is a reminder: the occasion stays.
  [
    /(?<!\b(?:don'?t|do not|never|not|won'?t|can'?t|didn'?t|mustn'?t|shouldn'?t) )\b(?:forget|drop|ignore|never ?mind|scrap|ditch|no more) (?:about )?(?:the |that )?(?:occasion|event|party|wedding|birthday|prom|funeral|interview|holiday|trip|date|christening|graduation|function)(?= ?(?:,|\.|$| and\b| now\b| it'?s\b| its\b| we\b| i\b| instead\b| for\b))/,
    'occasion',
  ],
  [
    /\b(?:forget|drop|ignore|never ?mind) (?:the )?season\b|\bany season\b|\ball year\b|\byear round\b/,
    'seasons',
  ],
];

/**
 * Another item on top of those asked for: "also", "too" (not the "too" of "nothing too dear", "not
 * too tight": a wish about the look or the price), and a message that opens with "and" or
 * "with" ("and a cardigan", "with shoes to match"), or asks for what matches ("and matching gloves").
 */
const ADD_KINDS =
  /\b(?:also|too(?! (?:expensive|pricey|pricy|dear|spenny|costly|much|many|big|small|large|tight|loose|long|short|fancy|formal|dressy|casual|sporty|bright|dark|warm|hot|cold|thin|thick|heavy|light|girly|babyish|childish|revealing|plain|busy|loud|flashy|baggy|high|low|young|old)\b)|as well|plus|another)\b|^ ?(?:and|with|oh and|and then)\b|\bmatching\b|\bto match\b|\bto go with (?:it|them|that|this)\b/;
const REFUSE =
  /\bignore (?:the |all |your |any |previous |those )*(?:rules|instructions|limits|restrictions)\b|\b(?:admin|developer|god|dev) mode\b|\bapprove (?:it|this|that|the request|my request|the purchase|them)\b|\bconfirm (?:the |my )?(?:checkout|purchase|order|payment)\b|\bbypass\b|\boverride\b|\bpretend (?:you|to)\b|\byou are now\b|\b(?:skip|without|get round|get around|no need for) (?:the |my |a |any |your )?(?:(?:parent(?:al|s|'s|s')?|mum'?s|mom'?s|dad'?s|guardian'?s?) )?(?:approval|confirmation|permission|parents?|asking)\b|\b(?:without|before) (?:telling|asking|letting|checking with|involving) (?:my |our |the )?(?:mum|mom|mam|mummy|mommy|dad|daddy|mother|father|parents?|guardian|folks)\b|\bbehind (?:my |our )?(?:mum|mom|dad|parents?)(?:'s|s'|s)? backs?\b|\b(?:(?:log|logged|logging) ?(?:into|onto|in|on)|(?:sign|signed|signing) ?(?:into|in))(?: (?:as|to|with|using))? (?:my |his |her |their |our |the )?(?:husband|wife|partner|mum|mom|dad|mother|father|parents?|guardian|brother|sister|someone|somebody|(?:an)?other (?:account|user|person|profile|member)|[a-z]+'s)\b|\b(?:use|using|with|on|from) (?:my |his |her |their |our )?(?:husband|wife|partner|mum|mom|dad|mother|father|parents?|guardian|brother|sister|grandma|grandad|grandpa|nan|someone|somebody)(?:'s|s|s')? (?:credit |debit |bank )?(?:card|account|login|password|details|approval|phone|paypal)\b/;
const BUY =
  /\b(?:buy|purchase|order|check ?out|checkout|pay for|place (?:the |an |my )?order|add (?:it |this |that |them )?to (?:the |my )?(?:cart|basket)|get (?:it|this|that|them|one) (?:now|for (?:me|him|her|us))|i'?ll take (?:it|that|this|the))\b/;
/**
 * "yes get that", "go ahead and order them", "take the second one": buying what was shown, said
 * without the words above. Read only when the message asks for nothing new.
 */
const BUY_SHOWN =
  /\b(?:get|grab|order|take|buy|i'?ll have|we'?ll have) (?:it|this|that|them|those|these|this one|that one|the (?:first|second|third|fourth|fifth|last|1st|2nd|3rd|1|2|3) (?:one|1)|the (?:first|second|third|last) ones?)\b|\b(?:go ahead|go for it|do it|yes please|sounds good)\b|\bgo (?:for|with) (?:the (?:first|second|third|fourth|fifth|last|1st|2nd|3rd|1|2|3)(?: (?:one|1|ones))?|that one|this one|those|these)\b/;
/** "yes", "no", "maybe": an answer to the stylist's question, never a request outside clothing. */
const ANSWER =
  /^(?:yes|yeah|yep|yup|no|nah|nope|maybe|not sure|i don'?t know|dunno|either|both|neither)(?: \.)?$/;
/** "no thanks, none of these": declining what was shown, not thanking. */
const DECLINED =
  /\b(?:no|nah|nope) (?:thanks|thank you|thx|cheers)\b|\bnone of (?:these|those|them)\b|\bnot (?:that|this|the) (?:1|one)\b|\bnot (?:these|those|them)\b|\b(?:don'?t|do not) (?:like|love|want) (?:it|that|this|them|these|those)\b/;
/**
 * "i need to buy a winter coat for my son", "want to buy trainers": shopping for something new,
 * not buying what was shown. What is pointed at ("want to buy the blue one", "looking to purchase
 * that one", "to buy it") was shown: that is buying.
 */
const BUY_SOMETHING_NEW =
  /\b(?:buy|purchase|order|get)\s+(?:(?:me|him|her|them|us|(?:my|our|his|her|their) (?:little |eldest |youngest |oldest |older |younger )?[a-z]+(?:'s)?)\s+)?(?:a|an|some|new|one|\d{1,2}|pairs?|for)\b|\b(?:want|wants|need|needs|like|looking|hoping|planning|trying|have|has|got|gotta|must|going|gonna)(?: to)? (?:buy|purchase|order)\b(?! (?:the|it|this|that|these|those|them|one of|both|either)\b)/;
const PAIR =
  /\b(?:go(?:es)? (?:well )?with|looks? (?:good|nice|great|ok|okay|best) with|match(?:es|ing)?|wear (?:it )?with|to wear with|pair (?:it )?with|style|complement|goes nicely with)\b/;
/**
 * Clarified, not declined: asking for someone, for a look, or for what is on sale or new ("what's
 * on sale", "any deals today?", "what have you got"): shopping, its item still to be asked.
 */
const SHOPPING =
  /\b(?:(?:on sale|in the sales?|(?:any|the) sales?|sales? on)(?! (?:assistants?|person|people|staff|team|reps?|jobs?)\b)|deals|offers|on offer|discounts?|discounted|reduced|clearance|trending|in stock|new in|new arrivals|what (?:have|do) you (?:got|have|sell|stock)|what(?:'s| is| are) (?:popular|in fashion|in style))\b|\bfor (?:my|our|his|her|the) (?:son|daughter|kids?|children|boys?|girls?|baby|toddler|husband|wife|partner|mum|mom|dad|brother|sister|grandson|granddaughter|nephew|niece|twins)\b|\b(?:colou?rs?|need|needs|find|looking|look for|want|wants|get|something|anything|outfit|outfits|clothes|clothing|put on|take off|pull on|easy on|adaptive|dress (?:himself|herself|themselves|myself)|wear|stuff|shop|shopping|nice|help|show|recommend|suggest|gift|present|ideas?|options?|buy|new|cute|more|other|else|different|formal|dressy|fancy|casual|smart|sporty|plain|simple|longer|shorter|warmer|lighter|thinner|thicker|brighter|darker|looser|tighter)\b/;

/** "less formal", "not too dressy": a step away from an occasion, never that occasion. */
const TONED_DOWN = /\b(?:less|too|not so|not too|overly|a bit too) (formal|dressy|fancy|casual|sporty)\b/g;
/** The occasion each toned-down word names (vocabulary.ts OCCASIONS). */
const TONED_OCCASION: Record<string, string> = {
  formal: 'formal',
  dressy: 'formal',
  fancy: 'formal',
  casual: 'casual',
  sporty: 'sport',
};

// "love it", "nice one", "much appreciated": pleased with what was shown, said as thanks.
const THANKS =
  /\b(?:thanks|thank you|thx|ty|ta|cheers|great|perfect|awesome|lovely|cool|ok|okay|brilliant|amazing|nice (?:one|1)|much appreciated|appreciate it|love (?:it|them|that|this|these|those))\b/;
const PLEASED =
  /^ ?(?:(?:oh |ah )?(?:nice (?:one|1)|love (?:it|them|that|this|these|those))(?: (?:thanks|thank you|cheers|mate|x+))?(?: [!.,])* ?)+$/;
/** "thanks for your help": the help thanked for asks for nothing. */
const HELP_THANKED =
  /\b(?:thanks|thank you|thx|cheers)(?: (?:so|very) much)? (?:for|4) (?:all )?(?:your |ur |the |that )?(?:help|helping)\b/g;
/** "hi", "hello there", "good morning": a greeting alone opens the chat, asking what is wanted. */
const GREETING =
  /^ ?(?:hi|hello|hey|hiya|heya|howdy|yo|good (?:morning|afternoon|evening)|morning|evening)(?: (?:there|again|all|everyone|you))?(?: ,)?(?: (?:how are you|how r u|how are things))?(?: \.)? ?$/;

/**
 * Sizes as they are said aloud, in the form read below: "xx large", "extra extra large" and
 * "double xl" are XXL, "triple x large" XXXL, "xx small" XXS, "size nine and a half" size 9.5.
 */
export const spokenSizes = (text: string) =>
  text
    .replace(
      /\b(?:extra[ -]extra[ -]|double[ -](?:x[ -]?|extra[ -])|xx[ -]?)large\b|\bdouble[ -]?xl\b/g,
      'xxl',
    )
    .replace(/\b(?:triple[ -](?:x[ -]?|extra[ -])|xxx[ -]?)large\b|\btriple[ -]?xl\b/g, 'xxxl')
    .replace(/\b(?:extra[ -]extra[ -]|double[ -]x[ -]?|xx[ -]?)small\b/g, 'xxs')
    .replace(/\b(size|sz|eu|us|uk|in an?) (\d{1,2}) and a half\b/g, '$1 $2.5');

const LETTER = '(?:xxs|xs|s|m|l|xl|xxl|xxxl|2xl|3xl)';
/** A bag's size is no one's clothing size: "a small rucksack", "a large tote bag". */
const BAG_WORDS = KINDS.filter((k) => k.category === 'BAG')
  .flatMap((k) => k.words)
  .sort((a, b) => b.length - a.length)
  .join('|');
/**
 * "small", "medium", "large" as a size: not how an item fits or packs ("runs small", "too big"),
 * nor how a child is built ("he's 6 but small", "tall for her age"), nor which child wears a size
 * ("the small one a 13", "the small one is a 13").
 */
const SIZE_WORDS = new RegExp(
  String.raw`(?<!\b(?:too|so|bit|very|packs|packs down|folds|folds down|runs|run|fits|fit|comes up|come up|but|quite|rather|pretty|really) )\b(small|medium|large)\b(?! (?:${BAG_WORDS}|amount|budget|family|group|number)\b)(?! (?:1|one)(?:'s| is| wears?| takes?| needs?)? (?:an? |size |age )?\d)(?! for (?:his|her|their|its|my|our|your|an?) (?:age|\d))`,
  'g',
);
/**
 * Who wears the size, said by name of the relation: "my daughter wears a 10", "my husband takes a
 * 42"; or as one of several ("the older one is a 3", "one's a 10, the other's a 1"). After "the",
 * "my"… the verb may go unsaid ("her sister a 6", "the little one a 12").
 */
const WEARER =
  '(?:sons?|daughters?|husband|wife|partner|boys?|girls?|kids?|child|toddler|teen|teenager|eldest|oldest|youngest|little one|mum|mom|dad|mother|father|grandson|granddaughter|nephew|niece|brother|sister|twins|(?:older|oldest|elder|eldest|younger|youngest|little|littlest|big|bigger|biggest|small|smaller|smallest|large|larger|largest|medium|other|middle|first|second|baby) (?:1|one)|other|(?<=(?:^ ?|[,;:] |\\band |\\bthe |\\bthen |\\bwhile |\\bbut |\\d ))(?:1|one))';
/** "she's actually a 1 now", "he is now a 5", "i usually take a 12": a word of time or habit between. */
const WEARS_ADVERB =
  '(?: (?:actually|now|currently|probably|usually|normally|generally|typically|mostly|still|really|already|just|definitely|more like|nearly|almost))?';
/**
 * After "a 12", what says it is no size worn: a size judged ("but a 12 would be too big", "a 10's
 * too small", "but a 12 won't fit"), a product's number ("a 3 in 1 jacket", "a 2 for 1", "a 5 a
 * side kit", "a 5 star"), a length of time ("a 3 day trip", "a 5 minute job"), a currency's code.
 */
const SIZE_JUDGED =
  "(?:'s| (?:and |but )?(?:is|was|would be|will be|might be|could be|may be|seems|looks|feels|runs|came up|comes up|come up))(?: (?:a bit|a little|bit|way|far|much|so|really|just|probably|definitely|slightly|also|still))? (?:too|tight|big|small|huge|tiny|massive|loose|snug)\\b|(?: and| but)?(?: (?:a bit|a little|bit|way|far|much|so|really|just|probably|definitely|slightly|also|still))? too (?:big|small|tight|loose|long|short|large|baggy|snug)\\b| (?:isnt|isn't|wasnt|wasn't|wont|won't|wouldnt|wouldn't|doesnt|doesn't|didnt|didn't|dont|don't|cant|can't|never)\\b";
const NOT_WORN =
  ' ?(?:in ?(?:1|one)|for (?:1|2|one|two)|out of|a side|stars?|days?|nights?|hours?|hrs?|mins?|minutes?|seconds?|am|pm|gbp|usd|eur|aud|cad|nzd)\\b';
const WEARS_A = new RegExp(
  String.raw`\b(?:(?:he'?s|she'?s|he is|she is|i'?m|i am|they'?re|they are)${WEARS_ADVERB}|${WEARER}'s${WEARS_ADVERB}|(?:he|she|i|they|${WEARER})${WEARS_ADVERB} (?:wears?|takes?|is|are)|(?<=\b(?:the|my|our|her|his|their)(?: (?:other|older|elder|younger|little|big))? )${WEARER}|\bbut(?: in)?)${WEARS_ADVERB} an? (\d{1,2}(?:\.5)?)\b(?! ?(?:years?|yrs?|yo|y\/o|months?|weeks?|year olds?|dollars?|bucks|pounds?|euros?|quid|packs?|pairs?|pieces?|sets?|budget|limit|max|tops|each|off|%))(?!${NOT_WORN}|${SIZE_JUDGED})`,
  'g',
);
/** A pair's second size, right after a size worn ("she's a 7-8", "my son a 9/10"). */
const PAIR_AFTER = /^ ?(?:-|–|\/) ?(\d{1,2})\b(?! ?(?:years?|yrs?|y|months?|m)\b)/;
/** "m or l", "s/m", "10 or 12": the alternatives after a first size. */
const OR_LETTERS = String.raw`((?:(?:\s?(?:or|/|,|&|and)\s?|\s)(?:an?\s)?${LETTER}\b(?!'))*)`;
/** "10 or 12", "8 or a 10", "8 or size 10" (not "8 or a 10 year old": an age). */
const OR_NUMBERS = String.raw`((?:\s?(?:or|/)\s?(?:an?\s|size\s)?\d{1,2}(?:\.5)?\b(?! ?(?:years?|yrs?|year olds?|months?)\b))*)`;
/** Who a size's range is cut for, said after the figure ("13 kids", "size 2 youth", "9 infant"). */
const KIDS_RANGE_WORD =
  "(?:(kids?'?s?|youth|juniors?|jnr|jr|children'?s?|little kids?|big kids?)|infants?|toddlers?)";
const RANGE_AFTER = KIDS_RANGE_WORD.replace('(kids', '(?:kids');
/** A kids' size said by age after what the child wears or needs ("wears age 12", "so age 12-13"). */
const WORN_AGE =
  /\b(?:wears?|wearing|takes?|taking|fits?(?: into| in)?|fitting(?: into)?|needs?|is in|she'?s in|he'?s in|they'?re in|in|so|but|buy|get|usually|actually|more like) (?:an? |the )?(?:age|aged) (\d{1,2}) ?(?:(?:-|–|to|\/) ?(\d{1,2}))?(?! ?(?:months?|mths?|weeks?)\b)(?![\w.])/g;
/** "wears 10-11", "takes 7-8": a range worn, said without "age". */
const WORN_RANGE =
  /\b(?:wears?|wearing|takes?|taking|fits?(?: into| in)?|is in|she'?s in|he'?s in|they'?re in) (\d{1,2}) ?(?:-|–|\/) ?(\d{1,2})\b(?! ?(?:months?|mths?|weeks?)\b)(?![\w.])/g;
const SIZE_NUMBERS = new RegExp(
  // "32 waist 34 length": the number before a length, leg or inseam is no waist.
  // "kids size 13" is read above, as one kids' size.
  String.raw`(?<!\b(?:kids?'?s?|youth|children'?s?|toddler) )\b(?:size|sz|waist)(?: is| was)? (\d{1,2}(?:\.5)?)\b(?![.,]\d)(?! ?(?:(?:-|–|to) ?\d{1,2} ?)?(?:years?|yrs?|y)\b)(?! ?(?:length|leg|inseam|long)\b)(?! ?${RANGE_AFTER}(?![\w']))${OR_NUMBERS}`,
  'g',
);
/** "size 7-8", "size 7 to 8" (no age after: "size 7-8 years" is read as ages). */
const SIZE_PAIR =
  /\b(?:size|sz) (\d{1,2}(?:\.5)?) ?(?:-|–|to) ?(\d{1,2}(?:\.5)?)\b(?! ?(?:years?|yrs?|y|\$|£|€|dollars?|bucks|pounds?|quid|euros?)\b)(?![.,]\d|[$£€])/g;
const SIZE_LETTERS = new RegExp(
  String.raw`\b(?:size|sz|size is|size was|in|in an?|an?) (${LETTER})\b(?!')${OR_LETTERS}`,
  'g',
);
const A_LETTER = new RegExp(String.raw`\b${LETTER}\b(?!')`, 'g');
const alternatives = (chain: string | undefined, re: RegExp) =>
  chain ? [...chain.matchAll(re)].map((m) => m[0]) : [];

/** "womens 3x", "size 2x", "in a 1x": a US plus size after a word for size or whom it is cut for. */
const PLUS_X =
  /\b(?:size|sz|in an?|in|womens|women's|ladies|plus|plus size|curve|curvy)(?: size)? ([1-3])x\b(?![\w-])/g;
/** What is bought by band and cup ("34b"). */
const CUPPED = /\b(?:bras?|sports bras?|bralettes?|bikinis?|swimsuits?|lingerie)\b/;

/** What may follow "size 12 and 14" said for two people: the clause ends. */
const SIZES_CLAUSE_END = /^ ?(?:$|[.,;]|please\b|for\b|respectively\b|each\b)/;

/** What is no size after a figure: money, an age, a count. */
const NOT_A_SIZE_AFTER = String.raw`(?![.,]\d)(?! ?(?:-|–|to|or less|or under|ish|max(?:imum)?|tops|each|apiece|dollars?|bucks|pounds?|quid|euros?|eur|usd|gbp|years?|yrs?|y|yo|year olds?|months?|k|pairs?|percent|off)\b)(?! ?[$£€%])`;
/** "plus size jeans 22", "womens trousers 16": an item word between the range and its size. */
const RANGED_ITEM = KINDS.filter((k) => k.category !== 'BAG')
  .flatMap((k) => k.words)
  .filter((w) => /^[a-z]+$/.test(w))
  .sort((a, b) => b.length - a.length)
  .join('|');
// The item between is for a women's range only, and "plus" only as "plus size": "mens jeans 20" and
// "a hoodie plus jeans 20" keep their figure as before (a price).
const RANGE_SIZE = new RegExp(
  String.raw`\b(?:(?:ladies|ladies'|lady's|womens|women's|woman's|womans|mens|men's|man's|(?<!\b(?:he'?s|she'?s|i'?m|is|am|are|quite|very|so|really|pretty|bit) )(?:petite|tall|plus|curve|curvy|maternity))(?: size)?|(?:ladies|ladies'|lady's|womens|women's|woman's|womans|plus[- ]size|(?<!\b(?:he'?s|she'?s|i'?m|is|am|are|quite|very|so|really|pretty|bit) )(?:petite|curve|curvy|maternity))(?: size)? (?:${RANGED_ITEM})) (\d{1,2}(?:\.5)?)\b${NOT_A_SIZE_AFTER}`,
  'g',
);
const SHOE_WORD = KINDS.filter((k) => k.category === 'SHOES')
  .flatMap((k) => k.words)
  .sort((a, b) => b.length - a.length)
  .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  .join('|');
const SHOE_WORDS = new RegExp(String.raw`\b(?:${SHOE_WORD})\b`);
/** Any item word, longest first, and whether it is footwear. */
const ANY_ITEM_WORD = new RegExp(
  String.raw`(?<![\w-])(?:${KINDS.flatMap((k) => k.words)
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})(?![\w-])`,
  'g',
);
const SHOE_WORD_SET = new Set(KINDS.filter((k) => k.category === 'SHOES').flatMap((k) => k.words));
/**
 * Whether the item said nearest a stretch of the text is footwear: "size 6-8 trainers" and "a coat
 * and trainers size 6-8" are the trainers' sizes, "jeans size 10-12 and trainers" the jeans'.
 */
function nearestItemIsShoe(text: string, from: number, to: number): boolean {
  // Within a clause's reach either side, so a long message costs no more per span.
  const start = Math.max(0, from - 60);
  const near = text.slice(start, to + 60);
  let best: { d: number; w: string } | undefined;
  for (const m of near.matchAll(ANY_ITEM_WORD)) {
    const [at, end] = [start + m.index, start + m.index + m[0].length];
    const d = end <= from ? from - end : at >= to ? at - to : 0;
    if (!best || d < best.d) best = { d, w: m[0] };
  }
  return best !== undefined && SHOE_WORD_SET.has(best.w);
}
/**
 * "trainers 13 kids", "size 2 youth", "school shoes, 1 junior": a kids' shoe size with its range
 * after the figure, after "size" or a shoe word ("for 3 kids" counts them).
 */
const SIZE_THEN_RANGE = new RegExp(
  String.raw`\b(?:size|sz|${SHOE_WORD})(?: ,)? (\d{1,2}(?:\.5)?) ?${KIDS_RANGE_WORD}(?![\w'])`,
  'g',
);
const SHOE_NUMBER = new RegExp(String.raw`\b(?:number|nr|no\.) ([1-4]\d(?:\.5)?)\b${NOT_A_SIZE_AFTER}`, 'g');
/**
 * "trainers 5", "boots, 7, black": a bare figure a UK or US shoe size can be, right after the shoes,
 * is the size (never money, an age, a count, a heel's height or a list: "trainers 5 quid", "boots 6
 * inch", "trainers 2 pairs", "school shoes 12 and 1").
 */
const SHOE_SIZE_AFTER_ITEM = new RegExp(
  String.raw`(?<![\w-])(?:${SHOE_WORD})(?: [,.])? ((?:1[0-3]|[1-9])(?:\.5)?)\b${NOT_A_SIZE_AFTER}(?! ?(?:weeks?|days?|hours?|mins?|minutes?|inch(?:es)?|in|cm|mm|high|heels?|kids|children|people|of|x|for under|(?:and|&|or|,) ?\d)\b)(?! ?["'])`,
  'g',
);
/**
 * "trainers 4 or 5", "boots 8/9", "trainers 3-4": two neighbouring shoe sizes (a whole or half size
 * apart) right after the shoes, both the size; not money, an age, a count or a time after them
 * ("trainers 3-4 quid", "trainers 2-3 pairs", "boots 1-2 days", "trainers 3-4 years").
 * Only the message's end, a stop or a little word of the sentence may follow the pair: any other
 * word counts or measures something ("trainers 4 or 5 options", "2 or 3 colours", "4 or 5 stars",
 * "4 or 5 miles", "2 or 3 times a week", "9 or 10 am", "3/4 length"). "in" is inches only at the end
 * or before a height ("boots 4 or 5 in high"), never before a colour ("trainers 12 or 13 in navy").
 */
// A colour, a brand or a word about the fit or the choice may follow the pair too ("boots 8/9 black
// leather", "trainers 4 or 5 nike", "football boots 4 or 5 with studs", "trainers 4 or 5 not sure"),
// but never a count of them ("trainers 4 or 5 black pairs", "4 or 5 nike options"; "a white
// pair" is one) nor a size taken back ("trainers 4 or 5 sorry I meant 6"; "sorry I meant black"
// takes back the colour).
const SHOE_PAIR_NEXT = [...COLORS.map(([w]) => w), ...BRANDS]
  .sort((a, b) => b.length - a.length)
  .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  .join('|');
const SHOE_PAIR_END = String.raw`(?= ?(?:$|[,.!?;:)]|(?:for|please|pls|plz|my|his|her|their|our|the|and|maybe|or|thanks|thank|thx|ta|cheers|x+|if|would|should|will|ideally|probably|depending|budget|under|max|wide|in|he|she|they|we|i|is|are|boy|girl|son|daughter|with|not|either|whichever|sorry(?! (?:i )?(?:meant?|mean) (?:(?:a |an )?size )?\d)|ish|leather|suede|velcro|lace|laces|narrow|(?:${SHOE_PAIR_NEXT})(?! (?:pairs|options|styles|choices|colou?rs)\b))(?![\w-])))`;
const SHOE_SIZES_AFTER_ITEM = new RegExp(
  String.raw`(?<![\w-])(?:${SHOE_WORD})(?: [,.])? ((?:1[0-3]|[1-9])(?:\.5)?) ?(?:or|\/|-|–) ?((?:1[0-3]|[1-9])(?:\.5)?)\b${NOT_A_SIZE_AFTER}(?! ?(?:weeks?|days?|hours?|mins?|minutes?|inch(?:es)?|in(?= ?(?:$|[,.!?;:)]|(?:high|heels?|long|tall|platforms?)\b))|cm|mm|high|heels?|kids|children|people|of|x|for under)\b)(?! ?["'])${SHOE_PAIR_END}`,
  'g',
);
const WAIST_AFTER_ITEM =
  /\b(?:jeans|trousers|chinos|pants|cords|slacks|denims)(?: ,)? (2[6-9]|3\d|4[0-4])\b(?![.,]\d)(?! ?(?:-|–|to|or|and|ish|max(?:imum)?|tops|at most|each|apiece|total|a pair|for (?:both|the (?:two|pair|lot|set)|everything|all)|\$|£|€|dollars?|bucks|pounds?|quid|euros?|eur|usd|gbp|years?|yrs?|y|yo|year olds?|k|%|pairs?|percent|off)\b)(?! ?[$£€%])/g;

/** A collared shirt and a bare collar figure after it, in inches (14-19) or cm (36-46). */
const COLLAR_AFTER_SHIRT = new RegExp(
  String.raw`(?<![\w-])(?<!\b(?:polo|football|footy|rugby|soccer|sports?|hawaiian|night|over|sweat|tee|golf|cycling|swim|rash) )(?:(?:dress|work|formal|oxford|school|smart) )?shirts?(?: ,)? (1[4-9](?:\.5)?|3[6-9]|4[0-6])\b(?! ?(?:collar|neck|inch|in|cm|")\b)${NOT_A_SIZE_AFTER}`,
  'g',
);
/** A child said to be there: whose height a figure in centimetres is. */
const A_CHILD =
  /\b(?:sons?|daughters?|kids?|child(?:ren)?|boys?|girls?|grand(?:son|daughter|kid|child)s?|nephews?|nieces?|toddlers?|twins|youngest|eldest|little (?:one|1)|dd|ds|lad|lass)\b/;
/** "140 cm", "140cm tall", "1.40 m", "1m40": a height (not a scarf's "150 cm long"). */
const HEIGHT =
  /\b(?:(\d{2,3}) ?(?:cm|cms|centimet(?:re|er)s?)|1[.,](\d{2}) ?(?:m|metres?|meters?)|1 ?m ?(\d{2}))\b(?! ?(?:long|wide|length|width|across|round|around)\b)/g;
/** "size 128", "in a 140": European kids' sizes are the child's height, in steps of 6 cm from 92. */
const HEIGHT_SIZE = /\b(?:size|sz|in an?|in size|number) (9[28]|1[0-6][0-9])\b(?! ?(?:cm|cms|centimet))/g;
/**
 * The kids' sizes (ages) heights stand for: 92 cm is 2 years, and each 6 cm a year more, up to
 * 164 cm (14). A height an adult could be (147 cm and over) counts only when a child is said.
 */
/** "4ft 7", "4 foot 2", "4 feet 7 inches", "4'7": a height in feet and inches. */
const FEET =
  /\b([3-5]) ?(?:ft|foot|feet|')(?: ?(\d{1,2})(?: ?(?:in|ins|inch|inches)\b)?)?(?![\w'])(?! ?(?:long|wide|length|width|across|round|around)\b)/g;
function heightAges(text: string, ages: number[]): number[] {
  if (
    !/\d ?(?:cm|cms|centimet|m\b|metre|meter|m ?\d|ft|foot|feet|' ?\d)|\b(?:size|sz|in an?|in size|number) (?:9[28]|1[0-6]\d)\b/.test(
      text,
    )
  )
    return [];
  const child = A_CHILD.test(text) || ages.some((a) => a <= 14);
  const out: number[] = [];
  const at = (cm: number, step: boolean) => {
    if (cm < 92 || cm > 164 || (step && (cm - 92) % 6 !== 0)) return;
    if (cm >= 147 && !child && !step) return;
    const age = Math.round((cm - 80) / 6);
    if (!out.includes(age)) out.push(age);
  };
  for (const m of text.matchAll(HEIGHT)) at(m[1] ? Number(m[1]) : 100 + Number(m[2] ?? m[3]), false);
  for (const m of text.matchAll(HEIGHT_SIZE)) at(Number(m[1]), true);
  for (const m of text.matchAll(FEET)) {
    const inches = Number(m[2] ?? 0);
    if (inches < 12) at(Math.round((Number(m[1]) * 12 + inches) * 2.54), false);
  }
  return out;
}

/** "kids 10-11" (groups 1, 2), "13-14y" / "9-10 yrs" as labelled (groups 3, 4). */
const KIDS_RANGE =
  /\b(?:kids?'?s?|youth|children'?s?)(?: size)? (\d{1,2}) ?(?:-|–|\/) ?(\d{1,2})\b(?! ?(?:years?|yrs?|y)\b)|(?<!\b(?:last|lasts|lasting|lasted|within|in|for|over|after|every|about|around|than)\s)\b(\d{1,2}) ?(?:-|–|\/) ?(\d{1,2}) ?(?:y|yrs?)\b(?! (?:warranty|guarantee|ago|later|from now|of)\b)/g;

/**
 * After a kids' range, another: ", 5-6", " and 7-8", " or 9-10"; not a price ("10-12 quid"), a
 * count ("2-3 pairs", "2-3 of them"), a time ("1-2 day delivery") nor a length ("3/4 length").
 */
const MORE_RANGES =
  /^ ?(?:,|and|or|&|, and|, or) (\d{1,2}) ?(?:-|–|\/) ?(\d{1,2})\b(?! ?(?:years?|yrs?|y|months?|m|mths?|weeks?|wks?|days?|hours?|hrs?|pairs?|packs?|pieces?|sets?|of|quid|pounds?|p|euros?|eur|dollars?|bucks|gbp|usd|each|max|tops|ish|length|lengths|sleeves?|leg|legs|inch|inches|cm|mm|%)\b)/;

/** "2-3t", "3/4t": a pair of US toddler sizes, the "t" said once. */
const TODDLER_PAIR = /\b([1-4]) ?(?:-|–|\/) ?([2-5])t(?![\w'-])/g;
/** "eu 38", "uk 5.5", and a label's pair after it ("eu 28/29", group 3). */
const SYSTEM_SIZE =
  /\b(eu|us|uk)\s?(\d{1,2}(?:\.5)?)\b(?:\s?(?:-|–|\/)\s?(\d{1,2}(?:\.5)?)\b(?![.,]\d))?(?!\s?(?:dollars?|bucks|pounds?|\$|£))/g;
/** Letter sizes from the smallest up. */
const LETTERS = ['XXS', 'XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL'];
/** "xs-s", "s/m", "l-xl": two letter sizes said as one label. */
const LETTER_PAIR =
  /(?<![\w&'-])(xxs|xs|s|m|l|xl|xxl|2xl)(?:-|–|\/)(xs|s|m|l|xl|xxl|xxxl|2xl|3xl)(?![\w&'-])/g;

/**
 * A size's country said in words or after "size": "eu size 38", "european 38", "38 continental",
 * "size 10 us", "size 10 american" are EU 38 and US 10, as "eu 38" and "us 10" are. "us" is a
 * country only beside "size" and after no verb it could be the object of ("find us size 10 boots").
 */
// "us" is the country only where a pronoun cannot be: at the start of a clause or after a word a
// country or a size's system follows ("in the us size 10", "a us size 8", "she wears us size 6"),
// never after a verb or a preposition ("find us size 10", "both of us size 10", "pick us size 8").
// Nor the first of a range or list ("uk size 10-12", "eu size 38 or 39"): read whole as before.
const SYSTEM_WORD_BEFORE = new RegExp(
  String.raw`(?<!\b(?:find|get|show|send|give|help|buy|let|for|to|with|tell|bring|order|fit|fits|suit|suits|told|asked|sent) )(?:\b(eu|uk|european|continental|american|usa)|(?<=(?:^ ?|[,.;:!?(] |\b(?:in|the|a|an|any|standard|normal|usual|regular|and|or|is|its|it's|wears?|takes?|needs?|size|sizes|sizing|${RANGED_ITEM}) ))(us))(?: sizes?| sizing)? (\d{1,2}(?:\.5)?)\b(?! ?(?:-|–|\/|to|or|and|&) ?\d)`,
  'g',
);
const SYSTEM_WORD_AFTER =
  /\b(?:(?:size|sz) (\d{1,2}(?:\.5)?) (us|usa|american|european|continental)|(\d{2}) (european|continental))(?: sizes?| sizing)?\b/g;
const SYSTEM_OF: Record<string, string> = {
  eu: 'eu',
  european: 'eu',
  continental: 'eu',
  us: 'us',
  usa: 'us',
  american: 'us',
  uk: 'uk',
};
const systemsNamed = (text: string) =>
  /\b(?:eu|us|uk|european|continental|american|usa)\b/.test(text)
    ? text
        .replace(
          SYSTEM_WORD_BEFORE,
          (_m, sys: string | undefined, us: string | undefined, n: string) => `${SYSTEM_OF[sys ?? us!]} ${n}`,
        )
        .replace(
          SYSTEM_WORD_AFTER,
          (_m, n1: string | undefined, sys1: string | undefined, n2: string, sys2: string) =>
            n1 ? `${SYSTEM_OF[sys1!]} ${n1}` : `${SYSTEM_OF[sys2]} ${n2}`,
        )
    : text;

/**
 * "pyjamas 4-5 blue", "coat 9-10 <£35", "polo 7-8 white x3": a garment texted with a kids' label's
 * pair, two ages a year apart, is that kids' size (never shoes' or socks' pair, "boots 4-5"; nor
 * a grown-up's sizes two apart, "dress 8-10"; nor a duration, "coat 2-3 years warranty"; nor a
 * sleeve, "t-shirt 3/4 sleeve", or a collar, "shirt 14-15 collar"; nor money, "coat 9-10 quid", nor
 * a count, "pyjamas 4-5 sets", nor stars, "coat 4-5 star").
 */
const GARMENT_WORD = KINDS.filter((k) => k.category !== 'SHOES' && k.kind !== 'socks' && k.kind !== 'tights')
  .flatMap((k) => k.words)
  .sort((a, b) => b.length - a.length)
  .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  .join('|');
const GARMENT_THEN_PAIR = new RegExp(
  String.raw`(?<![\w-])(?:${GARMENT_WORD}) (?:, )?([1-9]|1[0-3]) ?[-–\/] ?([2-9]|1[0-4])\b(?![.,]\d)(?! ?(?:years?|yrs?|y|months?|weeks?|days?|nights?|hours?|times|cm|mm|inch(?:es)?|%|pairs?|packs?|sets?|pcs|pieces?|people|stars?|length|sleeves?|sleeved|zip|collar|neck|waist|leg|quid|pounds?|euros?|dollars?|bucks|p|off|each|ea|max|tops)\b)`,
  'g',
);
/** Things bought by the several, a count before or after them: "6x socks", "vests 7x". */
const COUNTED =
  'socks|t-?shirts|tees|tops|shirts|polos|vests|bodysuits|bodies|babygrows|sleepsuits|onesies|knickers|briefs|boxers|hats|bibs|hangers|multipacks?|multi-packs?|packs?';
const SIZE_6X = new RegExp(
  String.raw`(?<!\b(?:packs?|multipacks?|sets?|bundles?|boxe?s?|lots?) of )(?<!\b(?:${COUNTED}) )\b([67])x(?![\w'-])(?! ?(?:\d|pairs?|packs?|of|more|times)\b)(?! (?:[a-z]+ ){0,2}(?:${COUNTED})\b)`,
  'g',
);
function readSizes(said: string, ages: number[]): string[] {
  // "42 eu", "5 uk": the system after the number, as before it.
  // Not a number said after its own system: "uk 5 eu 38" is UK 5 and EU 38; nor a system with its
  // own number after it: "size 10 (eu 38)" is size 10 and EU 38.
  const baby = readBabySizes(
    systemsNamed(spokenSizes(said))
      .replace(
        /(?<!\b(?:eu|us|uk|au) ?)\b(\d{1,2}(?:\.5)?) ?(eu|uk)\b(?! ?\d{1,2}(?:\.5)?\b(?! ?(?:eu|uk)\b))/g,
        '$2 $1',
      )
      // "size 2-3t", "3/4t": a US toddler's pair of sizes, each said as one ("2t 3t").
      .replace(TODDLER_PAIR, (m, lo: string, hi: string) =>
        Number(hi) - Number(lo) === 1 ? `${lo}t ${hi}t` : m,
      ),
  );
  const text = baby.rest;
  const sizes: string[] = [];
  const add = (s: string) => sizes.includes(s) || sizes.push(s);
  for (const m of text.matchAll(SYSTEM_SIZE)) {
    add(`${m[1]!.toUpperCase()} ${m[2]}`);
    // "eu 28/29", "uk 5-5.5": a label's pair of sizes, the next whole or half size.
    const step = m[3] === undefined ? 0 : Number(m[3]) - Number(m[2]);
    if (step === 1 || step === 0.5) add(`${m[1]!.toUpperCase()} ${m[3]}`);
  }
  // "toddler 2-3 years" is a range of ages (read with the ages below), not size KIDS 2.
  // "kid size 30" is a shoe size (EU): a kids' size by age stops at 16.
  // "toddler 7" is a toddler's shoe size: no toddler is 7 (an age-size stops at 4 for them).
  for (const m of text.matchAll(
    /\b(?:(kids?'?s?|youth|children'?s?)|toddler)(?: size)? (\d{1,2})\b(?!\s?(?:-|–|to|through|thru|and|or|&|,)\s?\d{1,2}[ -]?(?:years?|yrs?)\b)/g,
  )) {
    // "coats for my kids 4 , 6 and 9": their ages, each a size (added below).
    if (m[1] === 'kids' && startsChildrenList(text.slice(m.index!))) continue;
    if (Number(m[2]) <= (m[1] ? 16 : 4)) add(`KIDS ${m[2]}`);
    else add(m[2]!);
  }
  // "she's 10 but wears age 12", "he's 11 but tall so age 12-13": the kids' size worn, said by age,
  // is no age of the child's (whose own age stays the brief's).
  // "she is 9 but wears 10-11": a range a year wide, worn by a child whose age is said.
  if (ages.length > 0)
    for (const m of text.matchAll(WORN_RANGE))
      if (Number(m[2]) - Number(m[1]) === 1 && Number(m[2]) <= 16)
        for (const a of [m[1], m[2]]) add(`KIDS ${a}`);
  for (const m of text.matchAll(WORN_AGE)) {
    const [lo, hi] = [Number(m[1]), Number(m[2] ?? m[1])];
    if (hi >= lo && hi - lo <= 2 && hi <= 16) for (let a = lo; a <= hi; a++) add(`KIDS ${a}`);
  }
  for (const m of text.matchAll(SIZE_THEN_RANGE))
    if (Number(m[1]) <= (m[2] ? 16 : 4)) add(`KIDS ${m[1]}`);
    else add(m[1]!);
  // "kids 10-11", "13-14y", "9-10yrs hoodie": a kids' size as labels give it, two ages a year or
  // two apart (not "lasts 2-3 yrs", a duration).
  for (const m of text.matchAll(KIDS_RANGE)) {
    const ranges = [[m[1] ?? m[3], m[2] ?? m[4]]];
    // "kids 4-5 and 7-8", "kids 3-4, 5-6 or 9-10": the list of ranges the word "kids" leads.
    if (m[1] !== undefined) {
      let at = m.index! + m[0].length;
      for (let more = MORE_RANGES.exec(text.slice(at)); more; more = MORE_RANGES.exec(text.slice(at))) {
        ranges.push([more[1], more[2]]);
        at += more[0].length;
      }
    }
    for (const [lo, hi] of ranges.map(([a, b]) => [Number(a), Number(b)] as const))
      if (hi - lo >= 1 && hi - lo <= 2 && hi <= 16) for (let age = lo; age <= hi; age++) add(`KIDS ${age}`);
  }
  // "2T", "4t": a US toddler's size is that age's kids' size.
  for (const m of text.matchAll(/\b([2-5])t(?![\w'-])/g)) add(`KIDS ${m[1]}`);
  // "6X", "size 7x": a US girls' or boys' size a little roomier than 6 or 7, that age's kids' size
  // (never "6x pairs", "7x7", nor a count of things bought by the several: "6x socks", "a pack of
  // 6x", "6x white t-shirts", "7x multipack vests", "bodysuits 6x").
  for (const m of text.matchAll(SIZE_6X)) add(`KIDS ${m[1]}`);
  for (const m of text.matchAll(GARMENT_THEN_PAIR))
    if (Number(m[2]) - Number(m[1]) === 1) for (const a of [m[1], m[2]]) add(`KIDS ${a}`);
  // "he's a 4", "she takes a 10", "i wear a 12": a size said of the person who wears it.
  // "my daughter a 7-8", "the eldest a 9-10": a label's pair, both sizes (as "size 7-8" says).
  for (const m of text.matchAll(WEARS_A)) {
    add(m[1]!);
    const pair = PAIR_AFTER.exec(text.slice(m.index + m[0].length));
    const step = pair ? Number(pair[1]) - Number(m[1]) : 0;
    if (pair && (step === 1 || (step === 2 && Number(m[1]) % 2 === 0 && Number(m[1]) >= 4))) add(pair[1]!);
  }
  // "size 10-11 years": a kids' size said as a range of ages.
  for (const m of text.matchAll(/\b(?:size|sz|in) (\d{1,2}) ?(?:-|–|to) ?(\d{1,2}) ?(?:years?|yrs?|y)\b/g)) {
    const [lo, hi] = [Number(m[1]), Number(m[2])].sort((a, b) => a - b) as [number, number];
    if (hi - lo < 3) for (let age = lo; age <= hi; age++) add(`KIDS ${age}`);
  }
  // "size 8 years", "size 8y": one age, as the label says it.
  for (const m of text.matchAll(/\b(?:size|sz) (\d{1,2}) ?(?:years?|yrs?|y)\b(?! old)/g))
    if (Number(m[1]) <= 16) add(`KIDS ${m[1]}`);
  for (const m of text.matchAll(SIZE_NUMBERS))
    for (const n of [m[1]!, ...alternatives(m[2], /\d{1,2}(?:\.5)?/g)]) add(n);
  // "size 7-8", "size 7 to 8": both sizes of a label's pair (a size and the next one, or a half);
  // "size 14-16", "size 8-10": a women's size and the next (they go in twos).
  const shoes = SHOE_WORDS.test(text);
  for (const m of text.matchAll(SIZE_PAIR)) {
    const [lo, hi] = [Number(m[1]), Number(m[2])];
    const step = hi - lo;
    // Shoes come in every whole size: "size 6-8 trainers", "size 3-5 shoes" are each size of the
    // span, not a women's pair (the span of the shoes, not of clothes said beside them: "jeans
    // size 10-12 and trainers").
    const shoeSpan = shoes && step === 2 && nearestItemIsShoe(text, m.index, m.index + m[0].length);
    if ((step > 0 && step <= 1) || (step === 2 && (shoeSpan || (lo % 2 === 0 && lo >= 4)))) {
      if (shoeSpan) add(String(lo + 1));
      add(m[2]!);
    }
  }
  // "sizes 10 and 12": one size each (the twins', the family's).
  for (const m of text.matchAll(/\bsizes (\d{1,2}(?:\.5)?(?: ?(?:,|and|&|or|\/) ?\d{1,2}(?:\.5)?\b)+)/g))
    for (const n of m[1]!.match(/\d{1,2}(?:\.5)?/g) ?? []) add(n);
  // "size 12 and 14" (for two people) when the clause ends there, or when the second is the next
  // size or two up ("size 12 and 14 school skirts for my two daughters"): never a count ("size 12
  // and 2 tops", "size 8 and 10 pairs of socks").
  for (const m of text.matchAll(
    /\bsize (\d{1,2}(?:\.5)?) ?(?:and|&) ?(\d{1,2}(?:\.5)?)\b(?! ?(?:pairs?|packs?|sets?|of|x)\b)/g,
  )) {
    const step = Number(m[2]) - Number(m[1]);
    const clauseEnds = SIZES_CLAUSE_END.test(text.slice(m.index! + m[0].length));
    if (clauseEnds || (step > 0 && step <= 4)) add(m[2]!);
  }
  for (const m of text.matchAll(
    /\bin an? (\d{1,2}(?:\.5)?)\b(?! ?(?:dollars?|bucks|pounds?|euros?|years?|yrs?|yo))/g,
  ))
    add(m[1]!);
  // "34 waist", "32w", a suit's "38 chest", "w30": a measurement is the size.
  for (const m of text.matchAll(
    /\b(\d{2})\s?(?:(?:inch|in|inches) )?(?:waist|w|chest)\b|\bw(\d{2})\b(?!\s+l\s?\d)/g,
  ))
    add((m[1] ?? m[2])!);
  for (const m of text.matchAll(/(?<!\b(?:eu|us|uk) ?)\b(?:w\s?)?(\d{2})\s?(?:x|by|\/)\s?(?:l\s?)?\d{2}\b/g))
    add(m[1]!);
  // "38 regular", "28 short", "42 long": a suit's chest or trousers' waist with its length fitting.
  for (const m of text.matchAll(
    /(?<!\b(?:about|around|roughly|under|over|below|budget|max|to|than|spend|for) |[£$€])\b(2[6-9]|[3-5]\d) (?:regular|reg|short|long|tall)(?= ?(?:$|[.,]|and\b|for\b|please\b|in\b))/g,
  ))
    add(m[1]!);
  // "ladies 14", "mens 10", "women's 8", "petite 8", "tall 12": a size said with whom the range is cut for.
  for (const m of text.matchAll(RANGE_SIZE)) add(m[1]!);
  // "shoes number 34": a shoe size as many languages name it.
  if (SHOE_WORDS.test(text)) for (const m of text.matchAll(SHOE_NUMBER)) add(m[1]!);
  if (SHOE_WORDS.test(text)) for (const m of text.matchAll(SHOE_SIZE_AFTER_ITEM)) add(m[1]!);
  if (SHOE_WORDS.test(text))
    for (const m of text.matchAll(SHOE_SIZES_AFTER_ITEM)) {
      const step = Number(m[2]) - Number(m[1]);
      if (step === 0.5 || step === 1) for (const n of [m[1]!, m[2]!]) add(n);
    }
  // "jeans 32", "chinos, 34": a bare figure a waist can be, right after trousers, is the waist
  // (not a price: "jeans 30 max", "jeans 40 quid", "shorts 30 each"; nor an age or a count).
  for (const m of text.matchAll(WAIST_AFTER_ITEM)) add(m[1]!);
  // "a shirt 41", "dress shirt 15.5": a bare figure after a collared shirt is its collar, in cm or
  // inches (bare-figures.ts has made a price of it where a list of prices says so). Not for a
  // child said with an age ("a shirt 16 for my boy age 12"): a child's shirt is sized by the age.
  if (!ages.some((a) => a <= 14)) for (const m of text.matchAll(COLLAR_AFTER_SHIRT)) add(m[1]!);
  // "w32 l34", "waist 32 leg 30": the waist, as above.
  for (const m of text.matchAll(/\b(?:w|waist)\s?(\d{2})\s+(?:l|leg|length|inseam)\s?\d{2}\b/g)) add(m[1]!);
  // "chest 38 inches", "collar 16": a shirt's or jacket's measurement said first.
  for (const m of text.matchAll(/\b(?:chest|collar|neck) (\d{2}(?:\.5)?)\b(?! ?(?:-|–|to) ?\d)/g)) add(m[1]!);
  // "a school shirt 15.5 collar", "16 inch neck", "41 collar": the measurement said after; never
  // money before a collar said with its own figure ("budget 40 collar 16", "a shirt 30 collar 15.5").
  for (const m of text.matchAll(
    /(?<![\d.£$€]|\b(?:under|over|below|max|maximum|about|around|for|than|up to|upto|budget|budget is|budget of|spend|spending|price|priced at|costs?|costing|at most|pay|paying) )\b(1[2-9](?:\.5)?|[3-4]\d(?:\.5)?) ?(?:(?:inch|in|inches|cm|") )?(?:collar|neck)\b(?! (?:ties?|scarf|scarves|pillows?|warmers?|gaiters?|lines?)\b)(?! ?(?:size )?\d)(?! for (?:the |my |our |a |an |his |her )?(?:dog|dogs|puppy|cat|cats|kitten|pet)\b)/g,
  ))
    add(m[1]!);
  // "a bra, 34b", "size 36dd": a band and cup, said of a bra or after "size" ("30c" alone is the weather).
  const cupped = CUPPED.test(text);
  for (const m of text.matchAll(
    /(\bsize )?\b((?:2[68]|3[02468]|4[02468]|5[02])(?:aa|a|b|c|dd|ddd|d|e|ff|f|gg|g|hh|h|j))\b/g,
  ))
    if (cupped || m[1]) add(m[2]!.toUpperCase());
  const letter = (s: string) => s.toUpperCase().replace(/^2XL$/, 'XXL').replace(/^3XL$/, 'XXXL');
  for (const m of text.matchAll(SIZE_LETTERS))
    for (const l of [m[1]!, ...alternatives(m[2], A_LETTER)]) add(letter(l));
  // "xs-s", "s/m", "m-l": a label's pair of neighbouring letter sizes, each of them.
  for (const m of text.matchAll(LETTER_PAIR)) {
    const [lo, hi] = [LETTERS.indexOf(letter(m[1]!)), LETTERS.indexOf(letter(m[2]!))];
    if (hi - lo === 1) for (const l of [m[1]!, m[2]!]) add(letter(l));
  }
  for (const m of text.matchAll(/\b(xxs|xs|xl|xxl|xxxl|2xl|3xl)\b/g)) add(letter(m[1]!));
  // "womens 3x", "size 2x", "plus 1x": US plus sizes (never "2x jumpers", a count).
  for (const m of text.matchAll(PLUS_X)) add(['XL', 'XXL', 'XXXL'][Number(m[1]) - 1]!);
  for (const m of text.matchAll(/\b(?:extra[ -]small|x[ -]small)\b/g)) add(m && 'XS');
  for (const m of text.matchAll(/\b(?:extra[ -]large|x[ -]large)\b/g)) add(m && 'XL');
  const words = text.replace(/\b(?:extra[ -]|x[ -])(?:small|large)\b/g, ' ');
  for (const m of words.matchAll(SIZE_WORDS)) add({ small: 'S', medium: 'M', large: 'L' }[m[1] as 'small']);
  // "something warm for my dad, L": a letter size alone in its clause, as a list is typed.
  for (const m of text.matchAll(/(?<=(?:^|[,.]) )(s|m|l)(?= ?(?:$|[,.]|please\b))/g))
    add(m[1]!.toUpperCase());
  // "she's 140 cm", "size 128": a child's height, as European kids' sizes are labelled.
  for (const age of heightAges(text, ages)) add(`KIDS ${age}`);
  // Sizes said outright win; else each baby's and child's age gives theirs.
  if (sizes.length === 0) {
    for (const s of baby.sizes) add(s);
    for (const age of ages) if (age <= 14) add(`KIDS ${age}`);
  }
  return sizes;
}

const AGE_WORDS = /\b(?:years?|yrs?|y|yo|age|aged|year olds?)\b/;
const saysSomething = (s: ItemScope) =>
  s.colors.length > 0 ||
  s.sizes.length > 0 ||
  s.price.maxPrice !== undefined ||
  s.price.minPrice !== undefined;

/** Items one message may name and still have each its own words (colour, size, price). */
const MAX_SCOPED_ITEMS = 20;

/**
 * Each item's own colours, sizes and price, read from its stretch of the message (item-scopes.ts).
 * A clause with "both" or "each" speaks for every item; so do words trailing the last item of a
 * plain list ("jeans and a tee under 40", "a hoodie and joggers in grey"); "cheap" is for all.
 * `joining`: the items join those asked for before ("and a red top"), which keep their own.
 * Undefined when no item says anything of its own.
 */
function readItemScopes(
  text: string,
  kindsTaken: ReturnType<typeof takeKinds>,
  negatedColours: string[],
  ages: number[],
  joining: boolean,
): ItemScopes | undefined {
  // A list longer than any family writes is read as one brief: each item's own reading costs
  // time for every other (a message of 2,000 items held the service for a second).
  if (kindsTaken.found.length > MAX_SCOPED_ITEMS) return undefined;
  const spans = itemSpans(text, kindsTaken.found, (w) => coloursOf(` ${w} `).length > 0);
  // Joining a list, every word after the last new item is still about it ("and sandals, size 5").
  if (joining && spans.length > 0) spans[spans.length - 1]!.to = text.length;
  const colourText = kindsTaken.rest.replace(/\bblack tie\b/g, (m) => ' '.repeat(m.length));
  const said = (from: number, to: number): ItemScope => {
    const chunk = text.slice(from, to);
    const price = readPrice(chunk);
    return {
      colors: uniq(coloursOf(colourText.slice(from, to))).filter((c) => !negatedColours.includes(c)),
      sizes: readSizes(chunk, readAges(readBabySizes(chunk).rest).ages),
      price: price.cheap ? {} : price,
    };
  };
  const own = spans.map((s) =>
    SHARED_WORDS.test(text.slice(s.from, s.to)) ? undefined : said(s.from, s.to),
  );
  const last = spans.length - 1;
  // Words after the last item are for the whole list ("hoodies and jeans under 10"), unless
  // another item has its own of the same ("white trainers size 9 and navy shorts size 32").
  // (Added to an earlier list, the message's words are all for the new items.)
  let trailingPrice = false;
  const lastSpan = spans[last]!;
  if (own[last] && !joining && last > 0) {
    const before = said(lastSpan.from, lastSpan.wordEnd);
    const others = own.slice(0, last).filter((o): o is ItemScope => o !== undefined);
    const othersPrice = others.some((o) => o.price.maxPrice !== undefined || o.price.minPrice !== undefined);
    own[last] = {
      colors: others.some((o) => o.colors.length > 0) ? own[last]!.colors : before.colors,
      sizes: others.some((o) => o.sizes.length > 0) ? own[last]!.sizes : before.sizes,
      price: othersPrice ? own[last]!.price : before.price,
    };
    trailingPrice = !othersPrice;
  }
  const byKind: Record<string, ItemScope> = {};
  let sharedText = text;
  for (const [i, s] of spans.entries()) {
    const scope = own[i];
    if (!scope) continue;
    const to = i === last && trailingPrice ? s.wordEnd : s.to;
    sharedText = sharedText.slice(0, s.from) + ' '.repeat(to - s.from) + sharedText.slice(to);
    const was = byKind[s.kind];
    byKind[s.kind] = was
      ? {
          colors: uniq([...was.colors, ...scope.colors]),
          sizes: uniq([...was.sizes, ...scope.sizes]),
          price: saysSomething({ ...was, colors: [], sizes: [] }) ? was.price : scope.price,
        }
      : scope;
  }
  if (!Object.values(byKind).some(saysSomething)) return undefined;
  const shared = readPrice(sharedText);
  // A child's size said by age is the child's, whichever item it was said beside.
  const byAge = spans.flatMap((s, i) =>
    AGE_WORDS.test(text.slice(s.from, s.to))
      ? (own[i]?.sizes ?? []).filter((z) => z.startsWith('KIDS '))
      : [],
  );
  return {
    byKind,
    shared: shared.cheap ? {} : shared,
    ageSizes: uniq([...ages.filter((a) => a <= 14).map((a) => `KIDS ${a}`), ...byAge]),
  };
}

/** The brief's price when items have prices of their own: the widest of them, or the shared one. */
function ownPrices(items: ItemScopes, price: PriceReading): PriceReading {
  const own = Object.values(items.byKind).some(
    (s) => s.price.maxPrice !== undefined || s.price.minPrice !== undefined,
  );
  return own ? widestPrice(items) : price;
}

/** "what goes with it", "what would go with that", "something to wear with the second one". */
const PAIR_SHOWN =
  /\b(?:go(?:es)? (?:well |nicely )?with|looks? (?:good|nice|great|ok|okay|best) with|match(?:es)?|wear (?:it )?with|pair (?:it )?with|complements?|style) (?:it|that|this|them|those|these|that one|this one|the (first|second|third|1st|2nd|3rd|last)(?: one)?)\b/;
const PAIR_QUESTION = /\b(?:what|which|anything|something|ideas?|suggestions?|how)\b/;
const PLACES: Record<string, number> = {
  first: 0,
  '1st': 0,
  second: 1,
  '2nd': 1,
  third: 2,
  '3rd': 2,
  last: -1,
};

/** The shown offer a message pairs with, by its place (see Reading.pairsShown). */
function pairsShownOf(text: string): number | undefined {
  const m = text.match(PAIR_SHOWN);
  return m ? (m[1] ? PLACES[m[1]] : 0) : undefined;
}

/** The owned item in "what goes with my white jeans" / "i have a black blazer, what…". */
function readOwned(text: string): { owned?: Reading['owned']; rest: string } {
  if (!PAIR.test(text) && !/\bi (?:have|own|got|bought) (?:a|an|these|this|some)\b/.test(text))
    return { rest: text };
  // "what goes with a mustard skirt", "which colour would go with an olive coat": a question about
  // one piece, said with "a", pairs with it as with "my" (an item asked for "to go with a
  // skirt" is still the item, SERVED). "the green dress we bought" is owned as "my" is.
  const m = text.match(
    /\b(?:my|our|his|her|their|i (?:have|own|got|bought) (?:a|an|these|this|some)|(?:the|that|this|those|these)(?= (?:[a-z'-]+ ){1,3}(?:(?:we|i|she|he|they) (?:already |just |recently )?(?:bought|got|have|own|ordered|had)|(?:we|i) got (?:her|him|them))\b)|(?<=^ ?(?:so |and |ok |okay |hi |hey )?(?:what|which)(?: (?:colou?rs?|shoes|top|tops|else|would|could|will|can|might|do you think|should i|to|goes|go|looks?|works?|would look|good|best|nice))* (?:go(?:es)?|looks? (?:good|nice|great|best)|work|works|match(?:es)?|wear|pair) (?:well |nicely |best )?with )(?:a|an)|(?<=\b(?:in (?:my|our|the|his|her|their)(?: [a-z]+'s)? (?:wardrobe|closet)|(?:do|does) (?:i|we|she|he|they) (?:already )?(?:have|own)|(?:i|we|she|he|they) (?:already )?(?:have|has|own|owns|got)|have (?:i|we) got) (?:that |which |to )?(?:would |will |might |could |can )?(?:go(?:es)?|match(?:es)?|work|works|looks? (?:good|nice|great)|pairs?|wear) (?:well |nicely )?with)(?: (?:a|an|some))?)(?! (?:[a-z]+'s )?(?:wardrobe|closet)\b) ((?:[a-z'-]+ ?){1,4})/,
  );
  if (!m) return { rest: text };
  // The owned piece runs up to its item word: "my white jeans under 60" is "white jeans".
  const window = ` ${m[1]!.trim()} `;
  const hit = takeKinds(window).found[0];
  if (!hit) return { rest: text };
  const end = window.indexOf(hit.w, hit.at) + hit.w.length;
  const said = window.slice(0, end).trim();
  const color = coloursOf(said)[0];
  const rest = text.replace(`${m[0].slice(0, m[0].length - m[1]!.length)}${said}`, ' ');
  return { owned: { text: said, kind: hit.kind, ...(color ? { color } : {}) }, rest };
}

/** A season said by name ("a winter coat", "summer dresses"); "fall" only where it is the season. */
const NAMED_SEASON =
  /\b(?:spring(?:time)?|summer(?:y|time)?|autumn(?:al)?|wint(?:er|ry))\b|\b(?:this|next|last|the|for|in|early|late) fall\b|\bfall (?:coat|jacket|wedding|clothes|wardrobe|outfits?|colou?rs?)\b/;

/** "make it two", "make that a couple": a count said in words (a size is said "make it a 2"). */
const COUNT_ASKED =
  /\bmake (?:it|that) (?:two|three|four|five|six|a couple|a pair)\b(?! (?:sizes?|and a half)\b)/i;

/** Not said of the fit: "not too tight", "nothing too big" say how it should fit, no step from the last size. */
const FIT_WISH = String.raw`(?<!\b(?:not|nothing|never|isn'?t|aren'?t|wasn'?t|weren'?t) )`;
/** "smaller", "too big": one size down from the brief's. */
const SIZE_DOWN = new RegExp(
  String.raw`\b(?:smaller|size down|a size down|one size down)\b|${FIT_WISH}\btoo (?:big|large|loose)\b`,
);
/** "bigger", "too small": one size up. */
const SIZE_UP = new RegExp(
  String.raw`\b(?:bigger|larger|size up|a size up|one size up)\b|${FIT_WISH}\btoo (?:small|tight)\b`,
);

const READINGS_KEPT = 256;
const readings = new Map<string, Reading>();

/**
 * What one message says: its items, colours, sizes, price, ages, occasion, negations and intent.
 * A turn reads the same messages at every step, and the
 * last ten again for what each item was asked with, so readings are kept (the most recent 256
 * texts); a reading is never changed after it is made.
 */
export function readMessage(message: string): Reading {
  const kept = readings.get(message);
  if (kept) {
    // Most recently used last, so the oldest is the first to go.
    readings.delete(message);
    readings.set(message, kept);
    return kept;
  }
  const reading = readOnce(message);
  readings.set(message, reading);
  if (readings.size > READINGS_KEPT) readings.delete(readings.keys().next().value as string);
  return reading;
}

/**
 * A return or an exchange asked as a new purchase: "the 8 was too small, need a 9", "the size 4
 * wellies pinch, a 5 please", "returned the 9-10 jumper, swap for 10-11", "sent the 12 back, need a
 * 13". The size of the clause that says what did not fit is the old one (never searched); the one
 * asked for after it ("a 9", "34 please", "swap for 10-11") is the size. Someone's age is kept
 * ("she's 7 and the coat was too small, age 8"; "my 7 year old's coat is too small"), and nothing
 * changes unless a size is asked for after: one said as such ("size 11", "age 10", "34 waist") or a
 * bare figure near the old one, bigger after "too small", smaller after "too big" ("need a 9",
 * never a price or a count: "need one under 40", "need a 9 for 20", "need 2, age 9"). A cue said
 * in the negative is a wish, no return ("not too short", "boots that don't pinch", "at a pinch"),
 * and a swap for a colour keeps the size ("exchange the size 10 dress for a blue one").
 */
const RETURN_CUE =
  /(?<!\b(?:not|never|nothing|isn'?t|aren'?t|wasn'?t|won'?t|wont|shouldn'?t|can'?t|no|that don'?t|that doesn'?t|that do not|that does not) )(?:\btoo (?:small|big|tight|short|long|loose|large|baggy|narrow)\b|\b(?:did ?n'?t|did not|does ?n'?t|does not|do ?n'?t|do not) fit\b|(?<!\b(?:at|in) a )\bpinch(?:es|ed|ing)?\b|\bsent (?:[a-z0-9'-]+ ){1,4}back\b|\b(?:returned|returning|sent back|took back|taking back)\b(?! (?:to|from|home)\b)|\b(?:swap|exchange|change)(?:d|ped)? (?:[a-z0-9'-]+ ){1,4}(?=for\b))/;
/** Cues that the old size was too small (the new one is bigger) or too big (the new one smaller). */
const TOO_SMALL = /^(?:too (?:small|tight|short|narrow)|pinch)/;
const TOO_BIG = /^too (?:big|long|loose|large|baggy)/;
const CLAUSE_END = / (?:[,.;!?]|and|but|so|now|need|needs|want|wants|because|as|since|cos|cause) /g;
// Never someone's age ("my 7 year old's coat is too small", "coat for my son 8 the 9-10 was too
// small"), nor money or a count.
const OLD_FIGURE =
  /(?<!\b(?:is|are|'s|s|he's|she's|hes|shes|turned|turning|turns|be|son|daughter|boy|girl|kid|child|grandson|granddaughter|nephew|niece) |[£$€] ?)\b(?:size |sz |age |aged )?(\d{1,2})(?! ?-?(?:years?|yrs?|y) ?-?olds?\b)(?:\.5)?(?: ?(?:-|–|\/) ?\d{1,2}(?:\.5)?)?(?: ?(?:months?|mths?|years?|yrs?|y|waist|uk|eu))?\b(?! ?(?:quid|pounds?|euros?|dollars?|bucks|p|each|[£$€]|pairs?|packs?|sets?|tops|items|things)\b)/g;
const NEW_FIGURE =
  /(?<=(?:\b(?:need|needs|want|wants|get|try|order|for|and|or|if|maybe|perhaps|probably)|^|[,;]) )(?:(a|an) (?=\d)|(?!1\b))(\d{1,2}(?:\.5)?(?: ?(?:-|–|\/|or) ?\d{1,2}(?:\.5)?)?)(?= ?(?:$|[,.;!?]|(?:please|pls|plz|instead|thanks|thx|ta|in|then|now|x+|if|would|will|should|and|but|ish|by|for|asap|or (?!less|under|below|so|more|cheaper))\b))/g;
/** A size said explicitly after the cue: "size 11 please", "same coat age 10", "34 waist". */
const NEW_SAID = /\b(?:size|sz|age|aged) \d|\b\d{1,2} ?(?:waist|uk|eu)\b/;
/**
 * Whether `to` is the size asked for after `from` did not fit: near it (never a price or a count,
 * "need a 9 for 20", "need 2"), bigger after "too small", smaller after "too big"; a child's shoe
 * 12 or 13 is followed by an adult's 1 or 2.
 */
function nextSize(from: number, to: number, cue: string): boolean {
  if (from >= 11 && to <= 3 && !TOO_BIG.test(cue)) return true;
  if (Math.abs(to - from) > 4) return false;
  if (TOO_SMALL.test(cue)) return to > from;
  if (TOO_BIG.test(cue)) return to < from;
  return to !== from;
}
function returnedSize(text: string): string {
  const cue = RETURN_CUE.exec(text);
  if (!cue) return text;
  const said = cue[0];
  let start = 0;
  for (const m of text.slice(0, cue.index).matchAll(CLAUSE_END)) start = m.index + m[0].length;
  let end = cue.index + cue[0].length;
  // "returned the 9-10 jumper, swap...": what was returned runs to its clause's end.
  if (/^(?:returned|returning|sent back|took back|taking back)$/.test(said)) {
    const next = text.slice(end).search(/ (?:[,.;!?]|so|but|need|needs|want|wants) /);
    if (next >= 0) end += next;
  }
  const after = text.slice(end);
  const old = text.slice(start, end);
  // A baby's months ("the 12 months sleepsuit is too small, 12-18 please") are read as before.
  if (!/\d/.test(after) || /\d ?(?:months?|mths?|m)\b/.test(old)) return text;
  const olds = [...old.matchAll(OLD_FIGURE)].map((m) => Number(m[1]));
  // "swap it for 10-11", "returned the 9-10, swap for 10-11": after a swap, "for" needs no "a".
  const swap = /\b(?:swap|exchange|change)(?:d|ped)? (?:[a-z0-9'-]+ ){0,4}for \d/.test(text);
  // The size asked for next is said bare: "need a 9", "a 5 please", "swap for 10-11"; a kids' label
  // after one ("the age 4 dress", "the 9-10 jumper", never shoes') is one too.
  const kids =
    !SHOE_WORDS.test(text) &&
    (/\bage \d/.test(old) ||
      [...old.matchAll(/\b(\d{1,2}) ?[-–/] ?(\d{1,2})\b/g)].some((m) => Number(m[2]) === Number(m[1]) + 1));
  let asked = false;
  const rest = after.replace(NEW_FIGURE, (whole, article: string | undefined, figure: string, at: number) => {
    const to = Number.parseFloat(figure);
    const byFor = /\bfor $/.test(after.slice(0, at));
    const ok =
      olds.length > 0
        ? olds.some((from) => nextSize(from, to, said)) && (article !== undefined || !byFor || swap)
        : article !== undefined || (swap && byFor && /[-–/]/.test(figure));
    if (!ok) return whole;
    asked = true;
    return `${kids ? 'age' : 'size'} ${figure}`;
  });
  // Nothing asked for after it ("the 10 was too tight, need one under 25", "size 10 dress not too
  // short, under 30"): the sizes said stay.
  if (!asked && !NEW_SAID.test(after)) return text;
  return `${text.slice(0, start)}${old.replace(OLD_FIGURE, ' ')}${rest}`;
}

function readOnce(message: string): Reading {
  // "a coat 60 and boots 40", "a coat for ben, 4": bare figures made readable (bare-figures.ts).
  let text = ` ${namedAges(bareItemPrices(normalize(message)))} `;
  const clear: Reading['clear'] = [];
  for (const [re, what] of CLEARS)
    if (re.test(text)) {
      clear.push(what);
      text = text.replace(re, ' ');
    }
  // "any colour except pink": the colours asked for before go too (the negation is read below).
  if (
    /\bany (?:other )?colou?rs? (?:but|except|apart from|other than)\b/.test(text) &&
    !clear.includes('colors')
  )
    clear.push('colors');
  const { owned, rest: afterOwned } = readOwned(text);
  text = returnedSize(afterOwned);
  // The budget is read as said, before the returned size's clause is cleared ("coat under 40 the 9-10
  // was too short, need 10-11" keeps its 40).
  const price = readPrice(afterOwned);
  const cheaper = CHEAPER.test(text);
  const pricier = PRICIER.test(text);
  const sizeStep = SIZE_DOWN.test(text) ? -1 : SIZE_UP.test(text) ? 1 : undefined;
  const neg = readNegations(text);
  // "50 tops" is the ceiling (read with the price), not a top.
  const tops = topsBound(text);
  const withTops = tops ? `${neg.rest.slice(0, tops.at)}    ${neg.rest.slice(tops.at + 4)}` : neg.rest;
  const { text: positive, taken: kindsTaken } = withoutServed(withTops, takeKinds(withTops));
  const kinds = uniq(kindsTaken.found.map((f) => f.kind));
  // Only with no item named: "a scarf to go with it" asks for a scarf (added to the list).
  const pairsShown = owned || kinds.length > 0 ? undefined : pairsShownOf(text);
  const colors = uniq(coloursOf(kindsTaken.rest.replace(/\bblack tie\b/g, ' '))).filter(
    (c) => !neg.colors.includes(c),
  );
  // "less formal", "not too dressy": a step away from an occasion, never that occasion.
  const toned = positive.replace(TONED_DOWN, ' ');
  const occasionHit = OCCASIONS.find(([re]) => re.test(toned));
  const steppedFrom = [...positive.matchAll(TONED_DOWN)].map((m) => TONED_OCCASION[m[1]!]!)[0];
  // Where the clothes are worn decides over the calendar ("Iceland in March", "a ski trip in April"),
  // and a season the family names decides over both ("a winter coat for Christmas in Sydney"),
  // though not over skiing or the beach ("a summer ski trip to chile" is for the snow).
  const named = NAMED_SEASON.test(text);
  const climate = climateOf(text, occasionHit?.[1], named);
  const seasons = climate
    ? [climate]
    : uniq([
        ...SEASON_HINTS.filter(([re]) => re.test(text)).map(([, s]) => s),
        ...(named ? [] : CALENDAR_HINTS.filter(([re]) => re.test(text)).map(([, s]) => localSeason(text, s))),
      ]);
  const occasionSeason = !named && occasionHit?.[2] && localSeason(text, occasionHit[2]);
  if (!climate && occasionSeason && !seasons.includes(occasionSeason)) seasons.push(occasionSeason);
  for (const k of kinds) {
    const s = kindSeason(k);
    if (s && seasons.length === 0) seasons.push(s);
  }
  // "baby boy 9-12m": a baby's band in months is no age in years.
  const said = readAges(readBabySizes(text).rest);
  // "school shoes for the girls, 12 and 1": no child at school is under 4, so figures listed with
  // school shoes that include one are shoe sizes (a kids' run goes 12, 13, 1, 2), not ages; said as
  // ages ("aged 3 and 5", "4 and 2 years old"), they are ages (a nursery's "school shoes").
  const shoeSizes =
    kinds.length > 0 &&
    kinds.every((k) => categoryOf(k) === 'SHOES') &&
    /\bschool\b/.test(text) &&
    !AGE_WORDS.test(text) &&
    said.ages.length > 1 &&
    said.ages.some((a) => a < 4);
  const { age, ages } = shoeSizes ? { age: undefined, ages: [] } : said;
  const sizes = readSizes(text, ages);
  if (shoeSizes && sizes.length === 0) sizes.push(...said.ages.map(String));
  const adding = ADD_KINDS.test(text) && !/\bjust\b/.test(text);
  const items =
    kinds.length > 1 && !owned ? readItemScopes(text, kindsTaken, neg.colors, ages, false) : undefined;
  // An item added to the list ("and a red top") or one of it said again ("the hoodie in green")
  // takes what the message says for itself; the others keep theirs (chosen with the brief).
  const joinedItems =
    kinds.length > 0 && !owned ? readItemScopes(text, kindsTaken, neg.colors, ages, true) : undefined;
  const reading: Reading = {
    text: text.trim(),
    intent: 'search',
    kinds,
    addKinds: adding,
    price: items ? ownPrices(items, price) : price,
    cheaper,
    pricier,
    ...(sizeStep ? { sizeStep } : {}),
    sizes,
    colors,
    excludedColors: neg.colors,
    excludedKinds: neg.kinds.filter((k) => !kinds.includes(k)),
    excludedBrands: neg.brands,
    brands: uniq([
      ...take(kindsTaken.rest, ASKED_BRAND_WORDS).found.map((f) => brandName(f.b)),
      ...[...kindsTaken.rest.matchAll(SHOP_SAID)].map((m) => brandName(m[1]!)),
    ]),
    seasons,
    ...(occasionHit ? { occasion: occasionHit[1] } : {}),
    ...(steppedFrom ? { steppedFrom } : {}),
    ...(age !== undefined && age > 0 && age < 19 ? { forAge: age } : {}),
    clear,
    ...(owned ? { owned } : {}),
    ...(pairsShown !== undefined ? { pairsShown } : {}),
    ...(items ? { items } : {}),
    ...(joinedItems ? { joinedItems } : {}),
  };
  // "no , 25" answers the last figure with another ("under 30" then "no 25"), as "actually 25" does;
  // "too long, maybe 11" says why.
  const retry = text.match(
    /^ ?(?:(?:no|nah|oh)?(?: , )? ?(?:actually|sorry|wait)?(?: , )? ?)?(?:(?:(?:they'?re|they are|they were|it'?s|it is|it was|these are|those are|that'?s) )?(?:way |a bit |bit |slightly |much )?too (?:long|short|big|small|tight|loose|baggy|wide|narrow|large)(?: on (?:him|her|me|them))? (?:, )?(?:so )?|(?:he|she|they|i)(?:'s| has| have|'ve) (?:grown|shot up|had a growth spurt)(?: a lot| again| since)? (?:, )?(?:so )?)?(?:try|what about|how about|maybe|or|and|then|make it|make that|change it to|go with|let'?s say|say|(?:(?:(?:do|have|got) you (?:have|got|got any) |(?:have|got|any) (?:you got )?)?(?:it |them |this |that |these |those |one |ones |any )?in(?: size)?))? ?(?:an? )?(\d{1,3}(?:\.5)?)(?: ?(?:-|–|\/) ?(\d{1,2}(?:\.5)?))? ?(?:instead|then|please|actually)? ?$/,
  );
  // "in 11-12?", "what about 7-8": a pair of sizes as labels give them (the next size or a half,
  // or the next women's size), said again in the brief's system.
  const pair = retry?.[2] !== undefined ? Number(retry[2]) - Number(retry[1]) : undefined;
  // "what about 43": a size when a size was given before, else a price (decided with the brief).
  // "make it two", "make that three": how many, said in words, is no size and no price.
  if (
    retry &&
    sizes.length === 0 &&
    !price.currency &&
    !COUNT_ASKED.test(message) &&
    (pair === undefined || pair === 0.5 || pair === 1 || (pair === 2 && Number(retry[1]) % 2 === 0))
  ) {
    reading.sizeRetry = retry[1]!;
    if (pair !== undefined) reading.sizeRetryTo = retry[2]!;
    if (/\bin(?: size)? ?(?:an? )?\d/.test(text)) reading.sizeRetryIn = true;
  }
  reading.intent = intentOf(reading);
  return reading;
}

const states = (r: Reading) =>
  r.kinds.length +
  r.colors.length +
  r.sizes.length +
  r.seasons.length +
  r.excludedColors.length +
  r.excludedKinds.length +
  r.excludedBrands.length +
  r.brands.length +
  Object.keys(r.price).length +
  (r.occasion ? 1 : 0) +
  (r.forAge !== undefined ? 1 : 0) +
  (r.cheaper ? 1 : 0) +
  (r.pricier ? 1 : 0) +
  (r.sizeStep ? 1 : 0) +
  (r.sizeRetry ? 1 : 0) +
  r.clear.length;

/** What a message says about clothes themselves: the item, its look, size or price, or what is owned. */
const garmentStates = (r: Reading) =>
  r.kinds.length +
  r.colors.length +
  r.sizes.length +
  r.excludedColors.length +
  r.excludedKinds.length +
  r.excludedBrands.length +
  r.brands.length +
  Object.keys(r.price).length +
  (r.cheaper || r.pricier || r.sizeStep || r.sizeRetry || r.owned ? 1 : 0);

/**
 * "can you help with my math homework", "who won the football last night": a subject outside
 * clothing, and nothing about clothes said. An occasion, season or age alone is no shopping.
 */
const offTopic = (r: Reading) =>
  (OFF_TOPIC_SUBJECT.test(r.text) && !CLOTHING_TALK.test(r.text) && garmentStates(r) === 0) ||
  // "toys for a 3 year old", "nappies size 4", "a cheap flight": something else bought, no garment.
  (r.kinds.length === 0 &&
    r.brands.length === 0 &&
    !r.owned &&
    r.pairsShown === undefined &&
    OTHER_GOODS.test(r.text) &&
    !CLOTHES_SAID.test(r.text) &&
    // "a lego necklace", "earrings and a perfume for my wife": something worn the reader has no
    // item word for is named too.
    !WEARABLE_SAID.test(r.text));

/** "a crop top for my 9 year old that makes her look sexy": a sexual look asked for a child. */
export const sexualisesChild = (r: Pick<Reading, 'text' | 'forAge'>) =>
  SEXUALISED.test(r.text) && ((r.forAge !== undefined && r.forAge < 18) || A_CHILD_SAID.test(r.text));

/** The bright colours said as a family (vocabulary.ts COLOR_FAMILIES). */
const BRIGHT_ALONE = /\b(?:bright|vibrant) (?:colou?rs?|shades|tones)\b/;

function intentOf(r: Reading): Reading['intent'] {
  // Skipping an approval, or another household's or child's data (OTHERS_DATA): refused.
  // Dressing a minor to pass for an adult where age is checked (UNDERAGE_ENTRY) too.
  if (REFUSE.test(r.text) || OTHERS_DATA.test(r.text) || UNDERAGE_ENTRY.test(r.text)) return 'refuse';
  // Dressing a child to look sexy: refused, whatever garment is named.
  if (sexualisesChild(r)) return 'refuse';
  // A return, a refund, an order's delivery, a diet or a poem: no search and no purchase, whatever
  // garment is named.
  // Washing, ironing or mending what is owned ("how do i get a stain out of a white shirt") too.
  if (
    offTopic(r) ||
    (AFTER_SALES.test(r.text) && !(FOUND_AGAIN.test(r.text) && !ORDER_ADMIN.test(r.text))) ||
    WEIGHT_LOSS.test(r.text) ||
    CREATIVE_TASK.test(r.text) ||
    CLOTHES_CARE.test(r.text) ||
    APPROVAL_ASKED.test(r.text)
  )
    return 'offtopic';
  // "what's in my daughter's wardrobe", "what coats does my son have": the wardrobe listed.
  if (WARDROBE_ASKED.test(r.text) && !r.owned && r.pairsShown === undefined && !PAIR.test(r.text))
    return 'wardrobe';
  if (BUY.test(r.text) && !(BUY_SOMETHING_NEW.test(r.text) && states(r) > 0)) return 'buy';
  // "what would go with the second one" asks for its complements; "go with the second one" picks it.
  if (r.pairsShown !== undefined && PAIR_QUESTION.test(r.text)) return 'pair';
  if (BUY_SHOWN.test(r.text) && states(r) === 0 && !DECLINED.test(r.text)) return 'buy';
  if (r.owned || r.pairsShown !== undefined) return 'pair';
  // "bright colours for my kids" with no item yet: the item is asked first (the colours are kept
  // when an item is said with them, or is in the brief already: a clarify then searches on).
  if (r.kinds.length === 0 && states(r) === r.colors.length && BRIGHT_ALONE.test(r.text)) return 'clarify';
  if (states(r) > 0) return 'search';
  // "nice one", "love them!": pleased with what was shown, not shopping for something nice.
  if (PLEASED.test(r.text)) return 'thanks';
  if (SHOPPING.test(r.text.replace(HELP_THANKED, ' ')) || DECLINED.test(r.text) || ANSWER.test(r.text))
    return 'clarify';
  if (GREETING.test(r.text)) return 'clarify';
  // "bandana bibs x3", "a kids umbrella": something worn the reader has no item word for is asked
  // about, not declined.
  if (WEARABLE_SAID.test(r.text)) return 'clarify';
  return THANKS.test(r.text) ? 'thanks' : 'offtopic';
}
