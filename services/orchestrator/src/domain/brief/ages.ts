import { THEY_CHILD_AGE } from './price.ts';
import { KINDS } from './vocabulary.ts';

/**
 * Children's ages in a normalised message: the one age the brief keeps as `forAge` ("my 6 year
 * old", "my son is 7", "age 5") and every age a kids' size is wanted for ("ages 4 and 6", "ages
 * 3-5", "my 3 and 7 year olds").
 */

/** At most this many kids' sizes come from one message: each is searched on its own. */
export const MAX_KIDS_SIZES = 6;

/** Someone an age can belong to. Without one, "2 years" is a duration ("2 years warranty"). */
const PERSON =
  /\b(?:brothers?|sisters?|cousins?|kids?|child(?:ren)?|sons?|daughters?|boys?|girls?|toddlers?|bab(?:y|ies)|grand(?:son|daughter|kid|child)s?|grandchildren|nephews?|nieces?|twins|teens?|teenagers?|eldest|oldest|youngest|he|she|hes|shes|he's|she's)\b/;
/** "6 year old", "6yo", "6 y/o": an age wherever it is said. */
const YEARS_OLD = String.raw`(?:(?:years?|yrs?)[ -]?olds?|yo|y\/o)\b`;
/** "6 years": an age only for someone, and never a duration ("lasts 2 years", "2 years warranty"). */
const BARE_YEARS = String.raw`(?:years?|yrs?)\b(?![ -]?olds?\b)(?! (?:warranty|guarantee|ago|later|from now|of)\b)`;
const NOT_DURATION = String.raw`(?<!\b(?:last|lasts|lasting|lasted|within|in|for|over|after|every)\s)`;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`);
/** "2 pairs", "3 of them": a count of things, whatever precedes it. */
const QUANTITY = 'pairs?|packs?|sets?|pieces?|items?|of (?:them|those|these|each)|more';
const ITEM = KINDS.flatMap((k) => k.words)
  .sort((a, b) => b.length - a.length)
  .map(escapeRe)
  .join('|');
/** Children counted: "1 boy 1 girl", "2 sons" (a number before them is how many). */
const CHILDREN =
  'sons?|daughters?|boys?|girls?|kids?|child(?:ren)?|grand(?:son|daughter|kid|child)s?|nephews?|nieces?';
/** Children said together before "are" and their ages: "my kids are 4 and 7", "my grandchildren are 4 and 7". */
const CHILDREN_ARE =
  'kids|children|twins|boys|girls|sons|daughters|grand(?:son|daughter|kid|child)s|grandchildren|nephews|nieces';
/**
 * "18 months", "6 weeks": a baby's age in months or weeks is no age in years; "2 sizes smaller",
 * "1 size up" count sizes, no age at all; "1.40 m" is a height.
 */
// "she's 4 foot 2", "he's 4ft 7", "4'7": a height in feet, no age; "she's 7 stone", "he's 30 kg": a weight.
// "he's 4 inches taller", "she's 2 hours away", "they're 10 minutes from school", "he's 4 or 5 cm
// taller", "my grandsons are 2 miles away": a length, a time or a distance, no age.
const MEASURE = 'inch(?:es)?|ins|cm|cms|mm|hours?|hrs?|mins?|minutes?|miles?|km|kms|days?|seconds?|secs?';
// Of one child, a pair is said with "or", "to" or a dash ("4 or 5 inches", "4-5 cm"); "and"
// starts what comes next ("she's 4 and 2 hours from grandma", "my son is 7 and 2 pairs of school
// trousers"). Of several children, "and" lists them too ("my kids are 4 and 7 hours away",
// "they're 2 and 3 hours away").
const ONE_PAIR = String.raw`(?: ?(?:or|to|-|–) ?\d{1,2})`;
const MANY_PAIR = String.raw`(?: ?(?:or|to|and|&|-|–) ?\d{1,2})`;
const notMonths = (pair: string) =>
  String.raw`(?!${pair}? ?(?:${MEASURE}|months?|mos?|mths?|weeks?|wks?|sizes|size (?:bigger|smaller|larger|up|down)|ft|foot|feet|stones?|st|kgs?|kilos?|lbs?)\b)(?![.,]\d)(?!ft\d|' ?\d)`;
const NOT_MONTHS = notMonths(ONE_PAIR);
const NOT_MONTHS_MANY = notMonths(MANY_PAIR);
/** "she's nearly 4", "my son is almost 7", "he's about 5": the age near enough, the brief's. */
const NEARLY = '(?:nearly |almost |going on |coming up to )?';
/** After "she's", "he is": "about 6" too (after a child's name it may be money: "my son around 40"). */
const ABOUT = '(?:nearly |almost |going on |coming up to |about |around |roughly )';
/**
 * "my son's 7", "my daughter's coming up to 5": "'s" said for "is", where the figure ends what is
 * said of the child; never what the child has ("my son's 3 hoodies", "my daughter's 2 friends").
 */
const IS_SAID_S = String.raw`'s(?= (?:[,.] )?${NEARLY}\d{1,2}(?: ?(?:$|[,.!?;:)]|(?:and|but|so|now|next|soon|this|in|or|years?|yrs?|yo|he|she|needs?|wants?|wears?|likes?|loves?)\b)))`;
/**
 * After a child and a figure, what makes the figure no age: a count said as a pair ("my son's 6 or
 * 7 pairs of socks", "my son 2 or 3 hoodies") or a shoe size, one or a pair ("my son's 7 in shoes",
 * "my son's 12 and a half shoe size", "my son's 4 or 5 in shoes").
 */
const NOT_COUNT_OR_SHOE = String.raw`(?!${ONE_PAIR} ?(?:${QUANTITY}|${ITEM}|${CHILDREN})(?![\w-]))(?!${ONE_PAIR}? (?:and a half )?(?:in )?(?:shoes?|shoe size|trainers|boots|wellies|football boots)\b)`;
const ONE_AGE = new RegExp(
  [
    // "my son, 10" as typed; never a count of things or of children ("my son 3 hoodies", "for my
    // son, 2 pairs", "1 boy 1 girl").
    // "her sister is 8", "his brother who's 11": a sibling said with an age too.
    // "my boy of 5", as many languages say it. "coat. boy. 10. under 40": typed tersely, clause by clause.
    String.raw`\b(?:son|daughter|boy|girl|grandson|granddaughter|nephew|niece)(?:s|${IS_SAID_S})? (?:[,.] )?(?:is |who is |whos |who's |of )?${NEARLY}(\d{1,2})\b(?! ?(?:dollars?|bucks|pounds?|euros?|quid|\$|${QUANTITY}|${ITEM}|${CHILDREN})(?![\w-]))${NOT_MONTHS}${NOT_COUNT_OR_SHOE}`,
    String.raw`\b(?:my|his|her|their|our|the) (?:little |big |older |younger |baby |twin )?(?:brother|sister|cousin|twin)s? (?:, )?(?:is |who is |whos |who's )(\d{1,2})\b(?! ?(?:dollars?|bucks|pounds?|euros?|quid|\$|${QUANTITY}|${ITEM}|${CHILDREN})(?![\w-]))${NOT_MONTHS}`,
    // "for my teen, 15", "coats for my twins, 4" (twins are one age); never money ("for my teen,
    // 15 max", "coats for my twins, 10 each").
    String.raw`\b(?:my|our|his|her|their|the) (?:kid|child|toddler|grandkid|grandchild|teen|teenager|twins) , (\d{1,2})\b(?! ?(?:dollars?|bucks|pounds?|euros?|quid|\$|${QUANTITY}|${ITEM}|each|ea|max|maximum|tops|budget|limit|apiece|per|or (?:less|under|below))(?![\w-]))${NOT_MONTHS}`,
    String.raw`\b(?:${CHILDREN_ARE}) (?:are|r) (\d{1,2})\b${NOT_MONTHS_MANY}`,
    // "kids 8" is a size: a child, toddler or baby is an age only when said so ("my kid is 7").
    // "my eldest who is 14", "the youngest is 5": a child named by birth order is one too.
    // "the little one is 2": "one" reaches here as "1" ("the little 1 is 2"); never a shoe size
    // ("the middle one is 12 in shoes", "the youngest is 7 and a half in shoes").
    String.raw`\b(?:kid|child|toddler|baby|grandkid|grandchild|eldest|oldest|youngest|(?:middle|little) (?:one|1)|little un|little man) (?:is|who is|whos|who's) (\d{1,2})\b(?! ?(?:dollars?|bucks|pounds?|euros?|quid|\$|${QUANTITY})(?![\w-]))${NOT_MONTHS}${NOT_COUNT_OR_SHOE}`,
    String.raw`\b(\d{1,2})[ -]?${YEARS_OLD}`,
    String.raw`\bage(?:d|s)? (\d{1,2})\b${NOT_MONTHS}`,
    String.raw`\b(?:she|he|they|shes|hes|she's|he's|theyre|they're) (?:is |are )?(?:actually |just |only |now |really )?(?:turning |turned |(?<!\bthey(?:'?re| are) )${ABOUT}|(?<=\bthey(?:'?re| are) )${ABOUT}${THEY_CHILD_AGE})?(\d{1,2})\b(?! ?(?:dollars?|bucks|pounds?|euros?|quid|\$|${QUANTITY})(?![\w-]))${NOT_MONTHS}(?:(?<!\bthey(?:'?re| are) (?:[a-z]+ ){0,2}\d{1,2})|${NOT_MONTHS_MANY})`,
    String.raw`\bturn(?:ing|ed|s)? (\d{1,2})\b${NOT_MONTHS}`,
    // "dungarees, 3 years": a kids' size as shops label it, right after the item.
    String.raw`(?<![\w-])(?:${ITEM}) (?:, )?(?:age |size )?(\d{1,2}) ?(?:years?|yrs?)\b(?![ -]?olds?\b)(?! (?:warranty|guarantee|ago|later|from now|of)\b)`,
    // "my granddaughter will be six in march", "she'll be 7", "she's going to be nine", "he's gonna
    // turn 5": the age the gift is for.
    String.raw`\b(?:son|daughter|boy|girl|grandson|granddaughter|nephew|niece|kid|child|toddler|grandkid|grandchild|she|he|they|shes|hes|theyre|who)(?:'ll| will|(?:'s| is|'re| are)? (?:going to|gonna)) (?:be|turn) (\d{1,2})\b${NOT_MONTHS}(?! ?(?:minutes?|mins?|hours?|hrs?|days?|seconds?|secs?|o'?clock|am|pm|%|percent)\b)`,
  ].join('|'),
);
/** Every age said one by one: "my 8 year old son and my 5 year old daughter" are two children. */
/**
 * After an age, another child's said with "and" and no verb: "my eldest is 12 and youngest 6",
 * "pyjamas for my son 6 and his sister 4", "my daughter is 7 and her friend is 8".
 */
const AND_ANOTHER = String.raw`\b(?:and|&) (?:(?:my|his|her|their|our|the) )?(?:little |big |older |younger |baby |twin |best )?(?:brother|sister|cousin|friend|son|daughter|boy|girl|nephew|niece|grandson|granddaughter|youngest|eldest|oldest|middle (?:one|1)|little (?:one|1)) (?:is |who is |'s )?(\d{1,2})\b(?! ?(?:dollars?|bucks|pounds?|euros?|quid|\$|${QUANTITY}|${ITEM}|${CHILDREN}|each|max|younger|older|bigger|smaller|taller|shorter)(?![\w-]))(?! ?(?:years?|yrs?)\b(?! ?-?old))${NOT_MONTHS}${NOT_COUNT_OR_SHOE}`;
const EACH_AGE = new RegExp(`${ONE_AGE.source}|${AND_ANOTHER}`, 'g');
// Not the end of a range or list ("lasts 5-6 years"): those are read whole below.
const ONE_AGE_BARE = new RegExp(
  String.raw`${NOT_DURATION}(?<!\d\s?(?:-|–|to|through|thru|and|or|&|,)\s?)\b(\d{1,2})[ -]?${BARE_YEARS}`,
);

const N = String.raw`\d{1,2}`;
/**
 * "3-5", "3 to 5", "4 through 7", "7/8" (as labels write a pair; never "3/4 length", "3/4 sleeves"):
 * groups from, to.
 */
const RANGE = String.raw`(${N})\s?(?:-|–|\/(?!\s?\d{1,2}\s?(?:length|sleeves?|sleeved|zip)\b)|to|through|thru)\s?(${N})`;
/** "4 and 6", "6 , 8 and 10": group list. */
const LIST = (joins: string) => String.raw`(${N}(?:\s?(?:${joins})\s?${N})+)`;
/** "4 years and 6 years": each age with its unit (so never a duration's "in 2 years"). */
const EACH_YEARS = String.raw`(${N}[ -]?(?:years?|yrs?)(?:\s?(?:,|and|&|or)\s?${N}[ -]?(?:years?|yrs?))+)\b(?! (?:warranty|guarantee|ago|later|from now|of)\b)`;
const AGES_SAID = new RegExp(
  String.raw`\b(?:ages?|aged|(?:${CHILDREN_ARE}|they) (?:are|r)|they'?re|theyre)\s(?:${RANGE}|${LIST(',|and|&|or')})\b(?! ?(?:${MEASURE})\b)`,
);
/**
 * "pyjamas for my son 7-8", "a coat for my daughter 9-10": a child said with a kids' label's pair
 * of ages (a year or two apart), never money or a count ("my daughter 20-30 pounds").
 */
const PERSON_RANGE = new RegExp(
  String.raw`\b(?:son|daughter|boy|girl|grandson|granddaughter|nephew|niece|kid|child|toddler)s? (?:, )?(?:is |who is |whos |who's )?${RANGE}\b(?! ?(?:dollars?|bucks|pounds?|euros?|quid|\$|£|€|${QUANTITY}|${ITEM}|${CHILDREN}|months?|mos?|mths?|weeks?|wks?)(?![\w-]))(?![.,]\d)`,
);
const AGES_YEARS_OLD = new RegExp(String.raw`\b(?:${RANGE}|${LIST(',|and|&|or')})[ -]?${YEARS_OLD}`);
/**
 * "a dress 2-3 years", "leggings, 4 and 5 years": kids' sizes as shops label them, after the item;
 * or a label's range right before it ("3-4 years dungarees", "5 to 6 years pyjamas").
 */
const ITEM_AGES = new RegExp(
  String.raw`(?:(?<![\w-])(?:${ITEM}) (?:, )?(?:age |size )?|${NOT_DURATION}\b(?=${N}\s?(?:-|–|to)\s?${N}[ -]?(?:years?|yrs?) (?:(?!(?:a|an|the|some|new|my|his|her)\b)[a-z]+ )?(?:${ITEM})(?![\w-])))(?:${RANGE}|${LIST(',|and|&|or')})[ -]?${BARE_YEARS}(?! (?:warranty|guarantee|ago|later|from now|of)\b)`,
);
/**
 * "pjs for the boys 5 and 8", "coats for my three kids: 4, 6 and 9", "hoodies for both, 8 and 10",
 * "coats for my two, 5 and 9": children said with a list of their ages, never money or a count
 * ("the kids 2 and 3 pairs", "for both, 20 and 30 quid", "coats for both, 2 and 3 day delivery"); nor
 * shoes' sizes after "for both" ("school shoes for both, 12 and 13": children's shoe sizes), nor
 * grown-ups' sizes ("dresses for me and my mum, for both, 12 and 14").
 */
const SHOE_ITEM = KINDS.filter((k) => k.category === 'SHOES')
  .flatMap((k) => k.words)
  .sort((a, b) => b.length - a.length)
  .map(escapeRe)
  .join('|');
const CHILDREN_LIST = new RegExp(
  String.raw`\b(?:(?<=(?<!\b(?:${SHOE_ITEM}) )\bfor )(?<!\b(?:me|myself|mum|mom|mother|dad|father|wife|husband|partner|grandma|grandad|nan|granny)\b.*)(?:both|(?:my|our|the) (?:2|3|two|three))(?: of them)?|sons|daughters|boys|girls|kids|children|twins|grand(?:son|daughter|kid|child)s|grandchildren|nephews|nieces) (?:, )?${LIST(',|and|&')}\b(?! ?(?:dollars?|bucks|pounds?|euros?|quid|\$|£|€|${QUANTITY}|${ITEM}|${CHILDREN}|months?|mos?|mths?|weeks?|wks?|days?|hours?|hrs?|nights?|inch(?:es)?|in|cm|")(?![\w-]))(?![.,]\d)`,
);
const CHILDREN_LIST_START = new RegExp(`^ ?${CHILDREN_LIST.source}`);
/** Whether the text starts with children and their ages ("kids 4 , 6 and 9"): ages, not one kids' size. */
export const startsChildrenList = (text: string) => CHILDREN_LIST_START.test(text);
const AGES_BARE = new RegExp(
  String.raw`${NOT_DURATION}\b(?:${RANGE}|${LIST(',|and|&|or')})[ -]?${BARE_YEARS}|\b${EACH_YEARS}`,
);

/**
 * The last number of a list that is how many, not an age: "aged 10, 2 hoodies", "ages 7 and 9,
 * 2 pairs", "ages 4 and 6 and 2 of them". After "and" an item word still ends the list
 * ("ages 4, 6 and 8 hoodies" are three ages), after a comma it starts a count.
 */
const COUNT_AFTER_COMMA = /\s?,\s?\d{1,2}$/;
const COUNT_AFTER_AND = /\s?(?:and|&)\s?\d{1,2}$/;
/**
 * A word that describes no item: a unit of age, a verb or a little word of the sentence ("my kids
 * are 4 and 2 need coats", "kids aged 8, 2 need new shoes", "7 and 3 both need coats": the figure
 * is an age), never "white", "grey", "polo" or "long".
 */
const NOT_DESCRIBING = String.raw`(?!(?:years?|yrs?|yo|olds?|and|or|for|months?|weeks?|need|needs|needed|needing|want|wants|wanted|both|all|also|each|will|would|should|could|can|must|may|might|do|does|did|to|get|gets|getting|got|have|has|had|love|loves|like|likes|wear|wears|wearing|are|is|am|were|was|be|still|just|only|go|goes|going|start|starts|starting|in|at|on|with|who|that|so|the|my|our|their|his|her|a|an|some|please|of|off)\b)`;
// "aged 8, 3 white polo shirts": a word or two describing the item may come between.
const COUNTED_ANY = new RegExp(
  String.raw`^ ?(?:${NOT_DESCRIBING}[a-z'-]+ ){0,2}(?:${QUANTITY}|${ITEM})(?![\w-])`,
);
const COUNTED_QUANTITY = new RegExp(String.raw`^ ?(?:${QUANTITY})(?![\w-])`);
/** "age 6 and 2 grey skirts": after "and", a figure with a word describing the item is how many. */
const COUNTED_DESCRIBED = new RegExp(String.raw`^ ?(?:${NOT_DESCRIBING}[a-z'-]+ ){1,2}(?:${ITEM})(?![\w-])`);

function withoutCount(list: string, after: string): string {
  if (COUNT_AFTER_COMMA.test(list) && COUNTED_ANY.test(after)) return list.replace(COUNT_AFTER_COMMA, '');
  if (COUNT_AFTER_AND.test(list) && (COUNTED_QUANTITY.test(after) || COUNTED_DESCRIBED.test(after)))
    return list.replace(COUNT_AFTER_AND, '');
  return list;
}

const firstNumber = (m: RegExpMatchArray | null) =>
  m ? Number(m.slice(1).find((g) => g !== undefined && g !== '')) : undefined;

/**
 * The ages a list or range names ([] for a range too wide to be sizes: "ages 2-14") and where
 * it was said.
 */
function listedAges(text: string, person: boolean): { ages: number[]; at: number; end: number } | undefined {
  const pair = text.match(PERSON_RANGE);
  const kids = text.match(CHILDREN_LIST);
  const m =
    text.match(AGES_SAID) ??
    (pair && Math.abs(Number(pair[2]) - Number(pair[1])) <= 2 ? pair : null) ??
    text.match(AGES_YEARS_OLD) ??
    kids ??
    (person ? text.match(AGES_BARE) : null) ??
    text.match(ITEM_AGES);
  if (!m) return undefined;
  // The children's list has no range: its one group is the list.
  const [, from, to, list, each] = m === kids ? [m[0], undefined, undefined, m[1], undefined] : m;
  const at = m.index!;
  const end = at + m[0].length;
  if (list || each) {
    const said = list ? withoutCount(list, text.slice(at + m[0].indexOf(list) + list.length)) : each!;
    return { ages: [...new Set(said.match(/\d{1,2}/g)!.map(Number))], at, end };
  }
  const [lo, hi] = [Number(from), Number(to)].sort((a, b) => a - b) as [number, number];
  if (hi - lo + 1 > MAX_KIDS_SIZES) return { ages: [], at, end };
  return { ages: Array.from({ length: hi - lo + 1 }, (_, i) => lo + i), at, end };
}

/** "first" … "twelfth", as grades are said. */
const ORDINALS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
];
const GRADE = new RegExp(
  String.raw`\b(?:(\d{1,2})(?:st|nd|rd|th)|(${ORDINALS.join('|')})) grade(?:rs?)?\b|\bgrade (\d{1,2})\b(?! (?:at|in)\b)`,
  'g',
);
/** "year 7" (England and Wales), not "year 7 of …" nor "7 year olds". */
const SCHOOL_YEAR = /\byear (\d{1,2})\b(?! ?(?:olds?|of)\b)/g;

/**
 * A school year said instead of an age, as the age a child starts it at: UK "year 7" is 11
 * (year 1 starts at 5), US "6th grade" / "grade 6" is 11 (1st grade starts at 6),
 * "kindergarten" 5 and "reception" 4.
 */
function schoolAges(text: string): string {
  if (!/\b(?:year|grade|graders?|kindergarten|reception)\b/.test(text)) return text;
  return text
    .replace(SCHOOL_YEAR, (m, n: string) => (Number(n) >= 1 && Number(n) <= 13 ? `aged ${Number(n) + 4}` : m))
    .replace(GRADE, (m, n?: string, word?: string, after?: string) => {
      const grade = (n ?? after) ? Number(n ?? after) : ORDINALS.indexOf(word!) + 1;
      return grade >= 1 && grade <= 12 ? `aged ${grade + 5}` : m;
    })
    .replace(/\b(?:in |for )?kindergarten\b/g, 'aged 5')
    .replace(/\b(?:in |for )reception\b/g, 'aged 4');
}

/** "grey trousers for school, 9-10 yrs": a range of years starting a clause, an item said. */
const CLAUSE_YEARS = new RegExp(
  String.raw`(?:^| , )(?:age |size )?${RANGE} ?(?:years?|yrs?)\b(?![ -]?olds?\b)`,
);
const AN_ITEM = new RegExp(String.raw`(?<![\w-])(?:${ITEM})(?![\w-])`);
/**
 * "14 yrs", "9 years please": a message that is an age in years and nothing else answers how old the
 * child is (a duration is said with what lasts: "lasts 2 years").
 */
const ONLY_YEARS =
  /^ ?(?:age |aged )?\d{1,2} ?(?:years?|yrs?|y)(?: (?:please|pls|plz|thanks|thx|x+))? ?[.!]* ?$/;
/** A word between an item and its years that says what was done, no colour or kind: "a coat that'll do 3 years". */
const NOT_ADJECTIVE =
  'guaranteed|guarantee|warranty|do|does|did|done|doing|wait|waited|waiting|had|have|has|having|bought|buy|last|lasts|lasted|lasting|owned|own|worn|wore|wear|used|use|kept|keep|took|take|takes|been|be|is|was|were|are|will|would|could|should|for|in|within|over|after|before|every|since|about|around|than|from|till|until|by|with|of|our|my|his|her|their|the|a|an|it|them|ago|back|need|needs|fits?|still';
/** A noun after the years that makes them a span of time: "10 years anniversary", "5 years together". */
const YEARS_NOUN =
  'anniversary|together|service|warranty|guarantee|guaranteed|ago|later|from now|of|back|since|running|married|experience|in a row|now|before|after|until|till|longer|more|or more|at least|wear|use|old';
/**
 * "hoodie grey 13yrs", "a coat, 6 years", "a coat for 40 pounds 12 years": a kids' size in bare
 * years right after the item (a colour or other word describing it, or its price, between); never
 * a span of time ("a dress for our 10 years anniversary", "a coat guaranteed 5 years").
 */
const ITEM_YEARS = new RegExp(
  String.raw`(?<![\w-])(?:${ITEM}) (?:, )?(?:(?!(?:${NOT_ADJECTIVE})\b)[a-z]+ (?:, )?|(?:for |under |max |at )?[£$€]?\d{1,4}(?:\.\d{1,2})? ?(?:pounds?|quid|dollars?|euros?|bucks)? (?:, )?)?(?:age |size )?(\d{1,2}) ?(?:years?|yrs?)\b(?![ -]?olds?\b)(?! (?:${YEARS_NOUN})\b)`,
);

/** "ages 5 7 and 9", "aged 4 6": ages listed as they are dictated, with no comma between. */
const SPACED_AGES = /\b(ages|aged) (\d{1,2}(?: \d{1,2})+)\b/g;

export function readAges(message: string): { age?: number; ages: number[] } {
  const text = schoolAges(message).replace(
    SPACED_AGES,
    (_, word: string, list: string) => `${word} ${list.split(' ').join(' , ')}`,
  );
  // A clause of years after an item is the kids' size of whoever wears it.
  // "hoodie grey 13yrs", "a coat, 6 years": a kids' size in years, an item said.
  // Only right after the item: "a dress for our 10 years anniversary" is no one's age.
  const someone =
    PERSON.test(text) || (CLAUSE_YEARS.test(text) && AN_ITEM.test(text)) || ONLY_YEARS.test(text);
  const itemYears = someone ? null : text.match(ITEM_YEARS);
  const person = someone || itemYears !== null;
  const said = text.match(ONE_AGE);
  const bare = someone ? text.match(ONE_AGE_BARE) : itemYears;
  // The first age said, as one pattern would find it.
  const first = said && bare ? (bare.index! < said.index! ? bare : said) : (said ?? bare);
  const listed = listedAges(text, person);
  // An age said inside a range too wide for sizes is no one's age ("kids aged 2 to 14").
  const tooWide =
    listed?.ages.length === 0 && first && first.index! >= listed.at && first.index! < listed.end;
  const age = tooWide ? undefined : firstNumber(first);
  if (listed?.ages.length === 0) return { ...(age !== undefined ? { age } : {}), ages: [] };
  // Each further person's age too, each a size of its own ("for my son, 8, and my daughter, 5").
  const others = age === undefined ? [] : [...text.matchAll(EACH_AGE)].map((m) => firstNumber(m)!);
  const ages = [...new Set([...(listed?.ages ?? []), ...(age !== undefined ? [age] : []), ...others])];
  return { ...(age !== undefined ? { age } : {}), ages: ages.slice(0, MAX_KIDS_SIZES) };
}
