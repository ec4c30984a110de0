/**
 * Sizes as shoppers and merchants spell them, reduced to comparable keys: "Medium" and "m" are
 * "M", "X-Large" and "extra large" are "XL", "EU 42" is "EU 42" and also "42" (so a bare "42"
 * finds it), a child's "8Y", "8 years", "age 8" or "kids 8" are "KIDS 8", and a baby's "6-9 months",
 * "6-9m" or "6 to 9 mths" are "6-9M" and "NB" or "newborn" "NEWBORN" (the stylist's baby sizes).
 */
const LETTER_WORDS: Array<[RegExp, string]> = [
  [/^(?:extra[\s-]?extra[\s-]?large|xx[\s-]?large|2xl)$/, 'XXL'],
  [/^(?:extra[\s-]?large|x[\s-]?large)$/, 'XL'],
  [/^(?:extra[\s-]?small|x[\s-]?small)$/, 'XS'],
  [/^(?:3xl|xxx[\s-]?large)$/, 'XXXL'],
  [/^large$/, 'L'],
  [/^medium$/, 'M'],
  [/^small$/, 'S'],
];
const KIDS =
  /^(?:kids?'?s?|age|ages|youth|child(?:ren)?'?s?)\s*(\d{1,2})(?:\s*y(?:ears?|rs?)?)?$|^(\d{1,2})\s*(?:y|yrs?|years?)(?:\s*old)?$/;
const BABY_BAND = /^(\d{1,2}) ?(?:-|–|to) ?(\d{1,2}) ?(?:m|mo|mos|mths?|mnths?|months?)\.?$/;
const NEWBORN = /^(?:nb|new ?born|new-born|newborns?)$/;
const SYSTEM = /^(eu|us|uk|fr|it)\s*(\d{1,2}(?:[.,]5)?)$/;

export function sizeKeys(raw: string): string[] {
  const s = raw.trim().toLowerCase().replace(/\s+/g, ' ');
  for (const [re, key] of LETTER_WORDS) if (re.test(s)) return [key];
  if (NEWBORN.test(s)) return ['NEWBORN'];
  const band = s.match(BABY_BAND);
  if (band) return [`${Number(band[1])}-${Number(band[2])}M`];
  const kids = s.match(KIDS);
  if (kids) return [`KIDS ${Number(kids[1] ?? kids[2])}`];
  const system = s.match(SYSTEM);
  if (system) {
    const n = system[2]!.replace(',', '.');
    return [`${system[1]!.toUpperCase()} ${n}`, n];
  }
  return [s.toUpperCase()];
}

/** The key a searched size is looked up by, and whether an offer's keys satisfy it. */
export function sizeQuery(raw: string): { key: string; matches: (keys: readonly string[]) => boolean } {
  const keys = sizeKeys(raw);
  const [full, bare] = keys;
  if (!bare) return { key: full!, matches: (k) => k.includes(full!) };
  // "EU 42" finds "EU 42" and a bare "42", not "US 42".
  return {
    key: bare,
    matches: (k) =>
      k.includes(full!) || (k.includes(bare) && !k.some((x) => x !== full && x.endsWith(` ${bare}`))),
  };
}
