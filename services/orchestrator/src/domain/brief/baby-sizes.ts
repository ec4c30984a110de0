import { KINDS } from './vocabulary.ts';

/**
 * Baby sizes as families say them ("6 months", "0-3 months", "12-18m", "newborn") in the form
 * baby clothes are labelled: a band of months ("6-9M") or "NEWBORN". A child of two or more
 * wears a kids' size by age ("KIDS 2"), as the brief keeps older children's sizes. A baby wears
 * the band that starts at their age or spans it: a 6-month-old wears 6-9M, an 18-month-old 18-24M.
 */
const BANDS: Array<[from: number, to: number]> = [
  [0, 3],
  [3, 6],
  [6, 9],
  [9, 12],
  [12, 18],
  [18, 24],
];
export const NEWBORN = 'NEWBORN';
/** The labels in order, smallest first, for "a size up" / "a size down". */
export const BABY_SIZES = [NEWBORN, ...BANDS.map(([a, b]) => `${a}-${b}M`)];

const MONTHS = '(?:months?|mnths?|mths?|mos?)';
/** "0-3 months", "12-18m", "12 to 18 months", "6-12 mths": a band said as one. */
const BAND_SAID = new RegExp(
  String.raw`(?<!\b(?:last|lasts|lasting|within|every)\s)\b(\d{1,2})\s?(?:-|–|to)\s?(\d{1,2})\s?(?:${MONTHS}|m)\b(?:[ -]olds?\b)?`,
  'g',
);
/** "6 months", "a 9 month old", "9mo": one age in months, read as a size only for someone. */
const MONTHS_SAID = new RegExp(
  String.raw`(?<!\b(?:last|lasts|lasting|lasted|within|in|for|over|after|every|ago|than)\s)\b(\d{1,2})[ -]?${MONTHS}\b(?:[ -]olds?\b)?(?! (?:ago|later|from now|warranty|guarantee|of)\b)`,
  'g',
);
/** "she is 8 weeks": a newborn's age in weeks; not a wait ("coming up to 3 weeks till the wedding"). */
const WEEKS_SAID =
  /(?<!\b(?:last|lasts|lasting|within|in|for|over|after|every)\s)\b(\d{1,2})[ -]?(?:weeks?|wks?)\b(?:[ -]olds?\b)?(?! (?:ago|later|from now|of|till|til|until|before|to go|away|left|time)\b)/g;
/**
 * "up to 3 months", "upto 1 month": a label's band said by where it ends, as shops print it (0-3M);
 * "up to 1 month" is the newborn size. Never a duration ("lasts up to 3 months").
 */
/** A wait after the months: "up to 3 months delivery please". */
const DURATION_AFTER =
  /^ (?:delivery|shipping|dispatch|wait|leave|returns?|warranty|guarantee|before|after|until|till)\b/;
const UP_TO_SAID = new RegExp(
  String.raw`(?<!\b(?:last|lasts|lasting|lasted|takes?|took|wait|waited|delivery|delivered|within|in)\s)\b(?:up to|upto|up-to) (\d{1,2}) ?(?:${MONTHS}|m)\b(?! (?:ago|later|from now|warranty|guarantee|of)\b)`,
  'g',
);
/**
 * A baby said, or a garment only babies wear: "up to 3 months" is a label there, a duration or a
 * wait anywhere else ("happy waiting up to 2 months", "a scarf up to 2m long").
 */
const BABY_CONTEXT =
  /\b(?:bab(?:y|ies)|baby ?grows?|infants?|newborns?|new ?borns?|new-borns?|premature|prem|preemie|bodysuits?|babygrows?|sleepsuits?|rompers?|snowsuits?|pram ?suits?|all ?in ?ones?|sleeping bags?|bibs?|booties|mittens for (?:a|the|my|our) baby|months? olds?)\b/;
const ITEM_WORDS = KINDS.flatMap((k) => k.words)
  .concat(['clothes', 'clothing', 'outfits', 'outfit', 'things', 'bits'])
  .sort((a, b) => b.length - a.length)
  .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`))
  .join('|');
/** "vests upto 1 month", "clothes up to 9 months": the months said right after the garment, as shops label it. */
const ITEM_UP_TO = new RegExp(String.raw`(?:^ ?|(?<![\w-])(?:${ITEM_WORDS}) )$`);
/**
 * "snowsuit 18 months", "vests, 6 months", "a cardigan 12 mths": months right after a garment are
 * its label, no one named ("a coat that lasts 18 months" is a duration: MONTHS_SAID leaves it; "coat 6
 * months free returns", "dress 24 months interest free", "coat 6 month payment plan" are terms; "vests 3 months free delivery", "hat 6 months free personalisation" are a label, then a
 * term: "free" is one only before returns, a trial or credit).
 */
const ITEM_MONTHS = new RegExp(
  String.raw`(?<![\w-])(?:${ITEM_WORDS}) (?:, )?\d{1,2} ?(?:months?|mnths?|mths?|mos?)\b(?! (?:ago|later|from now|warranty|guarantee|of|wear|use|free(?= (?:returns?|exchanges?|trial|interest|credit|finance|membership|subscription)\b)|interest|credit|finance|payment|pay|instal?lments?|returns?|contract|trial|subscription)\b)`,
);
/** "first size", "tiny baby", "premature": the smallest labels, said as shops name them. */
const NEWBORN_SAID =
  /\b(?:newborns?|new borns?|new-borns?|just born|first size(?! (?:up|down|bigger|smaller))|tiny baby|early baby|premature|prem|preemie)\b/g;
const BABY =
  /\b(?:bab(?:y|ies)|infants?|toddlers?|newborns?|sons?|daughters?|boys?|girls?|grand(?:son|daughter|kid|child)s?|nephews?|nieces?|twins|kids?|child|little (?:one|1)s?|he|she|hes|shes|he's|she's|old)\b/;

/** The size a baby of `months` wears. */
export function sizeForMonths(months: number): string {
  if (months >= 24) return `KIDS ${Math.floor(months / 12)}`;
  const band = BANDS.find(([, to]) => months < to)!;
  return `${band[0]}-${band[1]}M`;
}

/** Baby sizes in a normalised message, and the text with them blanked (so "18-24 months" is no kids' 18). */
export function readBabySizes(text: string): { sizes: string[]; rest: string } {
  const sizes: string[] = [];
  const add = (s: string) => sizes.includes(s) || sizes.push(s);
  const blank = (m: string) => ' '.repeat(m.length);
  const babySaid = BABY_CONTEXT.test(text);
  let rest = text.replace(UP_TO_SAID, (m, n: string, at: number) => {
    const to = Number(n);
    if (to < 1 || to > 24) return m;
    // In months right after a garment or starting the message it is a label too ("vests upto 1
    // month", "up to 3 months please, a cardigan"); a bare "m" only for a baby.
    const label =
      babySaid ||
      (!/\d ?m$/.test(m) &&
        ITEM_UP_TO.test(text.slice(0, at)) &&
        !DURATION_AFTER.test(text.slice(at + m.length)));
    // A duration is blanked all the same: no price of 3 and no baby's age ("for up to 12 months").
    if (!label) return /\d ?m$/.test(m) ? m : blank(m);
    add(to === 1 ? NEWBORN : BANDS.find(([, b]) => b === to) ? sizeForMonths(to - 1) : sizeForMonths(to));
    return blank(m);
  });
  rest = rest.replace(BAND_SAID, (m, a: string, b: string) => {
    const [from, to] = [Number(a), Number(b)].sort((x, y) => x - y) as [number, number];
    if (to > 36 || from === to) return m;
    add(to <= 24 ? `${from}-${to}M` : sizeForMonths(from));
    return blank(m);
  });
  rest = rest.replace(NEWBORN_SAID, (m) => {
    add(NEWBORN);
    return blank(m);
  });
  if (!BABY.test(text) && !babySaid && !ITEM_MONTHS.test(text)) return { sizes, rest };
  rest = rest.replace(MONTHS_SAID, (m, n: string) => {
    if (Number(n) > 36) return m;
    add(sizeForMonths(Number(n)));
    return blank(m);
  });
  rest = rest.replace(WEEKS_SAID, (m, n: string) => {
    if (Number(n) > 12) return m;
    add(sizeForMonths(Math.floor(Number(n) / 4.35)));
    return blank(m);
  });
  return { sizes, rest };
}
