import { bareMoney, bareMoneyOf, CURRENCY, currencyOf } from '../currencies.ts';
import { KINDS } from './vocabulary.ts';

/**
 * Prices in a normalised message: bounds ("under 80", "no more than 50 bucks"), ranges ("between
 * 30 and 45", "from 15 to 25"), a band around a figure ("around 60", "about a hundred": ±20%),
 * a bare amount with a currency ("20 bucks each": the budget), and "cheap" without a number
 * (a bound the stylist chooses and says).
 */
export type PriceReading = { minPrice?: number; maxPrice?: number; currency?: string; cheap?: boolean };

/** The bound "cheap" or "on a budget" stands for when no figure is given. */
export const CHEAP_BOUND = 40;
/** "around 60" means 48 to 72. */
const BAND = 0.2;

const CUR = CURRENCY;
// A figure still ending in "k" after normalising is no money ("a 10k run": normalize.ts turns
// "max 1k" and "£2k" into thousands).
// A count of sizes is no money either ("can stretch to 2 sizes bigger", "1 size up").
// A height or length is none ("about 152 cm", "1m50", "4 ft").
// A baby's age is none: "up to 3 months", "under 6 weeks" are sizes (baby-sizes.ts); nor is a bare
// "m" ("snowsuit up to 6m" a size, "a scarf up to 2m long" a length).
// An age coming ("he's coming up to 3", "my son is coming up to 10", "coming up to 3 next month")
// is none: no ceiling of 3, whoever is said before it; nor an age in years ("they're about 20
// years old", "up to 3 years old"). Money said so after it still is ("coming up to 16 quid").
export const NOT_SIZE_COUNT = String.raw`(?:(?<!\bcoming up to (?:1[0-7]|[1-9]))|(?= ?${CURRENCY}(?![a-z])))(?! ?(?:years?|yrs?|yo|y\/o|sizes|size (?:bigger|smaller|larger|up|down)|months?|mnths?|mths?|mos|weeks?|wks?|cm|cms|centimet(?:re|er)s?|mm|metres?|meters?|ft|feet|foot|inch(?:es)?)\b)(?!m ?\d)(?!m(?![\w&]))`;
const ITEM_WORDS = KINDS.flatMap((k) => k.words)
  .sort((a, b) => b.length - a.length)
  .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  .join('|');
/**
 * A count of things is no money: "max 2 items", "no more than 3 pairs", "up to 5 options"; nor is a
 * single figure before an item word ("up to 2 dresses", "max 3 tops"), unless a currency sign is
 * before it ("£5 socks"). A garment's price is never one figure without a sign.
 * A count other than one takes the plural: "max 40 outfit", "under 60 outfit for a wedding" are
 * prices.
 */
export const NOT_A_COUNT = String.raw`(?! ?(?:items|things|pieces|pairs|outfits|garments|options|results|suggestions|choices)\b)(?!(?<=(?<![\d.,])1) ?(?:item|thing|piece|pair|outfit|garment|option|result|suggestion|choice)\b)(?!(?<=(?<![\d.,]|[$£€]\s?)\d) ?(?:${ITEM_WORDS})(?![\w-]))`;
const NUM = String.raw`(?<![\d.])\d{1,7}(?:\.\d{1,2})?(?!\d|(?:\.\d+)?k\b)${NOT_SIZE_COUNT}${NOT_A_COUNT}`;
const MONEY = String.raw`(?:(${CUR})\s?)?(${NUM})(?:\s?(${CUR})(?![a-z]))?`;
const NOT_SIZE = String.raw`(?<!\b(?:size|eu|us|uk|kids?|age|aged|waist)\s)`;

/**
 * A ceiling said as what someone will not spend: "i don't want to spend more than 80", "we can't
 * go over 60", "not paying above 50". Without it "more than 80" would read as a floor.
 */
export const REFUSED_SPEND = String.raw`(?:(?:do|does|did|wo|ca|could|would|should|must)n['’]?t|not|never|cannot)(?: (?!(?:but|and|so|though)\b)[a-z'’]+){0,3}? (?:spend(?:ing)?|pay(?:ing)?|go(?:ing)?) (?:any )?(?:more than|over|above|higher than)`;
const MAX = String.raw`${REFUSED_SPEND}|nothing (?:over|above|more than|higher than)|never (?:over|above|more than)|not (?:over|above)|under|below|beneath|less than|lower than|cheaper than|no more than|not more than|no higher than|not over|not above|not exceeding|at most|up to|upto|within|max(?:imum)?(?:\s+of)?|(?:can |could |will )?stretch to|budget(?:\s+(?:of|is))?|spend(?:ing)?(?:\s+(?:is|of))?|no more then|less then|under like|<=?|≤`;
const MIN = String.raw`(?<!\b(?:not|nothing|no|never) )(?:over|above|more than|higher than|at least|min(?:imum)?(?:\s+of)?|starting (?:at|from))`;
/**
 * "a bit over 100", "slightly more than 50", "just over 80": a budget a little past the figure, a
 * ceiling a band above it (never a floor: cheaper offers still do).
 */
export const BIT_OVER = String.raw`\b(?:a (?:little |tiny |wee )?bit|slightly|just|a little|a tad|a touch|little) (?:over|above|more than|higher than|past)`;
export const AROUND = `around|about|approximately|approx|roughly|circa|close to|near|in the region of|somewhere around`;
// "50 for both", "200 in total", "30 each": what the things may cost, a ceiling.
const MAX_AFTER = `or less|or under|or cheaper|or below|max(?:imum)?|at most|at the most|and under|and below|or lower|for (?:both|the (?:two|pair|lot|set)|everything|all of (?:it|them))|(?:in )?total|altogether|each|apiece|a piece`;
const CHEAP =
  /\b(?:cheap|cheapest|cheapish|reasonably priced|budget[ -]friendly|affordable|inexpensive|bargains?|low cost|low price|(?:not|nothing)(?: too| so| very| that| overly)?(?: much)? (?:expensive|pricey|pricy|dear|spenny|costly)|thrifty|on a budget|low budget|tight budget|(?:won'?t|doesn'?t|does not|will not|not|without) (?:break(?:ing)? the bank|cost(?:ing)? (?:a fortune|the earth|too much))|(?:doesn'?t|does not|won'?t|will not) cost much)\b/;

/**
 * "tops" beside an amount is the ceiling ("50 tops", "tops 50", "$30 tops"), not the item, when the
 * amount has a currency or is 10 or more; "2 tops" or "3 tops under 20" count the item.
 */
const TOPS = new RegExp(String.raw`${NOT_SIZE}${MONEY}\s+(tops)\b|\b(tops)\s+${MONEY}`);
/** A word for a ceiling right before an amount ("up to", "under", "max"). */
const CEILING_BEFORE =
  /\b(?:up ?to|under|below|less than|no more than|not more than|max(?:imum)?|at most|within|budget(?: of| is)?)\s?$/;
export function topsBound(text: string): { max: number; currency?: string; at: number } | undefined {
  const m = text.match(TOPS);
  if (!m) return undefined;
  const [raw, currency] = m[2] !== undefined ? [m[2], m[1] ?? m[3]] : [m[7]!, m[6] ?? m[8]];
  if (!currency && Number(raw) < 10) return undefined;
  // "up to 25 tops", "under 30 tops": the ceiling is said before the figure, so "tops" is the item.
  if (m[4] !== undefined && CEILING_BEFORE.test(text.slice(Math.max(0, m.index! - 20), m.index!)))
    return undefined;
  // Where the word "tops" is, so the item reader can leave it out.
  const at = m[4] !== undefined ? m.index! + m[0].length - 4 : m.index!;
  return { max: Number(raw), ...(currencyOf(currency) ? { currency: currencyOf(currency)! } : {}), at };
}

/**
 * The budget dropped ("forget the budget", "no budget", "ignore the £40", "money's no object",
 * "don't worry about the price"): the price and its currency go. The amount a shopper drops is
 * part of the phrase, so it is never read again as the budget.
 */
export const PRICE_CLEARED = new RegExp(
  [
    String.raw`\b(?:forget|drop|ignore|remove|no|never ?mind|scrap|ditch|lose|skip) (?:about )?(?:the |my |that |this |a |any )?(?:(?:budget|price|spending|money) )?(?:budget|price|price limit|price cap|limit|cap|max)\b`,
    // An amount dropped by name: "ignore the £40", "forget the 40 pounds", "scrap the 50 limit".
    String.raw`\b(?:forget|drop|ignore|remove|never ?mind|scrap|ditch) (?:about )?(?:the |my |that |this )?(?:${CUR}\s?${NUM}|${NUM}\s?${CUR}(?![a-z])|${NUM} (?:budget|limit|max))(?: budget| limit| max)?`,
    String.raw`\bany price\b|\bwhatever it costs\b|\bregardless of (?:the )?(?:price|cost)\b`,
    String.raw`\b(?:the )?(?:price|budget|cost|money)(?:'s| is)? (?:doesn'?t|does not|won'?t|isn'?t|is not|not|no)(?: an?)? ?(?:matter|object|issue|problem|concern)\b`,
    String.raw`\bbudget(?:'s| is) flexible\b|\bflexible budget\b`,
    String.raw`\bdon'?t (?:care|worry) (?:about|what) (?:the )?(?:price|budget|cost|money|it costs)\b`,
  ].join('|'),
);

const valid = (v: number) => v > 0 && v <= 1_000_000;
const round = (v: number) => Math.round(v);

/** The amounts of `readPrice`, compiled once (building them per message cost more than matching). */
const DASH = new RegExp(String.raw`${NOT_SIZE}${MONEY}\s*(?:-|–|to)\s*${MONEY}(\s*(?:${CUR}|range|price))?`);
const BETWEEN = new RegExp(String.raw`\b(?:between|from)\s+${MONEY}\s*(?:and|to|-|–)\s*${MONEY}`);
// "around the 60 mark" is around 60.
/**
 * After "they're about", a child's age: a figure a child can be, without money's words after it
 * ("they're around 15 each", "they're about 8 in the shop", "they're about 20" are what they cost).
 */
export const THEY_CHILD_AGE = String.raw`(?=(?:1[0-7]|[1-9])\b(?! ?(?:each|apiece|a piece|on sale|online|in (?:the )?(?:shop|shops|store|stores|sale)|at|there|new|full price|usually|normally|too much|too expensive)\b))`;
/**
 * "she's about 6", "he is around 4": a child's age near enough, no price. After "they" only a
 * child's age said as one ("they're about 6 and 9"), never what they cost ("they're about 20",
 * "those boots, they're around 60", "they're around 15 each").
 */
export const NO_AGE_BEFORE = String.raw`(?<!\b(?:he'?s|she'?s|hes|shes|(?:he|she) (?:is|must be|will be))\s)(?!(?<=\b(?:they'?re|theyre|they (?:are|must be|will be))\s)(?:${AROUND})\s+${THEY_CHILD_AGE})`;
const AROUND_AMOUNT = new RegExp(
  String.raw`${NO_AGE_BEFORE}\b(?:${AROUND})\s+(?:a\s|the\s(?=\S+\s(?:mark|region|range)\b))?${MONEY}`,
);
/** "budget maybe 50", "spending probably 30": a hedge between the word for money and the figure. */
const HEDGE = '(?:maybe|probably|prob|possibly|perhaps|roughly|approx|approximately|say)';
const MAX_AMOUNT = new RegExp(
  String.raw`(?:^|[^a-z])(?:${MAX})\s*(?:like\s|about\s|around\s|${HEDGE}\s(?:about\s|around\s)?)?${MONEY}`,
);
const AMOUNT_MAX_AFTER = new RegExp(String.raw`${NOT_SIZE}${MONEY}\s+(?:${MAX_AFTER})\b`);
/** "budget 50-70", "can spend 30 to 40": two figures after a word for money are a price range. */
export const BUDGET_BEFORE =
  /\b(?:budget|price|prices|price range|spend|spending|pay|paying|costing)(?:'s)?(?: (?:is|of|around|about|roughly|maybe|probably|prob|possibly|perhaps|approx|approximately|say|like))* ?$/;
const BIT_OVER_AMOUNT = new RegExp(String.raw`${BIT_OVER}\s*${MONEY}`);
const MIN_AMOUNT = new RegExp(String.raw`(?:^|[^a-z])(?:${MIN})\s*${MONEY}`);
const BARE_AMOUNT = bareMoney(NUM, NOT_SIZE);

export function readPrice(text: string): PriceReading {
  const out: PriceReading = {};
  const currencies: Array<string | undefined> = [];
  const dash = text.match(DASH);
  const range =
    text.match(BETWEEN) ??
    (dash &&
    (dash[1] || dash[3] || dash[4] || dash[6] || dash[7] || BUDGET_BEFORE.test(text.slice(0, dash.index)))
      ? dash
      : null);
  const around = text.match(AROUND_AMOUNT);
  const max = text.match(MAX_AMOUNT);
  const maxAfter = text.match(AMOUNT_MAX_AFTER);
  const min = text.match(MIN_AMOUNT);
  const tops = topsBound(text);
  const bitOver = text.match(BIT_OVER_AMOUNT);
  if (range) {
    const [a, b] = [Number(range[2]), Number(range[5])];
    currencies.push(currencyOf(range[1]), currencyOf(range[3]), currencyOf(range[4]), currencyOf(range[6]));
    out.minPrice = Math.min(a, b);
    out.maxPrice = Math.max(a, b);
  } else if (max || maxAfter || tops) {
    const hit = max ?? maxAfter;
    out.maxPrice = hit ? Number(hit[2]) : tops!.max;
    currencies.push(...(hit ? [currencyOf(hit[1]), currencyOf(hit[3])] : [tops!.currency]));
    if (min && Number(min[2]) < out.maxPrice) {
      out.minPrice = Number(min[2]);
      currencies.push(currencyOf(min[1]), currencyOf(min[3]));
    }
  } else if (bitOver) {
    out.maxPrice = round(Number(bitOver[2]) * (1 + BAND));
    currencies.push(currencyOf(bitOver[1]), currencyOf(bitOver[3]));
  } else if (around) {
    const v = Number(around[2]);
    out.minPrice = round(v * (1 - BAND));
    out.maxPrice = round(v * (1 + BAND));
    currencies.push(currencyOf(around[1]), currencyOf(around[3]));
  } else if (min) {
    out.minPrice = Number(min[2]);
    currencies.push(currencyOf(min[1]), currencyOf(min[3]));
  } else {
    // A bare amount with a currency is the budget: "20 bucks each", "$50".
    const bare = text.match(BARE_AMOUNT);
    if (bare) {
      const { raw, currency } = bareMoneyOf(bare);
      out.maxPrice = Number(raw);
      currencies.push(currency);
    } else if (CHEAP.test(text)) {
      out.maxPrice = CHEAP_BOUND;
      out.cheap = true;
    }
  }
  const currency = currencies.find(Boolean);
  if (currency) out.currency = currency;
  if (out.maxPrice !== undefined && !valid(out.maxPrice)) delete out.maxPrice;
  if (out.minPrice !== undefined && !valid(out.minPrice)) delete out.minPrice;
  return out;
}

/**
 * "more expensive", "go higher": raise the ceiling by half. Said no to ("i don't want to spend
 * more", "nothing more expensive") or compared ("spend more than 100"), it raises nothing.
 */
export const PRICIER =
  /(?<!\b(?:not|no|nothing|never|(?:do|does|did|wo|ca|could|would|should|must)n'?t|cannot)(?: [a-z']+){0,3} )\b(?:more expensive|pricier|go (?:a bit |a little )?higher|higher budget|bigger budget|spend (?:a bit |a little )?more(?! than| then)|nicer ones|better quality)\b/;

/** "cheaper", "less expensive", "too pricey": lower the bound below what was shown. */
export const CHEAPER =
  /\b(?:cheaper|less expensive|lower price|(?<!\b(?:not|nothing|never|isn'?t|aren'?t|wasn'?t|weren'?t) )too (?:expensive|pricey|much)|more affordable|cheaper ones?|cheaper options?|half (?:the|that) (?:price|cost)|half (?:what|as much as) (?:that|this|those|these|it|they|we|i)\b)\b/;
