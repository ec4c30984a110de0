/**
 * The currency signs, codes and words families write, each to its ISO code: one table for the
 * stylist's brief (brief/price.ts) and the mission's constraints (constraint-parser.ts), so both
 * read the same money. A word several currencies share ("kr", "kroner": Danish or Norwegian;
 * "krona": Swedish or Icelandic) marks an amount as money, but the currency is not guessed
 * (SHARED_WORDS). "crowns" is not read at all: it is a word for other things too.
 * Patterns take lowercase text.
 */
const CURRENCY_WORDS: Array<[code: string, pattern: string]> = [
  ['USD', String.raw`\bus\$|\$|usd|dollars?|bucks?`],
  ['EUR', '€|eur|euros?'],
  ['GBP', '£|gbp|pounds?|quid'],
  ['CHF', 'chf|swiss francs?|francs?'],
  ['JPY', '¥|jpy|yen'],
  // A dollar named by its country ("CA$80", "AU$25") is never the US dollar its "$" alone is; a
  // word's last letters are no country ("aqua$20", "costa rica$50", "mocha$ 15" are US dollars).
  ['CAD', String.raw`\bc\$|\bca\$|\bcan\$|\bcdn\$|cad`],
  ['AUD', String.raw`\ba\$|\bau\$|\baus\$|aud`],
  // "kronor" is Swedish only (Icelandic is "krónur").
  ['SEK', 'sek|kronor'],
  ['NOK', 'nok'],
  ['DKK', 'dkk'],
  ['PLN', 'pln|złotych|złotys?|zlotys?|zł'],
  // "rs" and "inr" only as words of their own: "years 5" is no amount in rupees.
  ['INR', String.raw`₹|\binr|rupees?|\brs`],
];

/** Words for money in a currency several countries share: an amount, in no known currency. */
const SHARED_WORDS = 'kroner|krone|kronur|krona|kr';

const WHOLE = CURRENCY_WORDS.map(([code, p]): [RegExp, string] => [new RegExp(`^(?:${p})$`), code]);

/**
 * Any currency token, for use inside a larger pattern. Longer spellings come first so a
 * prefix ("$" of "us$", "zł" of "złoty", "francs" of "swiss francs") never wins a match alone.
 */
export const CURRENCY = `(?:${[...CURRENCY_WORDS.flatMap(([, p]) => p.split('|')), ...SHARED_WORDS.split('|')]
  .sort((a, b) => b.length - a.length)
  .join('|')})`;

/** The ISO code of one currency token ("€", "Euros", "zł"), or undefined when it is none. */
export function currencyOf(token: string | undefined): string | undefined {
  if (!token) return undefined;
  const t = token.toLowerCase();
  return WHOLE.find(([re]) => re.test(t))?.[1];
}

/** "-50 eur" is no amount to spend. */
const NOT_NEGATIVE = String.raw`(?<![-−]\s?)`;

/**
 * An amount beside a currency token with no bound word ("20 bucks each", "$50", "hoodie for 80
 * zł", "300 kroner"): the budget, in the brief and in a mission's constraints alike. `num` is
 * the caller's amount pattern, `notAfter` a lookbehind that rules out sizes ("size 40"); a
 * negative figure ("under -50 eur") is none. Groups:
 * 1 currency before, 2 its amount; or 3 an amount, 4 its currency.
 */
export const bareMoney = (num: string, notAfter = '') =>
  new RegExp(
    String.raw`${notAfter}(?:(${CURRENCY})\s?(${num})|${NOT_NEGATIVE}(${num})\s?(${CURRENCY})(?![a-z]))`,
  );

/** The amount (as written) and currency of a `bareMoney` match. */
export const bareMoneyOf = (m: RegExpMatchArray): { raw: string; currency: string | undefined } => ({
  raw: (m[2] ?? m[3])!,
  currency: currencyOf(m[1]) ?? currencyOf(m[4]),
});
