import type { Brief } from '@hs/contracts';
import { BABY_SIZES } from './baby-sizes.ts';
import { CHEAP_BOUND } from './price.ts';
import { categoryOf, type Reading } from './read-message.ts';

/**
 * The next brief: what the message states replaces the same field ("in blue instead" replaces
 * the colour, "what about size L" only the size), exclusions add up, "forget the budget" and
 * "start over" clear, "cheaper" lowers the price bound below what was shown. `shownPrices` are
 * the prices of the offers the last reply presented.
 */
export function updateBrief(
  previous: Brief,
  message: Reading,
  shownPrices: number[] = [],
  earlier: readonly string[] = [],
): { brief: Brief; notes: string[] } {
  const notes: string[] = [];
  const r = inContext(previous, message);
  let b: Brief = r.clear.includes('all') ? {} : { ...previous };
  const drop = (...keys: Array<keyof Brief>) => {
    for (const k of keys) delete b[k];
  };
  // "no I meant for my wife", "not for him, for his sister": someone else than the brief's person,
  // whose age (and the child's size it gave) the brief no longer holds. `earlier` are the user's
  // messages before: "no, for my son, navy" after "a coat for my son age 8" names him again.
  // "for me instead, size 12": a size said with the new person is theirs, the child's age gone too.
  if (r.forAge === undefined && !r.addKinds && personCorrected(r.text, earlier)) {
    b.sizes = (b.sizes ?? []).filter((s) => !personSize(s));
    drop('forAge');
  }
  if (r.clear.includes('price')) drop('minPrice', 'maxPrice', 'currency');
  if (r.clear.includes('colors')) drop('colors', 'excludedColors');
  if (r.clear.includes('sizes')) drop('sizes');
  if (r.clear.includes('seasons')) drop('seasons');
  if (r.clear.includes('brands')) drop('excludedBrands');
  if (r.clear.includes('occasion')) drop('occasion');

  const joining = joinsList(previous, r);
  if (r.kinds.length > 0) {
    const kinds = joining ? [...new Set([...(b.itemKinds ?? []), ...r.kinds])] : r.kinds;
    const categories = [...new Set(kinds.map(categoryOf).filter((c) => c !== undefined))];
    // Sizes belong to a kind of garment: a new category needs its own size.
    // A baby's or child's size by age ("6-9M", "KIDS 8") is the person's, whatever they wear; an
    // item joining the list leaves the others their sizes.
    if (
      r.sizes.length === 0 &&
      b.categories &&
      !categories.every((c) => b.categories!.includes(c)) &&
      b.forAge === undefined &&
      !(b.sizes ?? []).every(personSize) &&
      !joining
    )
      drop('sizes');
    b = { ...b, itemKinds: kinds, categories };
    b.excludedKinds = (b.excludedKinds ?? []).filter((k) => !kinds.includes(k));
  }
  // "actually make that 2" after a child of 8: two of the item, no other age or size.
  const count =
    previous.forAge !== undefined &&
    r.sizeRetryTo === undefined &&
    Number(r.sizeRetry) <= 4 &&
    Math.abs(Number(r.sizeRetry) - previous.forAge) > 3 &&
    MAKE_THAT.test(r.text);
  // A number none of the brief's sizes could be ("150" after "size M, under 100") is a price.
  const sizeRetry = !count && r.sizeRetry !== undefined && sizeLike(r.sizeRetry, b);
  // "in 11-12": both sizes of the pair.
  const retried = r.sizeRetry === undefined ? [] : [r.sizeRetry, ...(r.sizeRetryTo ? [r.sizeRetryTo] : [])];
  // "or 12", "or green": another size or colour beside those asked for, not in their place.
  const alternative = /^or\b/.test(r.text);
  // Which of a child's and a grown-up's sizes a single figure said again replaces, if either.
  const nearest = sizeRetry ? nearestOf(previous.sizes ?? [], retried, alternative) : undefined;
  let p: Reading['price'] = sizeRetry ? {} : r.price;
  // An item joining the list with a price of its own ("and a hoodie under 25") leaves the others'
  // ceiling: the brief shows the widest.
  const shared = r.joinedItems?.shared ?? {};
  const ownPrice =
    joining && r.kinds.length > 0 && shared.maxPrice === undefined && shared.minPrice === undefined;
  if (
    ownPrice &&
    p.maxPrice !== undefined &&
    previous.maxPrice !== undefined &&
    p.maxPrice < previous.maxPrice
  )
    p = { maxPrice: previous.maxPrice, ...(p.currency ? { currency: p.currency } : {}) };
  if (p.minPrice !== undefined || p.maxPrice !== undefined) {
    drop('minPrice', 'maxPrice');
    if (p.minPrice !== undefined) b.minPrice = p.minPrice;
    if (p.maxPrice !== undefined) b.maxPrice = p.maxPrice;
    if (p.cheap && !r.cheaper) notes.push(`I took "cheap" to mean under ${CHEAP_BOUND}.`);
  }
  if (p.currency) b.currency = p.currency;
  if (r.cheaper && (p.maxPrice === undefined || p.cheap)) {
    const reference = b.maxPrice ?? (shownPrices.length > 0 ? Math.max(...shownPrices) : undefined);
    const lowered = reference !== undefined ? Math.floor(reference * 0.8) : CHEAP_BOUND;
    b.maxPrice = Math.max(1, lowered);
    // Cheaper means a lower ceiling; a floor would only keep the cheaper offers out.
    delete b.minPrice;
    notes.push(`Cheaper: now under ${b.maxPrice}.`);
  }
  if (r.pricier && p.maxPrice === undefined && b.maxPrice !== undefined) {
    b.maxPrice = Math.ceil((b.maxPrice * 1.5) / 5) * 5;
    delete b.minPrice;
    notes.push(`Higher budget: now under ${b.maxPrice}.`);
  } else if (r.pricier && p.maxPrice === undefined && p.minPrice === undefined && shownPrices.length > 0) {
    // No ceiling to raise: "more expensive ones" are those above what was shown.
    b.minPrice = Math.ceil(Math.max(...shownPrices));
    notes.push(`More expensive: now over ${b.minPrice}.`);
  }
  // "like 60" after a price was given: the new ceiling.
  if (
    r.sizeRetry &&
    !sizeRetry &&
    r.sizeRetryTo === undefined &&
    !r.sizeRetryIn &&
    (b.maxPrice !== undefined || b.minPrice !== undefined) &&
    Number(r.sizeRetry) >= 5
  ) {
    b.maxPrice = Number(r.sizeRetry);
    delete b.minPrice;
  } else if (
    r.sizeRetry &&
    !sizeRetry &&
    !b.sizes?.length &&
    (shoesOnly(b) || (r.sizeRetryIn && b.forAge === undefined)) &&
    Number(r.sizeRetry) <= 48
  )
    // "trainers" then "9": shoes have no price that small and no size by age, so the answer is the size.
    // "jeans under 40" then "have them in 32?": asked in a size, the size.
    b.sizes = retried;
  if (r.sizeStep && r.sizes.length === 0 && b.sizes?.length) {
    const shoes = b.categories?.includes('SHOES') ?? false;
    b.sizes = b.sizes.map((s) => stepSize(s, r.sizeStep!, shoes));
  }
  // An item added to the list ("and a red top") or said again ("the trousers in black") brings
  // its own colour and size; the others keep theirs, so the brief shows both.
  const added = <T>(before: T[] | undefined, now: T[]) =>
    joining && r.kinds.length > 0 ? [...new Set([...(before ?? []), ...now])] : now;
  if (r.sizes.length > 0) b.sizes = added(previous.sizes, r.sizes);
  else if (nearest !== undefined) {
    // "and for me, size 12" then "no, 14": the size of the two it is nearer to, the other kept.
    const sizes = previous.sizes!;
    const at = nearest;
    const system = sizes[at]!.match(/^([A-Z]+) /)?.[1];
    const n = Number(retried[0]);
    b.sizes = sizes.map((s, i) => (i === at ? (system ? `${system} ${n}` : String(n)) : s));
    if (
      sizes[at] === `KIDS ${previous.forAge}` &&
      system === 'KIDS' &&
      !shoesOnly(previous) &&
      AGE_CORRECTED.test(r.text)
    )
      b.forAge = n;
  } else if (sizeRetry) {
    const system = b.sizes?.[0]?.match(/^([A-Z]+) /)?.[1];
    const said = retried.map((n) => (system ? `${system} ${n}` : n));
    b.sizes = alternative ? [...new Set([...(b.sizes ?? []), ...said])] : said;
    // "age 8" then "actually make that 9": the age said again, so the child's age too.
    const age = Number(said[0]?.match(/^KIDS (\d+)$/)?.[1]);
    if (
      said.length === 1 &&
      !alternative &&
      age > 0 &&
      previous.forAge !== undefined &&
      previous.sizes?.length === 1 &&
      previous.sizes[0] === `KIDS ${previous.forAge}` &&
      // "trainers for my son age 8", then "no 2": his shoe size 2, no other age.
      !shoesOnly(previous) &&
      AGE_CORRECTED.test(r.text)
    )
      b.forAge = age;
  }
  // "and the same for her brother, he's 11", "and for my daughter size 2": another person beside
  // the one asked for, each in their size.
  if (
    r.addKinds &&
    r.kinds.length === 0 &&
    r.sizes.length > 0 &&
    ((r.sizes.every(personSize) && (previous.sizes ?? []).every(personSize)) || ANOTHER_PERSON.test(r.text))
  )
    b.sizes = [...new Set([...(previous.sizes ?? []), ...r.sizes])];
  // "my brother wants the same, he's a 32", "my husband would like one too, he's an XL": someone
  // else wants what was asked for, in their size, beside the first person's.
  if (r.kinds.length === 0 && r.sizes.length > 0 && !sizeRetry && OTHER_WANTS_SAME.test(r.text))
    b.sizes = [...new Set([...(previous.sizes ?? []), ...r.sizes])];
  // "her sister is 8, same dress", "one for his brother too, he's 7": another child, by age, wanting
  // what was asked for, beside the first child (a correction, "actually she's 6", still replaces).
  if (
    r.sizes.length > 0 &&
    !sizeRetry &&
    r.sizes.every(personSize) &&
    (previous.sizes ?? []).length > 0 &&
    (previous.sizes ?? []).every(personSize) &&
    r.kinds.every((k) => previous.itemKinds?.includes(k)) &&
    SOMEONE_ELSE.test(r.text) &&
    // "her sister is 8" said alone after her: the sister too, not instead of her.
    (SAME_TOO.test(r.text) || THAT_CHILDS_SIBLING.test(r.text)) &&
    !CORRECTED.test(r.text) &&
    // "same for her brother, he's 5": the brief again, for him instead.
    !(SAME_FOR_ANOTHER.test(r.text) && !/\b(?:too|as well|also|and)\b/.test(r.text))
  )
    b.sizes = [...new Set([...(previous.sizes ?? []), ...r.sizes])];
  // "same but for her brother", "the same for my husband": the brief again for someone else, whose
  // size and age are not the last person's ("and the same for her brother" keeps both people's).
  if (r.sizes.length === 0 && !r.addKinds && SAME_FOR_ANOTHER.test(r.text) && ANOTHER_PERSON.test(r.text))
    drop('sizes', 'forAge');
  if (r.colors.length > 0) {
    const also = r.kinds.length === 0 && (alternative || /\b(?:also|too|as well)\b/.test(r.text));
    b.colors = also
      ? [...new Set([...(previous.colors ?? []), ...r.colors])]
      : added(previous.colors, r.colors);
    b.excludedColors = (b.excludedColors ?? []).filter((c) => !r.colors.includes(c));
  }
  if (r.excludedColors.length > 0) {
    b.excludedColors = [...new Set([...(b.excludedColors ?? []), ...r.excludedColors])];
    b.colors = (b.colors ?? []).filter((c) => !r.excludedColors.includes(c));
  }
  if (r.excludedKinds.length > 0) {
    b.excludedKinds = [...new Set([...(b.excludedKinds ?? []), ...r.excludedKinds])];
    if (b.itemKinds) {
      b.itemKinds = b.itemKinds.filter((k) => !r.excludedKinds.includes(k));
      b.categories = [...new Set(b.itemKinds.map(categoryOf).filter((c) => c !== undefined))];
    }
  }
  if (r.excludedBrands.length > 0)
    b.excludedBrands = [...new Set([...(b.excludedBrands ?? []), ...r.excludedBrands])];
  if (r.seasons.length > 0) b.seasons = r.seasons;
  if (r.occasion) b.occasion = r.occasion;
  // "less formal" after a black-tie brief leaves no dress code; an event ("the wedding") stays.
  else if (r.steppedFrom && b.occasion === r.steppedFrom) delete b.occasion;
  // "she's actually 7 months" after a child of 8: a baby, of no age in years.
  if (
    r.forAge === undefined &&
    r.sizes.length > 0 &&
    r.sizes.every((s) => BABY_SIZES.includes(s)) &&
    (b.sizes ?? []).every((s) => BABY_SIZES.includes(s))
  )
    delete b.forAge;
  // "she's actually 17" after a child of 8: the size by the age said before goes with it.
  if (
    r.forAge !== undefined &&
    r.sizes.length === 0 &&
    previous.forAge !== undefined &&
    r.forAge !== previous.forAge &&
    !r.addKinds &&
    !SAME_TOO.test(r.text)
  )
    b.sizes = (b.sizes ?? []).filter((s) => s !== `KIDS ${previous.forAge}`);
  if (r.forAge !== undefined) b.forAge = r.forAge;
  // A new request starts with nothing relaxed; the search says again what it had to loosen.
  delete b.relaxed;
  return { brief: compact(b), notes };
}

/**
 * The message read with the brief it answers: "denim" alone after a skirt is the skirt's cloth,
 * not jeans; "size 10" after a child's size by age is the child's size 10 ("KIDS 10"), unless the
 * brief is for shoes (a child's shoe size 10 is no age) or the message says someone else.
 */
function inContext(previous: Brief, r: Reading): Reading {
  let out = r;
  const before = previous.itemKinds ?? [];
  if (
    r.kinds.length === 1 &&
    r.kinds[0] === 'jeans' &&
    before.length > 0 &&
    !before.includes('jeans') &&
    r.text.length < 60 &&
    CLOTH_ALONE.test(r.text)
  )
    out = { ...out, kinds: [] };
  const kids = previous.sizes ?? [];
  if (
    out.kinds.every((k) => before.includes(k)) &&
    out.sizes.length > 0 &&
    kids.length > 0 &&
    kids.every((s) => s.startsWith('KIDS ')) &&
    !(previous.categories ?? []).includes('SHOES') &&
    out.sizes.every((s) => /^\d{1,2}$/.test(s) && Number(s) >= 2 && Number(s) <= 16) &&
    !PERSON_CORRECTED.test(r.text) &&
    !ADULT_SAID.test(r.text)
  )
    out = { ...out, sizes: out.sizes.map((s) => `KIDS ${s}`) };
  return out;
}
/**
 * "a coat for my daughter", then "7": a bare figure, with no size, age or budget in the brief and
 * a child named earlier in the conversation, answers the stylist's question about the child: her
 * age, so her size by age. Shoes take it as their size (updateBrief).
 */
export function answeredAge(previous: Brief, r: Reading, earlier: readonly string[]): Reading {
  const n = Number(r.sizeRetry);
  // "pyjamas", then "4-5": a bare pair of figures a year apart, after a garment with no size yet,
  // is its kids' label ("age 4-5"), whoever it is for; never shoes' two sizes.
  if (
    r.sizeRetry !== undefined &&
    Number(r.sizeRetryTo) === n + 1 &&
    Number.isInteger(n) &&
    n >= 1 &&
    n < 16 &&
    r.sizes.length === 0 &&
    r.kinds.length === 0 &&
    r.forAge === undefined &&
    previous.itemKinds?.length &&
    !(previous.categories ?? []).includes('SHOES') &&
    !previous.itemKinds.some((k) => k === 'socks' || k === 'tights') &&
    !previous.sizes?.length &&
    previous.forAge === undefined
  ) {
    const { sizeRetry: _retry, sizeRetryTo: _to, sizeRetryIn: _in, ...rest } = r;
    return { ...rest, sizes: [`KIDS ${n}`, `KIDS ${n + 1}`] };
  }
  if (
    r.sizeRetry === undefined ||
    r.sizeRetryTo !== undefined ||
    r.sizes.length > 0 ||
    r.kinds.length > 0 ||
    r.forAge !== undefined ||
    !previous.itemKinds?.length ||
    (previous.sizes?.length ?? 0) > 0 ||
    previous.forAge !== undefined ||
    previous.maxPrice !== undefined ||
    previous.minPrice !== undefined ||
    shoesOnly(previous) ||
    !Number.isInteger(n) ||
    n < 1 ||
    n > 16 ||
    !A_CHILD.test(personAskedFor(earlier) ?? '')
  )
    return r;
  const { sizeRetry: _retry, sizeRetryIn: _in, ...rest } = r;
  return { ...rest, sizes: [`KIDS ${n}`], forAge: n };
}
const A_CHILD =
  /^(?:son|daughter|kid|child|grandson|granddaughter|niece|nephew|toddler|little one|baby|grandkid|grandchild)$/;
const RELATION = String.raw`(?:little |older |younger |big |other |baby |eldest |youngest )?(son|daughter|boy|girl|kid|child|children|brother|sister|husband|wife|partner|mum|mom|dad|mother|father|twin|cousin|niece|nephew|grandson|granddaughter|grandkid|grandchild|toddler|baby|friend|grandma|grandad|granny|little one)s?\b`;
const SAME_PERSON: Record<string, string> = {
  boy: 'son',
  girl: 'daughter',
  mom: 'mum',
  mother: 'mum',
  father: 'dad',
  children: 'child',
  kid: 'child',
};
const person = (word: string) => SAME_PERSON[word] ?? word;
const FOR_PERSON = new RegExp(
  String.raw`\bfor (me|myself)\b|\bfor (?:my|his|her|their|our) ${RELATION}`,
  'g',
);
const NAMED_PERSON = new RegExp(String.raw`\b(?:my|his|her|their|our) ${RELATION}`, 'g');
/**
 * Whom the shopping was last asked for in the user's messages: "a top for me, my daughter is
 * with me" is for me; "a coat" then "for my son" for him; "my son needs a coat" for him.
 */
export function personAskedFor(texts: readonly string[]): string | undefined {
  for (const text of [...texts].reverse()) {
    const t = text.toLowerCase().replace(/[’‘]/g, "'");
    const asked = [...t.matchAll(FOR_PERSON)].at(-1) ?? [...t.matchAll(NAMED_PERSON)].at(-1);
    if (asked) return person(asked[1] === 'myself' ? 'me' : (asked[1] ?? asked[2])!);
  }
  return undefined;
}
/**
 * "no I meant for my wife" corrects whom the shopping is for, unless the person named is the one
 * asked for before ("no, for my son, navy"; "not for my husband, for my son") or one of several
 * ("actually for my son and my daughter").
 */
function personCorrected(text: string, earlier: readonly string[]): boolean {
  // "for his sister instead, same size": whom for changes, the size kept.
  if (!PERSON_CORRECTED.test(text) || SAME_SIZE.test(text)) return false;
  const kept = text.replace(
    /\bnot (?:for )?(?:me|him|her|them|myself|you|(?:my|his|her|their|our) (?:little |older |younger |big |other )?\w+)\b/g,
    '',
  );
  const named = [
    ...kept.matchAll(
      new RegExp(String.raw`\b(?:for|and|&) (?:for )?(?:my|his|her|their|our) ${RELATION}`, 'g'),
    ),
  ].map((m) => person(m[1]!));
  if (new Set(named).size > 1) return false;
  return named.length === 0 || named[0] !== personAskedFor(earlier);
}
/** "make that 2", "make it 3": how many. */
const MAKE_THAT = /\bmake (?:it|that) \d\b/;
/**
 * The size a single figure said again replaces in a brief for a child and a grown-up ("KIDS 8",
 * "12"): the nearer of the two, the one said last when as near; none for one person's sizes.
 */
function nearestOf(sizes: readonly string[], retried: readonly string[], alternative: boolean) {
  if (retried.length !== 1 || alternative || sizes.length < 2) return undefined;
  if (!sizes.some(personSize) || sizes.every(personSize)) return undefined;
  const n = Number(retried[0]);
  let at: number | undefined;
  let distance = Number.POSITIVE_INFINITY;
  for (const [i, s] of sizes.entries()) {
    const v = Number(s.match(/\d+(?:\.5)?$/)?.[0]);
    // "<=": the one said last when as near.
    if (v > 0 && Math.abs(v - n) <= distance) [at, distance] = [i, Math.abs(v - n)];
  }
  return at;
}
/** "denim", "something denim", "in denim please": the cloth alone, said of the item asked for. */
const CLOTH_ALONE =
  /^(?:(?:um|uh|er|erm|oh|ok|okay|and|but|maybe|actually|preferably|ideally|something|anything|in|made of|a|one|,) )*denim(?: (?:one|ones|please|if possible|preferably|ideally|if you can))?$/;
/** A grown-up's size: "women's 10", "ladies", "for me, size 12", "i'm a 12". */
const ADULT_SAID =
  /\b(?:wom[ae]n'?s?|ladies|lady'?s|men'?s?|adults?|uk|us|eu)\b|\bfor (?:me|myself|my (?:husband|wife|partner|mum|mom|dad|mother|father))\b|\b(?:i'?m|i am) (?:a |an )?(?:size )?\d|\bmy (?:own )?size\b|\bi (?:wear|take) (?:a |an )?(?:size )?\d|\b(?:my|his|her|their|our) (?:husband|wife|partner|mum|mom|dad|mother|father|boyfriend|girlfriend)(?:'s| is| wears| takes) (?:a |an )?(?:size )?\d/;
/**
 * "no I meant for my wife", "not for me, for my husband", "it's for my son actually", "for his
 * sister instead", "for my niece this time", "instead for his sister", "this time it's for my
 * daughter", "for the baby instead", "for me instead", "red instead for me". Never "for his twin instead" (a twin is the
 * same age) nor "instead, for his sister's party".
 */
const PERSON_CORRECTED =
  /(?:\b(?:not|no|actually|sorry|oops|wait|i meant?|i said)\b(?: ,)? (?:(?:for )?(?:me|him|her|them|myself|you)(?: ,)? )?(?:(?:it'?s|its|it is|they'?re|it was|this is|that'?s|i meant?|i said|but) )?for (?:my|his|her|their|our) (?:little |older |younger |big |other )?(?:son|daughter|brother|sister|boy|girl|husband|wife|partner|mum|mom|dad|kid|child|twin|cousin|niece|nephew|grandson|granddaughter|friend|mother|father|grandma|grandad|granny)s?\b(?!'| too| as well| also)|\bfor (?:my|his|her|their|our) (?:son|daughter|brother|sister|husband|wife|partner|mum|mom|dad|niece|nephew|grandson|granddaughter|mother|father) (?:,)? ?(?:actually|not (?:for )?(?:me|him|her|my \w+)))|\b(?:(?:instead|this time) (?:, )?(?:(?:it'?s|its|it is) )?)?for (?:my|his|her|their|our|the) (?:little |older |younger |big |other |baby |eldest |youngest )?(?:son|daughter|brother|sister|boy|girl|husband|wife|partner|mum|mom|dad|kid|child|cousin|niece|nephew|grandson|granddaughter|friend|mother|father|grandma|grandad|granny|baby)s?(?: (?:, )?(?:instead|rather|this time)\b|(?<=\b(?:instead|this time) (?:, )?(?:(?:it'?s|its|it is) )?for \w+ (?:\w+ )?\w+)\b(?!'))|\bfor (?:me|myself) (?:, )?(?:instead|this time)\b|\b(?:instead|this time) (?:, )?(?:(?:it'?s|its|it is) )?for (?:me|myself)\b(?! (?:too|as well|also)\b)/;
const SAME_SIZE = /\b(?:same|similar) (?:size|age)\b|\bthe same (?:size|age)\b/;
/** "actually make that 9", "sorry, 9", "no 9": the last figure corrected, not another size tried. */
const AGE_CORRECTED = /\b(?:actually|sorry|no|make (?:it|that)|i meant?|wait|oops|change it to)\b/;

/**
 * The message's items join the list asked for before: added ("also", "and a cardigan") or one
 * of several said again with something new ("actually the trousers should be black"), unless
 * the shopper narrows the list ("just the trousers", "only the top", "trousers instead").
 */
export function joinsList(previous: Brief, r: Reading): boolean {
  if (r.addKinds) return true;
  const before = previous.itemKinds ?? [];
  return (
    r.kinds.length > 0 &&
    before.length > 1 &&
    r.kinds.every((k) => before.includes(k)) &&
    r.kinds.length < before.length &&
    !/\b(?:just|only|instead|rather|back to)\b/.test(r.text)
  );
}

/**
 * A number said again ("what about 43", "no 25") as a size in the brief's system: a child's size
 * is at most 16, a number over 60 a height in cm only beside one; with a price too, the number is
 * whichever of the two it is nearer (25 after "size 10, under 30" is the price).
 */
function sizeLike(n: string, b: Brief): boolean {
  const first = b.sizes?.[0];
  if (!first) return false;
  const value = Number(n);
  if (first.startsWith('KIDS ') && value > 16) return false;
  if (value >= 60 && !b.sizes!.some((s) => Number(s.match(/\d+/)?.[0] ?? 0) >= 60)) return false;
  const size = Number(first.match(/\d+(?:\.5)?$/)?.[0]);
  const price = b.maxPrice ?? b.minPrice;
  if (price === undefined || !(size > 0)) return true;
  return Math.abs(Math.log(value / size)) <= Math.abs(Math.log(value / price));
}
const shoesOnly = (b: Brief) => (b.categories?.length ?? 0) > 0 && b.categories!.every((c) => c === 'SHOES');

/** "for my daughter", "for her brother", "for me": whom a size said after "and" is for. */
const ANOTHER_PERSON =
  /\bfor (?:me|myself)\b|\bfor (?:my|his|her|their|our|the|your) (?:little |older |younger |big |other )?(?:son|daughter|brother|sister|boy|girl|husband|wife|partner|mum|mom|dad|kid|child|twin|cousin|niece|nephew|grandson|granddaughter|friend|one)s?\b/;
/** "my brother wants the same", "her sister would like one too": another person wanting the same. */
const OTHER_WANTS_SAME =
  /\b(?:my|his|her|their|our|the) (?:little |older |younger |big |other )?(?:son|daughter|brother|sister|boy|girl|husband|wife|partner|mum|mom|dad|kid|child|twin|cousin|niece|nephew|grandson|granddaughter|friend|one)s? (?:also |too |as well )?(?:wants?|would like|would love|needs?|is after|asked for|likes?)(?: (?:the same|them|it|one|1|a pair|some|the same thing|the same ones?|that|those|these))(?: (?:too|also|as well))?\b/;
const SAME_FOR_ANOTHER =
  /\b(?:same|similar|one like that|one of those|another one) (?:(?:thing|again|one|but|please|,) )*for\b/;
/** A child of the family named (not "she", who may be the child asked for before). */
const SOMEONE_ELSE =
  /\b(?:my|his|her|their|our|the) (?:little |older |younger |big |other |baby )?(?:son|daughter|brother|sister|boy|girl|kid|child|twin|cousin|niece|nephew|grandson|granddaughter|baby)s?\b/;
/** "her sister is 8", "his brother who's 10": a sibling of the child asked for before, by age. */
const THAT_CHILDS_SIBLING =
  /\b(?:his|her|their) (?:little |big |older |younger |baby |twin )?(?:brother|sister|twin)s? (?:, )?(?:is|who is|whos|who's) \d/;
/** "same", "too", "as well": what was asked for, wanted again. */
const SAME_TOO = /\b(?:same|too|as well|also|another|one for)\b/;
const CORRECTED = /\b(?:actually|sorry|i mean|i meant|not|no|wait|oops)\b/;
const personSize = (size: string) => BABY_SIZES.includes(size) || size.startsWith('KIDS ');

const LETTERS = ['XXS', 'XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL'];

/**
 * One size down or up, in the size's own system: "L" → "M", "EU 42" → "EU 41", "KIDS 8" → "KIDS 9",
 * "6-9M" → "9-12M". A plain even number of clothes (a dress's "10", a waist's "32", a European
 * "38") goes up in twos, as those sizes are made; a shoe's goes one by one.
 */
function stepSize(size: string, step: -1 | 1, shoes: boolean): string {
  if (!shoes && /^\d{1,2}$/.test(size) && Number(size) % 2 === 0)
    return String(Math.max(0, Number(size) + 2 * step));
  const i = LETTERS.indexOf(size);
  if (i >= 0) return LETTERS[Math.min(LETTERS.length - 1, Math.max(0, i + step))]!;
  const baby = BABY_SIZES.indexOf(size);
  // Up from the last band is a toddler's kids' size.
  if (baby >= 0) return baby + step >= BABY_SIZES.length ? 'KIDS 2' : BABY_SIZES[Math.max(0, baby + step)]!;
  return size.replace(/(\d+(?:\.5)?)$/, (n) => String(Math.max(1, Number(n) + step)));
}

/** Drops empty fields so an unstated constraint is absent, not `[]`. */
export function compact(b: Brief): Brief {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b))
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) out[k] = v;
  return out as Brief;
}

/** PATCH semantics: given fields replace, `null` removes. */
export function patchBrief(b: Brief, patch: Record<string, unknown>): Brief {
  const next: Record<string, unknown> = { ...b };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete next[k];
    else if (v !== undefined) next[k] = v;
  }
  if (patch.itemKinds !== undefined && patch.categories === undefined) {
    const kinds = (next.itemKinds as string[] | undefined) ?? [];
    const categories = [...new Set(kinds.map(categoryOf).filter((c) => c !== undefined))];
    if (categories.length > 0) next.categories = categories;
  }
  return compact(next as Brief);
}

const canonical = (b: Brief) =>
  JSON.stringify(Object.entries(compact(b)).sort(([a], [c]) => (a < c ? -1 : 1)));
export const sameBrief = (a: Brief, b: Brief) => canonical(a) === canonical(b);
