/**
 * Children's ages in a normalised message: the one age the brief keeps as `forAge` ("my 6 year
 * old", "my son is 7", "age 5") and every age a kids' size is wanted for ("ages 4 and 6", "ages
 * 3-5", "my 3 and 7 year olds").
 */

/** At most this many kids' sizes come from one message: each is searched on its own. */
export const MAX_KIDS_SIZES = 6;

/** Someone an age can belong to. Without one, "2 years" is a duration ("2 years warranty"). */
const PERSON =
  /\b(?:kids?|child(?:ren)?|sons?|daughters?|boys?|girls?|toddlers?|bab(?:y|ies)|grand(?:son|daughter|kid|child)s?|grandchildren|nephews?|nieces?|twins|teens?|teenagers?|he|she|hes|shes|he's|she's)\b/;
/** "6 year old", "6yo", "6 y/o": an age wherever it is said. */
const YEARS_OLD = String.raw`(?:(?:years?|yrs?)[ -]?olds?|yo|y\/o)\b`;
/** "6 years": an age only for someone, and never a duration ("lasts 2 years", "2 years warranty"). */
const BARE_YEARS = String.raw`(?:years?|yrs?)\b(?![ -]?olds?\b)(?! (?:warranty|guarantee|ago|later|from now|of)\b)`;
const NOT_DURATION = String.raw`(?<!\b(?:last|lasts|lasting|lasted|within|in|for|over|after|every)\s)`;

const ONE_AGE = new RegExp(
  [
    String.raw`\b(?:son|daughter|boy|girl|grandson|granddaughter|nephew|niece)s? (?:is |who is |whos |who's )?(\d{1,2})\b(?! ?(?:dollars?|bucks|pounds?|euros?|quid|\$|pairs?))`,
    String.raw`\b(\d{1,2})[ -]?${YEARS_OLD}`,
    String.raw`\bage(?:d|s)? (\d{1,2})\b`,
    String.raw`\b(?:she|he|they|shes|hes|she's|he's|theyre|they're) (?:is |are |just |only )?(?:turning |turned )?(\d{1,2})\b`,
    String.raw`\bturn(?:ing|ed|s)? (\d{1,2})\b`,
  ].join('|'),
);
// Not the end of a range or list ("lasts 5-6 years"): those are read whole below.
const ONE_AGE_BARE = new RegExp(
  String.raw`${NOT_DURATION}(?<!\d\s?(?:-|–|to|through|thru|and|or|&|,)\s?)\b(\d{1,2})[ -]?${BARE_YEARS}`,
);

const N = String.raw`\d{1,2}`;
/** "3-5", "3 to 5", "4 through 7": groups from, to. */
const RANGE = String.raw`(${N})\s?(?:-|–|to|through|thru)\s?(${N})`;
/** "4 and 6", "6 , 8 and 10": group list. */
const LIST = (joins: string) => String.raw`(${N}(?:\s?(?:${joins})\s?${N})+)`;
const AGES_SAID = new RegExp(String.raw`\b(?:ages|aged)\s(?:${RANGE}|${LIST(',|and|&|or')})\b`);
const AGES_YEARS_OLD = new RegExp(String.raw`\b(?:${RANGE}|${LIST(',|and|&')})[ -]?${YEARS_OLD}`);
const AGES_BARE = new RegExp(String.raw`${NOT_DURATION}\b(?:${RANGE}|${LIST(',|and|&')})[ -]?${BARE_YEARS}`);

const firstNumber = (m: RegExpMatchArray | null) =>
  m ? Number(m.slice(1).find((g) => g !== undefined)) : undefined;

/** The ages a list or range names; [] for a range too wide to be sizes ("ages 2-14"). */
function listedAges(text: string, person: boolean): number[] | undefined {
  const m = text.match(AGES_SAID) ?? text.match(AGES_YEARS_OLD) ?? (person ? text.match(AGES_BARE) : null);
  if (!m) return undefined;
  const [, from, to, list] = m;
  if (list) return [...new Set(list.match(/\d{1,2}/g)!.map(Number))];
  const [lo, hi] = [Number(from), Number(to)].sort((a, b) => a - b) as [number, number];
  if (hi - lo + 1 > MAX_KIDS_SIZES) return [];
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

export function readAges(text: string): { age?: number; ages: number[] } {
  const person = PERSON.test(text);
  const said = text.match(ONE_AGE);
  const bare = person ? text.match(ONE_AGE_BARE) : null;
  // The first age said, as one pattern would find it.
  const first = said && bare ? (bare.index! < said.index! ? bare : said) : (said ?? bare);
  const age = firstNumber(first);
  const listed = listedAges(text, person);
  if (listed?.length === 0) return { ...(age !== undefined ? { age } : {}), ages: [] };
  const ages = [...new Set([...(listed ?? []), ...(age !== undefined ? [age] : [])])];
  return { ...(age !== undefined ? { age } : {}), ages: ages.slice(0, MAX_KIDS_SIZES) };
}
