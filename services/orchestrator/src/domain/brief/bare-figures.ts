import { COLORS, KINDS, OCCASIONS, SEASON_HINTS } from './vocabulary.ts';

/**
 * Figures said with no word for what they are, as families type lists: "a coat 60 and boots 40",
 * "a coat for 60" (prices), "a coat for ben, 4, in red" (an age after a name). Each is rewritten
 * into the words the readers know ("a coat under 60", "for ben , age 4 ,"); a figure that could
 * be a size or an age is left alone.
 */

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`);
const wordsOf = (filter: (k: (typeof KINDS)[number]) => boolean) =>
  KINDS.filter(filter)
    .flatMap((k) => k.words)
    .sort((a, b) => b.length - a.length)
    .map(escapeRe)
    .join('|');
const ITEM = wordsOf(() => true);
const categoryOfWord = new Map(KINDS.flatMap((k) => k.words.map((w) => [w, k.category] as const)));
/** Items sold in one size: any figure said beside them is a price ("a shirt 39 and a tie 20"). */
const ONE_SIZE = new Set(
  KINDS.filter(
    (k) =>
      k.category === 'BAG' || ['tie', 'cufflinks', 'pocket square', 'sunglasses', 'scarf'].includes(k.kind),
  ).flatMap((k) => k.words),
);
/** Trousers whose bare figure is a waist ("jeans 32"): read as a size (read-message.ts). */
const TROUSERS = /^(?:jeans|trousers|chinos|pants|cords|slacks|denims)$/;

/** What after a figure makes it no price: a unit of age, size, count or measure, or money already. */
const NOT_PRICE_AFTER = String.raw`(?![.,]\d)(?! ?(?:-|–|to|or|\/|x|th|st|nd|rd|s|years?|yrs?|y|yo|y\/o|year olds?|months?|mths?|m|weeks?|kids?|youth|juniors?|jnr|infants?|toddlers?|eu|uk|us|cm|cms|mm|inch(?:es)?|waist|w|chest|leg|long|short|regular|reg|tall|petite|pairs?|packs?|sets?|pieces?|items?|people|guests?|players?|students?|children|child|girls|boys|adults|members|of us|of them|miles?|mi|km|kms|kilomet(?:er|re)s?|met(?:er|re)s?|jan(?:uary)?|feb(?:ruary)?|april|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|minutes?|mins?|hours?|hrs?|days?|degrees?|percent|off|k|dollars?|bucks|pounds?|quid|euros?|eur|usd|gbp|each|tops|max(?:imum)?|or less|or under|total|in total)\b)(?! ?[$£€%°'])`;

/** "a coat 60", "boots 40 ,": an item with a bare figure right after it. */
const ITEM_FIGURE = new RegExp(
  String.raw`(?<![\w-])(${ITEM}) (?:, )?(\d{1,4})(?![\w'])${NOT_PRICE_AFTER}`,
  'g',
);
/** Any item word, to find the items said without a figure. */
const ITEM_WORD = new RegExp(String.raw`(?<![\w-])(?:${ITEM})(?![\w-])`, 'g');
/** Hats are sized by head girth in cm, shirts by collar in inches or (a man's shirt) in cm. */
const HATS = /^(?:hats?|caps?|beanies?|berets?|sun ?hats?)$/;
const SHIRTS = /shirts?$/;
/** A shirt with a collar ("a shirt 41", "dress shirt 39"), not a t-shirt or a sweatshirt. */
const COLLARED = /^(?:shirts?|dress shirts?|work shirts?|formal shirts?|oxford shirts?|school shirts?)$/;
/** European children's sizes are heights in cm, 6 apart: 50, 56, ... 176 (said of a child). */
const EU_HEIGHT = (n: number) => n >= 50 && n <= 176 && (n - 50) % 6 === 0;
const CHILD =
  /\b(?:son|daughter|kids?|child|children|boys?|girls?|baby|toddler|grandson|granddaughter|nephew|niece)\b/;

/** A size only hats, shirts or a child's clothes are given in: a head girth, a collar, a height. */
const measuredSize = (word: string, n: number, forChild: boolean, inList = false) =>
  (HATS.test(word) && n >= 48 && n <= 64) ||
  (SHIRTS.test(word) && n >= 14 && n <= 19) ||
  // A collar in cm is read alone ("a shirt 41 for my husband"); in a list of prices ("a shirt 39
  // and a tie 20") an odd figure is the shirt's price, as before (an even one stays a size below).
  (!inList && COLLARED.test(word) && n >= 36 && n <= 46) ||
  (forChild && EU_HEIGHT(n));

/** A bare figure a size could never be for the item: a price. */
function noSize(word: string, n: number, forChild: boolean, oneSizePriced = true, ranged = false): boolean {
  if (categoryOfWord.get(word) === 'SHOES') return n > 48;
  if (oneSizePriced && ONE_SIZE.has(word)) return true;
  if (measuredSize(word, n, forChild)) return false;
  // "plus size jeans 22", "womens trousers 18": a women's size, not only a waist.
  if (TROUSERS.test(word) && !ranged) return n > 48 || (n > 16 && n < 24);
  // Clothes: UK and US sizes are even, kids' ages stop at 16, European sizes at about 58.
  return n > 58 || (n > 16 && n % 2 === 1);
}

/**
 * A figure that stays a size even in a list of prices: a waist, a European clothes size (even,
 * 30 to 48), or a measured size.
 */
const sizeInAnyList = (word: string, n: number, forChild: boolean) =>
  (TROUSERS.test(word) && n >= 24 && n <= 44) ||
  (categoryOfWord.get(word) !== 'SHOES' && n >= 30 && n <= 48 && n % 2 === 0) ||
  measuredSize(word, n, forChild, true);

/**
 * "a coat for 60", "something for 30 for my son": "for" and a figure of 19 or more after what is
 * asked for is how families say a budget (a size is "size 38", "in a 38"); not when a count, a
 * date or a distance follows ("for 22 players", "for 21 june", "for 20 mile walks").
 */
const FOR_FIGURE = new RegExp(
  String.raw`((?<![\w-])(?:${ITEM}|something|anything|outfit|outfits|one|ones|it|them|those|these)(?: [a-z'-]+| ,| (?<=\b(?:size|sz|uk|eu|us|age) )\d{1,2}(?:\.5)?){0,6}? for )(\d{2,4})(?![\w'])${NOT_PRICE_AFTER}`,
  'g',
);

/** Words after "for" that are no one's name: people, times, occasions, places. */
const NOT_A_NAME =
  /^(?:me|him|her|them|us|you|it|my|his|her|our|their|the|a|an|this|that|each|both|all|everyone|now|today|tomorrow|tonight|later|work|school|nursery|uni|college|church|kids|boys|girls|baby|babies|toddlers?|him|mum|mom|dad|sale|less|cheap|free|sure|ages|age|size|years?|next|summer|winter|spring|autumn|fall|christmas|xmas|easter|eid|diwali|weekend|holiday|holidays|travel|home|running|football|dance|ballet|swimming|sport|sports|gym|pe)$/;
const isName = (w: string) =>
  !NOT_A_NAME.test(w) &&
  !new RegExp(`^(?:${ITEM})$`).test(w) &&
  !COLORS.some(([c]) => c === w) &&
  !OCCASIONS.some(([re]) => re.test(` ${w} `)) &&
  !SEASON_HINTS.some(([re]) => re.test(` ${w} `));

/** "for ben , 4 ,", "for mia , 7 .": a child's name and a bare figure in its own clause, an age. */
const NAME_AGE = /\bfor ([a-z]{2,12}) , (\d{1,2})(?= ?(?:,|\.|$)| (?:and|in|size|please|under)\b)/g;

/** Prices said as bare figures beside items ("a coat 60 and boots 40", "a coat for 60"), made readable. */
/**
 * Whom a range of sizes is cut for, said right before the item ("plus size jeans 22", "womens
 * trousers 18"): a women's size may follow it. Said elsewhere it is no range ("jeans 20 plus a
 * belt", "mens jeans 20 and a womens scarf"): the item's figure is read as before.
 */
const RANGED_BEFORE =
  /(?:^|[^\w-])(?:plus[- ]size|curve|curvy|petite|ladies|womens|women's|maternity) (?:size )?$/;

export function bareItemPrices(text: string): string {
  const forChild = CHILD.test(text);
  const ranged = (m: RegExpMatchArray) =>
    RANGED_BEFORE.test(text.slice(Math.max(0, m.index! - 24), m.index!));
  const figures = [...text.matchAll(ITEM_FIGURE)].filter((m) => Number(m[2]) >= 5);
  // A one-size item's figure is its price when every other item is priced by its own figure ("a
  // shirt 39 and a tie 20", "a tie 20"); beside an item with none, or with a size ("a coat and a
  // scarf 15", "a shirt 40 and a tie 20"), it is left alone, since a lone price there would be read
  // as the coat's or the shirt's too.
  const items = [...text.matchAll(ITEM_WORD)];
  const priced = (oneSizePriced: boolean) => {
    const price = (m: RegExpMatchArray) => noSize(m[1]!, Number(m[2]), forChild, oneSizePriced, ranged(m));
    // "a coat 60 and boots 40": in a list where one figure can only be a price, the others of 20 or
    // more are prices too; smaller ones stay sizes or ages ("a dress 12 and a coat 65"), and so do a
    // waist ("jeans 32 and a hoodie 25"), a European clothes size ("a dress 36 and shoes 60"), a
    // child's height size, a hat or a collar.
    const listOfPrices = figures.some((m) => Number(m[2]) >= 10 && price(m));
    return figures.filter((m) => {
      const n = Number(m[2]);
      return price(m) || (listOfPrices && n >= 20 && !sizeInAnyList(m[1]!, n, forChild));
    });
  };
  let prices = priced(true);
  if (!items.every((w) => ONE_SIZE.has(w[0]) || prices.some((m) => m.index === w.index)))
    prices = priced(false);
  let out = text;
  // From the end, so earlier places stay where they were.
  for (const m of [...prices].reverse()) {
    const at = m.index! + m[0].length - m[2]!.length;
    out = `${out.slice(0, at)}under ${out.slice(at)}`;
  }
  return out
    .replace(FOR_FIGURE, (all, before: string, n: string) => (Number(n) >= 19 ? `${before}under ${n}` : all))
    .replace(MULTI_BUY, (all, count: string, sign: string | undefined, n: string) => {
      const each = Math.floor((Number(n) / Number(count)) * 100) / 100;
      return each >= 2 ? `${count} for under ${sign ?? ''}${each} each` : all;
    });
}

/**
 * "2 for 30", "3 for £20": a multi-buy, what each piece may cost (the total shared by the count);
 * never a size or an age before it ("size 2 for 30"), nor "3 for 2" (a deal of pieces).
 */
const MULTI_BUY = new RegExp(
  String.raw`(?<!\b(?:size|sz|age|aged|ages|uk|eu|us|kids?|years?|under|over|max|than|up to|between|from|to)\s)(?<![\w.£$€])([2-5]) for ([£$€])?(\d{1,3})(?![\w'.,]\d|[\w'])${NOT_PRICE_AFTER}`,
  'g',
);

/** "a coat for ben , 4 , in red": the figure after a name is the child's age. */
export function namedAges(text: string): string {
  return text.replace(NAME_AGE, (all, name: string, n: string) =>
    isName(name) && Number(n) >= 1 && Number(n) <= 17 ? `for ${name} , age ${n}` : all,
  );
}
