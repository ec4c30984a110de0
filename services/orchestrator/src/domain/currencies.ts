/**
 * The currency signs, codes and words families write, each to its ISO code: one table for the
 * stylist's brief (brief/price.ts) and the mission's constraints (constraint-parser.ts), so both
 * read the same money. A word several currencies share ("kr", "kroner": Danish or Norwegian;
 * "crowns", "krona") is not listed: its amount still reads, but the currency is not guessed.
 * Patterns take lowercase text.
 */
const CURRENCY_WORDS: Array<[code: string, pattern: string]> = [
  ['USD', String.raw`us\$|\$|usd|dollars?|bucks?`],
  ['EUR', '€|eur|euros?'],
  ['GBP', '£|gbp|pounds?|quid'],
  ['CHF', 'chf|swiss francs?|francs?'],
  ['JPY', '¥|jpy|yen'],
  ['CAD', String.raw`c\$|cad`],
  ['AUD', String.raw`a\$|aud`],
  // "kronor" is Swedish only (Icelandic is "krónur").
  ['SEK', 'sek|kronor'],
  ['NOK', 'nok'],
  ['DKK', 'dkk'],
  ['PLN', 'pln|złotych|złotys?|zlotys?|zł'],
];

const WHOLE = CURRENCY_WORDS.map(([code, p]): [RegExp, string] => [new RegExp(`^(?:${p})$`), code]);

/**
 * Any currency token, for use inside a larger pattern. Longer spellings come first so a
 * prefix ("$" of "us$", "zł" of "złoty", "francs" of "swiss francs") never wins a match alone.
 */
export const CURRENCY = `(?:${CURRENCY_WORDS.flatMap(([, p]) => p.split('|'))
  .sort((a, b) => b.length - a.length)
  .join('|')})`;

/** The ISO code of one currency token ("€", "Euros", "zł"), or undefined when it is none. */
export function currencyOf(token: string | undefined): string | undefined {
  if (!token) return undefined;
  const t = token.toLowerCase();
  return WHOLE.find(([re]) => re.test(t))?.[1];
}
