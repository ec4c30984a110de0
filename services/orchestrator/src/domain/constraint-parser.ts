/**
 * A mission's constraints (its plan and the agent's memory) from what a user typed or said: price
 * limits in many phrasings and currencies read here; seasons, colours, categories, occasions and
 * sizes read by the brief's reader, the one vocabulary the stylist's searches use too (they are
 * built from the brief, brief/relax.ts). Pure and deterministic.
 */

import { type Season, WardrobeCategory } from '@hs/contracts';
import { bareItemPrices } from './brief/bare-figures.ts';
import { spokenAmounts } from './brief/normalize.ts';
import {
  AROUND,
  BIT_OVER,
  BUDGET_BEFORE,
  NOT_A_COUNT,
  NOT_SIZE_COUNT,
  PRICE_CLEARED,
  REFUSED_SPEND,
  topsBound,
} from './brief/price.ts';
import { categoryOf, readMessage } from './brief/read-message.ts';
import { bareMoney, bareMoneyOf, CURRENCY, currencyOf } from './currencies.ts';

export type Constraints = {
  maxPrice?: number;
  minPrice?: number;
  currency?: string;
  season?: Season;
  colors?: string[];
  categories?: WardrobeCategory[];
  occasion?: string;
  sizes?: string[];
};

const CUR = CURRENCY;
/**
 * An amount starts where a number starts and has at most nine integer digits (anything longer is
 * far beyond the price cap and is dropped anyway). Both bounds keep every price pattern linear:
 * with a bare `\d+` a message of one long digit run made each pattern backtrack from every
 * position (quadratic: a third of a second per 8 kB message, on the event loop).
 */
// A figure still ending in "k" (a distance: "a 10k run") is none: money in thousands ("max 1k")
// is in digits by then (spokenAmounts).
// A count of sizes ("can stretch to 2 sizes bigger") is none either, nor of things ("max 2 items",
// "up to 3 tops"): brief/price.ts.
const NUM = String.raw`(?<![\d.,])(?:\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{1,9}(?:[.,]\d{1,2})?)(?!\d|(?:[.,]\d+)?k\b)${NOT_SIZE_COUNT}${NOT_A_COUNT}`;
/** An amount with an optional currency before or after it: "$50", "50 EUR", "€ 60", "30 pounds". */
const MONEY = String.raw`(?:(${CUR})\s?)?(${NUM})(?:\s?(${CUR})(?![a-z]))?`;

const MAX_WORDS = String.raw`${REFUSED_SPEND}|nothing (?:over|above|more than)|never (?:over|above|more than)|not above|under|below|beneath|less than|lower than|cheaper than|no more than|not more than|no higher than|not over|not exceeding|at most|up to|upto|within|max(?:imum)?\.?(?:\s+of)?|(?:can |could |will )?stretch to|budget(?:\s+(?:of|is))?|<=?`;
// "nothing over 40" is a ceiling (MAX_WORDS), never a floor.
const MIN_WORDS = String.raw`(?<!\b(?:not|nothing|no|never) )(?:over|above|more than|higher than|at least|min(?:imum)?\.?(?:\s+of)?|starting (?:at|from)|from|>=?)`;
// "tops" is read by topsBound, which tells the ceiling ("50 tops") from the item ("2 tops").
// "50 for both", "200 in total", "30 each": the brief's rule (brief/price.ts).
const MAX_AFTER =
  'or less|or under|or cheaper|or below|max(?:imum)?|at most|at the most|for (?:both|the (?:two|pair|lot|set)|everything|all of (?:it|them))|(?:in )?total|altogether|each|apiece|a piece';

function amountOf(raw: string): number {
  // "1,200" is a thousands separator; "49,99" a decimal comma.
  const normalized = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(raw)
    ? raw.replace(/,/g, '')
    : raw.replace(',', '.');
  return Number(normalized);
}

type Money = { amount: number; currency: string | undefined };
const money = (m: RegExpMatchArray, offset: number): Money => ({
  amount: amountOf(m[offset + 1]!),
  currency: currencyOf(m[offset]) ?? currencyOf(m[offset + 2]),
});

/** The amounts of `parsePrice`, compiled once. */
const BETWEEN = new RegExp(String.raw`(?:between|from)\s+${MONEY}\s*(?:and|to|-|–)\s*${MONEY}`);
const DASH = new RegExp(String.raw`(?<!size\s)${MONEY}\s*(?:-|–|to)\s*${MONEY}`);
// "budget maybe 50", "spending probably 30": a hedge before the figure, as the brief reads it.
const MAX_AMOUNT = new RegExp(
  String.raw`(?:^|[^a-z])(?:${MAX_WORDS})\s*:?\s*(?:(?:maybe|probably|prob|possibly|perhaps|roughly|approx|approximately|say)\s)?${MONEY}`,
);
const AMOUNT_MAX_AFTER = new RegExp(String.raw`${MONEY}\s+(?:${MAX_AFTER})\b`);
const MIN_AMOUNT = new RegExp(String.raw`(?:^|[^a-z])(?:${MIN_WORDS})\s*:?\s*${MONEY}`);
/** "a bit over 100": a ceiling a fifth above the figure, as the brief reads it (brief/price.ts). */
const BIT_OVER_AMOUNT = new RegExp(String.raw`${BIT_OVER}\s*${MONEY}`);
const BARE_AMOUNT = bareMoney(NUM, String.raw`(?<!\b(?:size|${AROUND})\s?)`);

function parsePrice(text: string): Pick<Constraints, 'maxPrice' | 'minPrice' | 'currency'> {
  const out: Pick<Constraints, 'maxPrice' | 'minPrice' | 'currency'> = {};
  const found: Money[] = [];
  const range = text.match(BETWEEN);
  const dashRange = text.match(DASH);
  if (range) {
    const [a, b] = [money(range, 1), money(range, 4)];
    found.push(a, b);
    [out.minPrice, out.maxPrice] = [Math.min(a.amount, b.amount), Math.max(a.amount, b.amount)];
  } else if (
    dashRange &&
    // "budget maybe 50-60": two figures after a word for money are a range, as the brief reads them.
    (dashRange[1] ||
      dashRange[3] ||
      dashRange[4] ||
      dashRange[6] ||
      BUDGET_BEFORE.test(text.slice(0, dashRange.index)))
  ) {
    const [a, b] = [money(dashRange, 1), money(dashRange, 4)];
    found.push(a, b);
    [out.minPrice, out.maxPrice] = [Math.min(a.amount, b.amount), Math.max(a.amount, b.amount)];
  } else {
    const max = text.match(MAX_AMOUNT);
    const maxAfter = text.match(AMOUNT_MAX_AFTER);
    const bitOver = text.match(BIT_OVER_AMOUNT);
    const min = bitOver ? null : text.match(MIN_AMOUNT);
    // Not a size ("size 40 eur"), nor "around 70 pounds" (a band the brief reads; not read here).
    const bare = text.match(BARE_AMOUNT);
    const tops = topsBound(text);
    if (max) found.push(money(max, 1));
    else if (maxAfter && !/size\s*$/.test(text.slice(0, maxAfter.index))) found.push(money(maxAfter, 1));
    else if (tops) found.push({ amount: tops.max, currency: tops.currency });
    else if (bitOver) {
      const m = money(bitOver, 1);
      found.push({ ...m, amount: Math.round(m.amount * 1.2) });
    }
    // A bare amount with a currency is the budget, as in the stylist's brief: "hoodie for 80 zł".
    else if (bare && !min) {
      const { raw, currency } = bareMoneyOf(bare);
      found.push({ amount: amountOf(raw), currency });
    }
    if (found.length > 0) out.maxPrice = found[0]!.amount;
    if (min) {
      const m = money(min, 1);
      if (out.maxPrice === undefined || m.amount < out.maxPrice) {
        out.minPrice = m.amount;
        found.push(m);
      }
    }
  }
  const currency = found.map((m) => m.currency).find(Boolean);
  if (currency) out.currency = currency;
  for (const key of ['maxPrice', 'minPrice'] as const) {
    const v = out[key];
    if (v !== undefined && !(v > 0 && v <= 1_000_000)) delete out[key];
  }
  return out;
}

const PLAN_LIST_MAX = 20;
/** The wardrobe's own order, so a message's categories come out the same whatever order it names them in. */
const CATEGORY_ORDER = WardrobeCategory.options;

/**
 * What the message asks for, read by the brief's reader (brief/read-message.ts) so both share one
 * vocabulary: items ("slippers", "a onesie", "zapatillas") to their categories, colours to the
 * colours offers are tagged with, the season said or implied, the occasion, and sizes however
 * they are said ("a medium hoodie", "34 waist", "toddler 7", "kids 12", a child's age). What is
 * said no to, "dress shoes" and "black tie" are the reader's rules too.
 */
function readWords(message: string): Omit<Constraints, 'maxPrice' | 'minPrice' | 'currency'> {
  // The same message the stylist has just read: the reader's kept reading.
  const r = readMessage(message);
  const out: Omit<Constraints, 'maxPrice' | 'minPrice' | 'currency'> = {};
  if (r.seasons[0]) out.season = r.seasons[0];
  // A plan holds at most 20 of each (contracts' PlanConstraints), however long the message.
  if (r.colors.length > 0) out.colors = r.colors.slice(0, PLAN_LIST_MAX);
  const categories = new Set(r.kinds.map(categoryOf));
  const ordered = CATEGORY_ORDER.filter((c) => categories.has(c));
  if (ordered.length > 0) out.categories = ordered;
  if (r.occasion) out.occasion = r.occasion;
  if (r.sizes.length > 0) out.sizes = r.sizes.slice(0, PLAN_LIST_MAX);
  return out;
}

export function parseConstraints(message: string): Constraints {
  // Amounts as the brief reads them: "fifty bucks" is 50, "forty i mean fifty" 50.
  // "a coat 60 and boots 40", "a coat for 60": bare figures beside items are prices, as the brief reads them.
  const text = bareItemPrices(spokenAmounts(message.toLowerCase().replace(/\s+/g, ' ')));
  // "forget the budget", "ignore the £40": no price to search by.
  return { ...parsePrice(text.replace(PRICE_CLEARED, ' ')), ...readWords(message) };
}

/** True when the message says anything a search could use. */
export const hasConstraints = (c: Constraints): boolean => Object.keys(c).length > 0;

/** "under 80 EUR, summer, black, TOP" for replies. */
export function describeConstraints(c: Constraints): string {
  const parts: string[] = [];
  const cur = c.currency ? ` ${c.currency}` : '';
  if (c.minPrice !== undefined && c.maxPrice !== undefined)
    parts.push(`between ${c.minPrice} and ${c.maxPrice}${cur}`);
  else if (c.maxPrice !== undefined) parts.push(`under ${c.maxPrice}${cur}`);
  else if (c.minPrice !== undefined) parts.push(`from ${c.minPrice}${cur}`);
  if (c.season) parts.push(c.season.toLowerCase());
  if (c.colors) parts.push(c.colors.join('/'));
  if (c.categories) parts.push(c.categories.map((x) => x.toLowerCase()).join('/'));
  if (c.occasion) parts.push(`for ${c.occasion}`);
  if (c.sizes) parts.push(`size ${c.sizes.join('/')}`);
  return parts.join(', ');
}
