/**
 * Reads shopping constraints from what a user typed or said: price limits in many phrasings and
 * currencies, seasons, colours, categories, occasions and sizes. Pure and deterministic: the
 * stub model's tool arguments come from here, so the same message always gives the same calls.
 */

import type { Season, WardrobeCategory } from '@hs/contracts';
import { spokenAmounts } from './brief/normalize.ts';
import { AROUND, PRICE_CLEARED, REFUSED_SPEND, topsBound } from './brief/price.ts';
import { splitNegations, spokenSizes, TONED_DOWN } from './brief/read-message.ts';
import { DRESS_NOT_A_DRESS, NOT_A_GARMENT } from './brief/vocabulary.ts';
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
const NUM = String.raw`(?<![\d.,])(?:\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{1,9}(?:[.,]\d{1,2})?)(?!\d)`;
/** An amount with an optional currency before or after it: "$50", "50 EUR", "€ 60", "30 pounds". */
const MONEY = String.raw`(?:(${CUR})\s?)?(${NUM})(?:\s?(${CUR})(?![a-z]))?`;

const MAX_WORDS = String.raw`${REFUSED_SPEND}|nothing (?:over|above|more than)|never (?:over|above|more than)|not above|under|below|beneath|less than|lower than|cheaper than|no more than|not more than|no higher than|not over|not exceeding|at most|up to|upto|within|max(?:imum)?\.?(?:\s+of)?|budget(?:\s+(?:of|is))?|<=?`;
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
const MAX_AMOUNT = new RegExp(String.raw`(?:^|[^a-z])(?:${MAX_WORDS})\s*:?\s*${MONEY}`);
const AMOUNT_MAX_AFTER = new RegExp(String.raw`${MONEY}\s+(?:${MAX_AFTER})\b`);
const MIN_AMOUNT = new RegExp(String.raw`(?:^|[^a-z])(?:${MIN_WORDS})\s*:?\s*${MONEY}`);
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
  } else if (dashRange && (dashRange[1] || dashRange[3] || dashRange[4] || dashRange[6])) {
    const [a, b] = [money(dashRange, 1), money(dashRange, 4)];
    found.push(a, b);
    [out.minPrice, out.maxPrice] = [Math.min(a.amount, b.amount), Math.max(a.amount, b.amount)];
  } else {
    const max = text.match(MAX_AMOUNT);
    const maxAfter = text.match(AMOUNT_MAX_AFTER);
    const min = text.match(MIN_AMOUNT);
    // Not a size ("size 40 eur"), nor "around 70 pounds" (a band the brief reads; not read here).
    const bare = text.match(BARE_AMOUNT);
    const tops = topsBound(text);
    if (max) found.push(money(max, 1));
    else if (maxAfter && !/size\s*$/.test(text.slice(0, maxAfter.index))) found.push(money(maxAfter, 1));
    else if (tops) found.push({ amount: tops.max, currency: tops.currency });
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

const SEASONS: Array<[RegExp, Season]> = [
  [/\bspring\b/, 'SPRING'],
  [/\bsummer(?:y|time)?\b/, 'SUMMER'],
  [/\b(?:fall|autumn(?:al)?)\b/, 'FALL'],
  [/\bwint(?:er|ry)\b/, 'WINTER'],
];

const COLORS: Record<string, string> = {
  black: 'black',
  white: 'white',
  red: 'red',
  blue: 'blue',
  navy: 'navy',
  green: 'green',
  yellow: 'yellow',
  orange: 'orange',
  pink: 'pink',
  purple: 'purple',
  brown: 'brown',
  beige: 'beige',
  grey: 'grey',
  gray: 'grey',
  cream: 'cream',
  burgundy: 'burgundy',
  olive: 'olive',
  khaki: 'khaki',
  teal: 'teal',
  gold: 'gold',
  silver: 'silver',
  tan: 'tan',
  camel: 'camel',
  ivory: 'ivory',
  maroon: 'maroon',
  lilac: 'lilac',
  mint: 'mint',
};

const CATEGORIES: Array<[RegExp, WardrobeCategory]> = [
  [
    /\b(?:t-?shirts?|tees?|shirts?|blouses?|tops?|sweaters?|jumpers?|hoodies?|cardigans?|polos?|tank tops?|sweatshirts?)\b/,
    'TOP',
  ],
  [
    /\b(?:jeans|trousers|pants|shorts|skirts?|leggings|chinos|joggers|kilts?|sarongs?|salopettes?)\b/,
    'BOTTOM',
  ],
  [/\b(?:dress(?:es)?|gowns?|jumpsuits?|[kc]aftans?)\b/, 'DRESS'],
  [
    /\b(?:jackets?|coats?|parkas?|blazers?|raincoats?|trench(?:coats?)?|outerwear|anoraks?|ponchos?)\b/,
    'OUTERWEAR',
  ],
  [/\b(?:shoes|sneakers|trainers|boots|sandals|heels|loafers|flats|footwear)\b/, 'SHOES'],
  [
    /\b(?:scarf|scarves|hats?|belts?|caps?|gloves|sunglasses|jewell?ery|ties?|watch(?:es)?|accessor(?:y|ies))\b/,
    'ACCESSORY',
  ],
  [/\b(?:bags?|handbags?|backpacks?|totes?|purses?|clutch(?:es)?)\b/, 'BAG'],
];

const OCCASIONS: Array<[RegExp, string]> = [
  [/\bweddings?\b/, 'wedding'],
  [
    /\bchristenings?\b|\bbaptisms?\b|\bnaming (?:day|ceremony)\b|\b(?:first |holy )communion\b/,
    'christening',
  ],
  [/\b(?:work|office|business)\b/, 'work'],
  [/\binterviews?\b/, 'interview'],
  [/\b(?:party|parties|clubbing)\b/, 'party'],
  [/\bdate night|\bdate\b/, 'date'],
  [/\bformal|black tie\b/, 'formal'],
  [/\bcasual|everyday\b/, 'casual'],
  [/\b(?:beach|vacation|holiday)s?\b/, 'vacation'],
  [/\b(?:gym|sports?|running|workout|training)\b/, 'sport'],
  [/\bschool\b/, 'school'],
  [/\bgraduation\b/, 'graduation'],
  [/\bbirthday\b/, 'birthday'],
  [/\bfuneral\b/, 'funeral'],
  [/\bhik(?:e|ing)\b/, 'hiking'],
];

const SIZE_WORDS: Record<string, string> = {
  small: 'S',
  medium: 'M',
  large: 'L',
  'extra small': 'XS',
  'extra large': 'XL',
};

function parseSizes(said: string): string[] {
  // "size 5 uk", "42 eu": the system after the number; "size 9 and a half", "xx large": as the
  // brief reads them.
  const text = spokenSizes(said).replace(/\b(\d{1,2}(?:\.5)?) ?(eu|uk)\b/g, '$2 $1');
  const sizes: string[] = [];
  const add = (s: string) => {
    if (!sizes.includes(s)) sizes.push(s);
  };
  for (const m of text.matchAll(
    /\bsize(?!s\b)\s*:?\s*((?:eu|us|uk)\s?\d{1,2}(?:\.5)?|x{0,3}[sml]|xx?l|\d{1,2}(?:\.5)?)\b/g,
  ))
    add(m[1]!.toUpperCase().replace(/^(EU|US|UK)(\d)/, '$1 $2'));
  // "sizes 10 and 12": each size of the list.
  for (const m of text.matchAll(
    /\bsizes\s*:?\s*(\d{1,2}(?:\.5)?(?:\s?(?:,|and|&|or|\/)\s?\d{1,2}(?:\.5)?\b)*)/g,
  ))
    for (const n of m[1]!.match(/\d{1,2}(?:\.5)?/g) ?? []) add(n);
  for (const m of text.matchAll(/\b(?:in (?:an? )?|size )(extra small|extra large|small|medium|large)\b/g))
    add(SIZE_WORDS[m[1]!]!);
  // "a 2XL tee", "an xl coat": letters no word is spelt with, in any case.
  for (const m of text.matchAll(/\b(xxs|xs|xl|xxl|xxxl|2xl|3xl)\b/g))
    add(m[1]!.toUpperCase().replace(/^2XL$/, 'XXL').replace(/^3XL$/, 'XXXL'));
  for (const m of text.matchAll(/\b(eu|us|uk)\s?(\d{1,2}(?:\.5)?)\b(?!\s?(?:dollars?|pounds?|\$|£))/g))
    add(`${m[1]!.toUpperCase()} ${m[2]}`);
  return sizes;
}

const phraseIn = (text: string, word: string) => new RegExp(`\\b${word}\\b`).test(text);

export function parseConstraints(message: string): Constraints {
  // Amounts, sizes and colours as the brief reads them: "fifty bucks" is 50, "size 38 actually
  // make it 39" is 39, "red no wait blue" is blue.
  const text = spokenAmounts(message.toLowerCase().replace(/\s+/g, ' '));
  // "black tie" is a dress code: no colour and no tie (the brief's rule).
  const garmentText = text.replace(NOT_A_GARMENT, ' ');
  // "forget the budget", "ignore the £40": no price to search by.
  const out: Constraints = { ...parsePrice(text.replace(PRICE_CLEARED, ' ')) };
  const season = SEASONS.find(([re]) => re.test(text));
  if (season) out.season = season[1];
  // "no white", "anything but black", "no dresses": what is said no to is no constraint to search by.
  // Colours and items are words: a run of digits is left out, so a hostile 30 kB number costs
  // the brief reader's normaliser nothing.
  const { positive, negated } = splitNegations(message.replace(/\d{3,}/g, '0'));
  const colors = [
    ...new Set(
      [...garmentText.matchAll(/\b[a-z]+\b/g)]
        .filter((m) => !phraseIn(negated, m[0]) || phraseIn(positive, m[0]))
        .map((m) => COLORS[m[0]])
        .filter((c): c is string => !!c),
    ),
  ];
  if (colors.length > 0) out.colors = colors;
  // "dress shoes", "fancy dress costume": no dress asked for (the brief's rule), never across a
  // line break ("a dress\nshoes too"), which `text` has made a space.
  const said = message
    .toLowerCase()
    .replace(/[^\S\r\n]+/g, ' ')
    .replace(DRESS_NOT_A_DRESS, ' ')
    .replace(NOT_A_GARMENT, ' ');
  // "sneakers 50 tops": the ceiling (read with the price), not a top.
  const tops = topsBound(said);
  const itemText = tops ? `${said.slice(0, tops.at)}    ${said.slice(tops.at + 4)}` : said;
  const categories = CATEGORIES.filter(
    ([re]) => re.test(itemText) && !(re.test(negated) && !re.test(positive)),
  ).map(([, c]) => c);
  if (categories.length > 0) out.categories = categories;
  // "less formal", "not too dressy": a step away from an occasion (the brief's rule).
  const toned = text.replace(TONED_DOWN, ' ');
  const occasion = OCCASIONS.find(([re]) => re.test(toned));
  if (occasion) out.occasion = occasion[1];
  const sizes = parseSizes(text);
  if (sizes.length > 0) out.sizes = sizes;
  return out;
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
