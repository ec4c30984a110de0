import { CURRENCY } from '../currencies.ts';
import { ENGLISH_WORDS } from './english-words.ts';
import { spellNumbers } from './numbers.ts';
import { BRANDS, COLORS, KINDS, READ_AS_WRITTEN } from './vocabulary.ts';

/**
 * Text as families type and dictate it, made readable: lowercase, fillers ("um", "like") out,
 * numbers in digits, "40ish" as "around 40", and common misspellings of the words the stylist
 * knows corrected ("jaket", "sneakres", "trowsers").
 */
const FILLERS =
  /\b(?:um+|uh+m*|erm+|er|hmm+|ah+|okay so|ok so|so like|you know|kinda|sorta|basically|literally)\b/g;
// "i mean" is a filler too, but it also marks a correction ("size ten i mean eleven"): it goes
// after the corrections are read.
const I_MEAN = /\bi mean\b/g;
// "like" is a filler unless someone likes something ("i like", "would like", "i'd like").
const LIKE_FILLER =
  /(?<!\b(?:i|i'd|id|would|we|we'd|you|they|he|she|don't|dont|doesn't|doesnt|didn't|didnt|not|never|really|also|also really))\s+like\b(?!\s+(?:it|this|that|these|those|them)\b)/g;

/** Words worth correcting to: the stylist's vocabulary (single words of four letters or more). */
// Only whole vocabulary words are targets: a part of a phrase ("forest" of "forest green", "sling"
// of "sling bag") would turn everyday words ("forget", "skiing") into something else.
const TARGETS = [
  ...new Set(
    [
      ...KINDS.flatMap((k) => k.words),
      ...COLORS.map(([w]) => w),
      ...BRANDS,
      'under',
      'below',
      'around',
      'about',
      'between',
      'cheaper',
      'cheap',
      'budget',
      'size',
      'medium',
      'large',
      'small',
      'summer',
      'winter',
      'spring',
      'autumn',
      'beach',
      'wedding',
      'party',
      'school',
      'interview',
      'graduation',
      'christmas',
      'birthday',
      'dollars',
      'euros',
      'pounds',
      'instead',
      'actually',
      'something',
      'skiing',
      'hiking',
      'running',
      'camping',
      'vacation',
      'holiday',
      'funeral',
      'office',
      'casual',
      'formal',
      'weather',
      'freezing',
      'forget',
      'without',
      'except',
      'anything',
      'nothing',
      'daughter',
      'toddler',
    ].filter((w) => w.length >= 4 && /^[a-z]+$/.test(w) && !READ_AS_WRITTEN.has(w)),
  ),
];

/** Common words one letter away from a vocabulary word: never "corrected". */
const KEEP = new Set(
  `back what that this with them then than pick good cold told bold gold hold went want wear near sure boat
  mine nice need said sale same some soon tall tell they thin thing think those time tiny true very warm what
  when will wish work year your yours also away baby best blow both bump cute dare dark done door fine fits
  fit game gave gift give glad hear help here hers high hike home hope hour huge just kind know last lead
  less like live long look lots love made make many mean meet mess miss more most move much must name
  next only open over pair paid part past plan play plus pool pull push rain read real rest ride ring room
  safe save seen sell send shop show side sign slim slip snow soft sold sort stay step stop such suit
  take talk team than tidy tier tops tour town trip type unit used user wait walk wall warm wash week
  well were west wide wife wild wind wine wise wood word wore yard yeah yell fall fell hall ball bill
  sand sandy tank tanks shade shades start stuff style styles fancy match fun heat hot cool cost costs
  short shorts sweet sweat sweats shirt shirts skirt skirts dress dresses boot boots coat coats code
  cart card hard pink pint black brown clear cheer brand bland plain plane place price prize print
  crew cross grey gray great green greet red read bread trend tend blue glue clue true blues light
  night right might sight tight tights white while whale wait waist waste paste pants parts party
  parks park mark dark darker nothing weather leather feather heather whether together another brother
  mother father sister daughter teacher weekend holiday write wrote written poem cats coast boast
  toast shape share store stores score class glass grass brass cheers sheet shoot short sport spot
  sports coats colour color colours colors matter matters better letter sweet tweet bright brighter
  trained training trainer dresser dressed dressy blues sized sizes sizing priced prices pricey
  though through thought enough again against along among around about above below cover lover
  could would should shoulder older order orders boarder border winner dinner summit sunset
  thanks thank thx cheers hello hey hiya howdy okay sorry please pls plz yes yep nope maybe sure great
  cool nice lovely perfect awesome amazing fine better worse worst cute pretty ugly
  there their where here these those other others everything someone anyone everyone
  people person family friend friends child children kids baby babies sons daughters boys girls
  teen teens teenager husband wife partner mom mum dad grandma grandpa cousin cousins aunt uncle
  niece nephew twins wants wanted needs needed likes liked loves loved hates looking looks find
  finds found show shows showed helps gets give gives buys bought wears wearing worn fitting fitted
  suits matches goes going comes coming came makes takes took keeps kept tries tried thinks knows
  knew tells says asks asked picks picked choose chose house weekend month years today tomorrow
  tonight morning evening every each many least little bigger smaller wider thick comfy cozy
  cosy comfortable smart neat simple fancy dressy sporty classic modern vintage stylish trendy
  basic waterproof raining rainy windy snowy really quite still even ever never always often
  already within under after before between during until since because although which whom
  whose into onto upon behind beside inside outside would could should might must shall cant
  wont dont doesnt didnt isnt arent wasnt have having been being were they them theirs ours
  colors colours cost money cash dollar brands outfit outfits clothes clothing wardrobe closet
  orders checkout approve approved request requests sale sales deal deals math homework news
  games movie movies music song songs joke jokes story recipe recipes dinner lunch breakfast
  food cook cooking cars phone computer internet
  shes theyre youre thats whats heres theres
  para pero como pour avec mein meine
  tone tones shower showers hood hoods toes shots scary trees plants paints trains shore poles
  stock stocks stand stands stage smell shift shifts shock seize suite scare block blocks blank blown
  bush brush bench booth coal pure tape flock forge gravy greed peace perch plumb plump grown larger
  fleecy shorter tighter cargo parents shopper skating sailing slipped tracker trainee whistle winners
  chequer formula jackpot skaters slimmer spirits stopper sleeper
  shin shins strong captain captains
  `
    .split(/\s+/)
    .filter(Boolean),
);

function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  return d[a.length]![b.length]!;
}

const targetSet = new Set(TARGETS);

const sharedStart = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
};

/** The vocabulary word a misspelling most likely meant, or the word itself. */
export function correct(word: string): string {
  if (
    word.length < 4 ||
    targetSet.has(word) ||
    KEEP.has(word) ||
    ENGLISH_WORDS.has(word) ||
    !/^[a-z]+$/.test(word)
  )
    return word;
  // Two edits only from seven letters ("sandles"): at six they turn everyday words into
  // vocabulary ("skinny" → skiing, "floral" → formal, "sunday" → sandal, "longer" → loafer).
  const max = word.length >= 7 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const t of TARGETS) {
    // Typos rarely hit the first letter; requiring it keeps "nothing" from becoming "bathing".
    if (t[0] !== word[0]) continue;
    // A four-letter word is only corrected by adding a letter or swapping two ("blak", "bleu").
    if (word.length === 4 && t.length === 4 && [...t].sort().join('') !== [...word].sort().join('')) continue;
    const dist = editDistance(word, t, max);
    // Between two as near, the one that starts the same for longer ("snickers" is sneakers, not slicker).
    const nearer =
      best !== undefined && dist === bestDistance && sharedStart(t, word) > sharedStart(best, word);
    if (dist < bestDistance || nearer) {
      best = t;
      bestDistance = dist;
    }
  }
  return best ?? word;
}

const CURRENCY_MARK = String.raw`(?:€|£|\$|eur\b|euros?\b|chf\b|sek\b|nok\b|dkk\b|pln\b|kr\b|zł)`;
const DECIMAL_COMMA_BEFORE_CURRENCY = new RegExp(String.raw`(\d),(\d{2})(?!\d)(?=\s?${CURRENCY_MARK})`, 'g');
const DECIMAL_COMMA_AFTER_CURRENCY = /((?:€|£|\$|\beur|\bchf)\s?\d+),(\d{2})(?!\d)/g;

/** "size 38,5": a half size with a decimal comma (both readers, the brief's and the mission's). */
const HALF_SIZE_COMMA = /\b(size|sz|eu|uk|us)\s?(\d{1,2}),5(?!\d)/g;

/** Clothes sent as emoji ("👗 for my gal", "need 👟 size 5"): the word each stands for. */
const EMOJI_WORDS: Array<[string, string]> = [
  ['👗', 'dress'],
  ['👚', 'top'],
  ['👕', 't-shirt'],
  ['👔', 'shirt'],
  ['👖', 'jeans'],
  ['🩳', 'shorts'],
  ['🧥', 'coat'],
  ['👟', 'sneakers'],
  ['👞', 'shoes'],
  ['👠', 'heels'],
  ['👡', 'sandals'],
  ['🩴', 'flip flops'],
  ['👢', 'boots'],
  ['🧣', 'scarf'],
  ['🧤', 'gloves'],
  ['🧢', 'cap'],
  ['👒', 'hat'],
  ['🎩', 'hat'],
  ['👙', 'bikini'],
  ['🩱', 'swimsuit'],
  ['🧦', 'socks'],
  ['👜', 'handbag'],
  ['🎒', 'backpack'],
  ['🕶', 'sunglasses'],
  ['🥻', 'saree'],
];
const EMOJI = new RegExp(EMOJI_WORDS.map(([e]) => e).join('|'), 'gu');
const EMOJI_WORD = new Map(EMOJI_WORDS);
/** Most messages carry no emoji: one cheap test before the replacement. */
const ANY_EMOJI = /[\u{1F000}-\u{1FAFF}]/u;

/** "navy-ish", "greenish", "reddish": the colour, as near as a shopper can say it. */
const COLOUR_ISH = new RegExp(
  String.raw`\b(${COLORS.map(([w]) => w)
    .filter((w) => /^[a-z]+$/.test(w))
    .join('|')})(?:-| )?ish\b|\b(redd|blu)ish\b`,
  'g',
);

/**
 * A black tie one buys: counted or owned, as the phrase ends ("need a black tie", "his black tie for
 * the funeral"). After a word of going or attending ("going to a black tie", "a gown for a black tie
 * in december", "at a black tie") the article names the event: the dress code.
 */
const BLACK_NECKTIE =
  /\b((?<!\b(?:to|for|at|attend|attending|attended|host|hosting|throwing|organising|organizing) )(?:a|an|one)|his|my|your|her|their|plain|skinny|silk|thin) black tie(?=$| (?:[.,]|(?:and|or|for|to|with|please|in|size|under)\b|\d))/g;

/**
 * "a dark coat", "something dark", "dark ones": dark said without a colour is the dark colours
 * (vocabulary.ts COLOR_FAMILIES). "dark green" is green and "dark wash jeans" a finish.
 */
const DARK_ALONE = new RegExp(
  String.raw`\bdark(?= (?:(?:coloured|colored) )?(?:${KINDS.flatMap((k) => k.words)
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join(
      '|',
    )}|ones?)(?![\w-]))|(?:^|(?<=\b(?:something|anything|in|preferably|prefer|go|ideally|maybe|more|all|colou?rs?) ))dark(?= ?(?:$|[.,]|please|for|and|or|but|if|under|size)\b|$)`,
  'g',
);

/** "no cap", "fire no cap fr", "no cap , size 7": the slang tag, ending its phrase (not "no cap on the price"). */
const NO_CAP_SLANG =
  /\bno cap\b(?= ?(?:$|[.,]|fr|frfr|tho|though|bro|lol|fam|deadass|ngl|i|i'm|im|we|these|this|that|it|they|not|no|but|and|need|want)\b| ?[.,]| ?$)/g;

/** Characters with no width that a pasted word may carry: soft hyphen, zero-width space/joiners, word joiner, BOM. */
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;

/** "max. 45", "min. £20", "approx. 30": an abbreviated word for a bound, its full stop no break. */
const ABBREVIATED_BOUND = /\b(max|min|approx)\.(?= ?[£$€]?\d)/g;

/**
 * "trainers size 6 (39)", "boots uk 13 (32)": a size with its European size in brackets, a larger
 * figure a European size can be, as "size 6 (eu 39)" says it (the brackets are dropped below).
 */
const BRACKETED_EU = /\b(size|sz|uk|us) ?(\d{1,2}(?:\.5)?) ?\((\d{2}(?:\.5)?)\)/g;
const bracketedEu = (m: string, word: string, size: string, eu: string) =>
  Number(eu) >= 16 && Number(eu) <= 50 && Number(eu) > Number(size) ? `${word} ${size} (eu ${eu})` : m;
/**
 * "pyjamas for the twins (4)", "my boys (6 and 8)": children with their ages in brackets, as
 * "the twins aged 4" says it (a child's age in brackets after the child is read as said).
 */
const BRACKETED_AGES =
  /\b(twins|kids|children|boys|girls|sons|daughters|grandkids|grandchildren|nephews|nieces|little ones) ?\((\d{1,2}(?: ?(?:,|and|&) ?\d{1,2})*) ?(?:y|yo|yrs?|years?(?: old)?)?\)/g;
/** "boys' 8", "girls' 10": whom a kids' range is cut for, with its apostrophe, before the size. */
const RANGE_APOSTROPHE = /\b(boys|girls)'(?= (?:size )?\d)/g;

/**
 * "trainers 4 my son", "wellies 4 the kids", "a dress 4 a wedding": "4" texted for "for", before
 * whom or what it is for; never after a size, an age or a count word ("size 4 my son wears",
 * "she is 4 her brother is 6", "ages 2 and 4 the twins").
 */
// Nor after one who is 4 or wears a 4 ("she's 4 her brother is 6", "hes 4", "my daughter's 4",
// "he's nearly 4", "she wears 4 her sister a 5"), after "my" ("my 4 her sister"), nor as a time
// ("party at 4 the kids", "by 4 the latest").
const TEXTED_FOR =
  /(?<=[a-z] )(?<!'s |\b(?:size|sizes|sz|uk|us|eu|age|ages|aged|waist|leg|a|an|the|and|or|to|from|is|was|are|were|turned|turning|turns|be|been|being|in|kids|kid|boys|girls|junior|youth|toddler|infant|under|over|max|about|around|only|just|x|of|than|shes|hes|im|i'm|ur|youre|you're|theyre|they're|its|nearly|almost|roughly|approx|bout|abt|like|now|still|already|wears|wear|wearing|takes|take|fits|fit|my|his|her|our|their|your|yrs|yr|at|by|till|til|until|before|after|since|past) )4(?= (?:my|ur|your|his|her|our|their|the|me|him|them|us|u|a|an|lil|little|xmas|christmas|bday|birthday|school|work)\b)/g;

/**
 * "they're 4 my son", "theyre 4 the twins age 5": after "they're" (the things asked for, as often
 * as the children), "4" before whom they are for is "for", unless that one's own age follows as
 * another child's ("they're 4 my son is 6": twins of 4 and their brother).
 */
const THEYRE_FOR =
  /(?<=\b(?:theyre|they're) )4(?= (?:my|ur|your|his|her|our|their|the|me|him|them|us|u|a|an|lil|little|xmas|christmas|bday|birthday|school|work)\b)(?! [a-z]+ [a-z]+(?:'s| is| was| turned| turns) \d)/g;

export function normalize(message: string): string {
  let t = (ANY_EMOJI.test(message) ? message.replace(EMOJI, (e) => ` ${EMOJI_WORD.get(e)} `) : message)
    // Pasted text may carry an invisible character inside a word ("jum\u200bper", "trou\u00adsers"):
    // a soft hyphen, a zero-width space or joiner, a word joiner or a byte-order mark is no break.
    .replace(INVISIBLE, '')
    // No price, size or age runs past nine digits, so a longer run is read as nothing whatever its
    // length: cut to ten digits, a hostile 8 kB number no longer costs the patterns below
    // quadratic time (a third of a second per message, on the event loop).
    .replace(/\d{10,}/g, (run) => run.slice(0, 10))
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(BRACKETED_EU, bracketedEu)
    .replace(BRACKETED_AGES, '$1 aged $2')
    .replace(RANGE_APOSTROPHE, '$1')
    .replace(/[“”":()[\]{}*_~]/g, ' ')
    // A sentence or clause break ("need a dress! boots too", a new line) stays a break: the
    // same " . " token a full stop gives. At the end of the message it separates nothing.
    .replace(/[!?;\r\n][\s!?;]*(?=[^\s!?;])/g, ' . ')
    .replace(/[!?;]/g, ' ')
    .replace(/(\d),(\d{3})\b/g, '$1$2')
    // "49,99 €", "€12,50", "19,90 eur": a decimal comma beside a currency (a list of sizes,
    // "10,12", has none), as most of Europe writes prices.
    .replace(DECIMAL_COMMA_BEFORE_CURRENCY, '$1.$2')
    .replace(DECIMAL_COMMA_AFTER_CURRENCY, '$1.$2')
    .replace(HALF_SIZE_COMMA, '$1 $2.5')
    .replace(/,/g, ' , ')
    .replace(ABBREVIATED_BOUND, '$1 ')
    .replace(/(?<!\d)\.(?!\d)/g, ' . ')
    .replace(/\s+/g, ' ')
    .trim();
  t = soundsLike(t);
  if (t.includes(' 4 ')) t = t.replace(TEXTED_FOR, 'for').replace(THEYRE_FOR, 'for');
  if (t.includes('no ')) t = t.replace(NO_COMPOUND, 'no-');
  t = ` ${t} `.replace(FILLERS, ' ').replace(LIKE_FILLER, ' ').replace(/\s+/g, ' ').trim();
  // "no cap" closing a phrase is slang for "no lie": no budget dropped and no cap said no to.
  if (t.includes('no cap')) t = t.replace(NO_CAP_SLANG, ' ').replace(/\s+/g, ' ').trim();
  t = spellNumbers(t);
  // Most messages have no "-ish": the colour pattern runs only when one is there.
  if (t.includes('ish'))
    t = t.replace(
      COLOUR_ISH,
      (_, colour: string | undefined, root: string | undefined) =>
        colour ?? (root === 'redd' ? 'red' : 'blue'),
    );
  t = selfCorrected(t).replace(I_MEAN, ' ').replace(/\s+/g, ' ').trim();
  t = t
    .split(' ')
    .map((w) => correct(w))
    .join(' ');
  // "40ish", "40-ish", "40 ish" → "around 40"
  t = t.replace(/(\$|£|€)?(\d+(?:\.\d+)?)\s?-?\s?ish\b/g, 'around $1$2');
  // "a black tie and black shoes", "his black tie for the funeral": a tie, counted or owned, as the
  // phrase ends; "black tie" alone, "a black tie do", "a black tie outfit" and "going to a black
  // tie" are the dress code.
  if (t.includes('black tie')) t = t.replace(BLACK_NECKTIE, '$1 black necktie');
  if (t.includes('dark')) t = t.replace(DARK_ALONE, 'dark colours');
  if (t.includes('fancy dress')) t = fancyDressCostume(t);
  return slangMoney(spokenPence(t));
}

/**
 * British "fancy dress" is dressing up: said with no article before it ("fancy dress for halloween
 * age 5", "need fancy dress for world book day") or for a dressing-up day it is a costume; "a fancy
 * dress for a gala" and "fancy dresses" stay dresses.
 */
// With no word describing it: starting a clause or after a verb or "for" ("need fancy dress",
// "cheap fancy dress age 8"); "black fancy dress", "a flower girl fancy dress" are dresses.
const FANCY_DRESS =
  /(?<=(?:^|[,.;:!?(]|\b(?:need|needs|needed|want|wants|wanted|for|some|cheap|cheaper|cheapest|any|buy|buying|get|getting|got|wear|wearing|doing|do|not|no|and|or|kids|kid's|childrens|children's|adult|adults|like|about)) ?)fancy dress\b(?!es\b| (?:costumes?|outfits?|party|parties|shoes|heels|boots|trousers|shirts?)\b)/g;
const DRESSING_UP_DAY =
  /\b(?:halloween|hallowe'?en|book (?:day|week)|dress(?:ing)? up|fancy dress (?:party|day|ball)|themed? (?:party|day)|carnival|nativity|costume)\b/;
/** A formal event: "she wants fancy dress for her prom" is an evening dress (unless a dressing-up day is said). */
const FORMAL_EVENT =
  /\b(?:weddings?|gala|ball|prom|christening|party dress|black tie|graduation|formal|dinner dance|evening do)\b/;
const A_FANCY_DRESS = /\b(?:a|an) fancy dress\b(?!es\b| (?:costumes?|outfits?|party|parties)\b)/g;
function fancyDressCostume(t: string): string {
  const dressingUp = DRESSING_UP_DAY.test(t);
  if (!dressingUp && FORMAL_EVENT.test(t)) return t;
  const bare = t.replace(FANCY_DRESS, 'fancy dress costume');
  return dressingUp ? bare.replace(A_FANCY_DRESS, (m) => `${m} costume`) : bare;
}

/**
 * Garments dictation writes as words that sound the same: "genes" (jeans), "jump her" (jumper),
 * "tee shirt" and "tea shirt" (a t-shirt, not a tee and a shirt).
 */
const soundsLike = (t: string) =>
  t
    .replace(/\bgenes\b/g, 'jeans')
    .replace(/\bgene (?=jacket|shorts|skirt|dress)/g, 'jean ')
    .replace(/\bjump hers?\b/g, 'jumper')
    // "a winter cost", "a warm cost for my son": a coat, when the word before is what a coat is
    // (never "the winter cost of heating", "a school cost us 40", "the school cost is crazy", "how
    // much will the red cost"; "dress" is left out: "what will the dress cost").
    .replace(
      /(?<!\b(?:much|what) (?:will|would|does|did|do|should|could|might|is|was) (?:the|a|an|my|this|that|her|his|your|their|our) )\b(winter|rain|warm|wool|woollen|woolen|puffer|padded|school|trench|pea|duffle|duffel|waterproof|thick|smart|long|black|navy|grey|gray|red|blue|green|pink|brown|camel|beige) cost(s?)\b(?! (?:of|me|us|him|her|them|around|about|under|over|less|more|too|a lot|much|so|an?|the|is|are|was|were|will|would|has|have|had|went|goes|keeps?|adds? up|\$|£|€|\d))/g,
      '$1 coat$2',
    )
    .replace(/\bte[ea] shirts\b/g, 't-shirts')
    .replace(/\bte[ea] shirt\b/g, 't-shirt')
    // "talla 38", "taille 40": the size, as Spanish and French families type it.
    .replace(/\b(?:talla|taille)(?= \d)/g, 'size');

/**
 * A correction said mid-sentence, as dictation keeps it: "size ten no eleven", "red no wait
 * blue", "small sorry medium", "forty i mean fifty", "nine actually make it nine and a half".
 * The word corrected is dropped when what follows the marker is the same sort of thing (an
 * amount, a letter size, a colour). Between colours a bare "no" is no correction: "black no
 * white" may say no to white, so a colour is corrected only by "no wait", "sorry", "i mean"…
 */
const STRONG_MARKER = `(?:no wait|wait no|wait|sorry|i mean|or rather|actually|scratch that|make (?:it|that))`;
const MARKER = (bareNo: boolean) =>
  `(?:, )?(?:${STRONG_MARKER}${bareNo ? '|no|nope' : ''})(?: (?:,|no|wait|sorry|actually|make it|make that|i mean))* `;
/** "not pink actually, purple" says no to pink: a word said no to is not corrected but kept. */
const SAID = String.raw`(?<!\b(?:not|no|never|without|except|but) )`;
const NUMBER_WORD = String.raw`(?:\$|£|€)?\d{1,7}(?:\.\d{1,2})?`;
const SIZE_WORD = '(?:xxs|xs|s|m|l|xl|xxl|xxxl|2xl|3xl|small|medium|large|extra small|extra large)';
const COLOUR_WORD = `(?:${COLORS.map(([w]) => w)
  .sort((a, b) => b.length - a.length)
  .join('|')})`;
/** "make it a 39", "actually a size 40": the article or the word size before the new value. */
const NEW_VALUE = '(?:an? )?(?:size )?';
const CORRECTIONS = [
  new RegExp(
    String.raw`${SAID}(?<![\w.])${NUMBER_WORD} ${MARKER(true)}${NEW_VALUE}(?=${NUMBER_WORD}(?![\w]))`,
    'g',
  ),
  new RegExp(String.raw`${SAID}\b${SIZE_WORD} ${MARKER(true)}${NEW_VALUE}(?=${SIZE_WORD}\b)`, 'g'),
  // "green no actually blue", "red, no, sorry, navy": a "no" before the marker is part of it.
  new RegExp(
    String.raw`${SAID}\b${COLOUR_WORD} (?:(?:, )?(?:no|nope) )?${MARKER(false)}(?:an? )?(?=${COLOUR_WORD}\b)`,
    'g',
  ),
];
/** Item words, longest first, for a colour corrected after its item. */
const ITEM_WORD = `(?:${KINDS.flatMap((k) => k.words)
  .sort((a, b) => b.length - a.length)
  .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  .join('|')})`;
/**
 * "a white no iron shirt", "no show socks", "a no fuss coat": a "no-" word of the item's kind
 * (said or typed without its hyphen) before the item, with a colour or a use between or not, is
 * no item said no to.
 */
const NO_COMPOUND = new RegExp(
  String.raw`\bno (?=(?:iron|show|fuss|nonsense|quibble|tie) (?:(?:${COLOUR_WORD}|school|work|ankle|trainer) )?(?:${ITEM_WORD})\b)`,
  'g',
);
/**
 * "a black coat, no sorry navy", "a pink hoodie no wait purple", "a green jumper, i mean blue":
 * the colour is corrected after its item was said; the item stays, with the new colour. A "no"
 * right before the marker ("no sorry", "no, actually") is part of the correction.
 */
// The item may be said again after the new colour ("a green coat, actually a grey coat"); with
// the article and the same item again, a bare "no" corrects too ("a red dress no a blue dress").
/**
 * "a red dress no a blue dress is too dark", "… would look odd", "… isnt smart enough": the other
 * colour's item judged against, not the colour corrected. Judged for ("… would be better", "…
 * looks nicer", "… is what she wants") it is the colour corrected, as said with no word after it.
 */
const JUDGE_VERB =
  '(?:is|are|was|were|would be|will be|might be|may be|could be|would look|will look|might look|could look|looks?|seems?|feels?)';
const JUDGED_AGAINST = `(?:${JUDGE_VERB}(?: (?:a bit|a little|bit|way|far|much|so|really|just|quite|kind of|kinda|probably|definitely))? (?:too|not|odd|weird|wrong|awful|horrible|ugly|silly|strange|bad|boring|dull|plain|drab|cheap|tacky|babyish|childish|garish|loud|off)|isnt|isn't|arent|aren't|wasnt|wasn't|werent|weren't|wont|won't|wouldnt|wouldn't|doesnt|doesn't|dont|don't|didnt|didn't|cant|can't|never|clashes|clash)`;
const COLOUR_AFTER_ITEM = new RegExp(
  String.raw`${SAID}\b${COLOUR_WORD} (${ITEM_WORD}) (?:, )?(?:(?:(?:no|nope) (?:, )?)?${MARKER(false)}(?:an? )?(?=${COLOUR_WORD}\b)|(?:no|nope) (?:, )?an? (?=${COLOUR_WORD} \1\b(?! ${JUDGED_AGAINST}\b)))`,
  'g',
);
/** "a black no a navy school jumper": what the item is for, between its colour and its word. */
const ITEM_USE = '(?:school|rain|winter|summer|party|work|sports?|gym|dance|swim|beach|snow|ski)';
/**
 * "a red no a blue dress", "a pink, no purple hoodie": a colour after an article and before no
 * item, then "no" and another colour with its item, is the colour corrected, not one said no to.
 */
const COLOUR_BEFORE_ITEM = new RegExp(
  String.raw`(?<=\b(?:a|an) )${COLOUR_WORD} (?:, )?(?:no|nope) (?:, )?(?:an? )?(?=${COLOUR_WORD} (?:${ITEM_USE} )?(?:${ITEM_WORD})\b)`,
  'g',
);
const selfCorrected = (t: string) =>
  CORRECTIONS.reduce((s, re) => s.replace(re, ''), ` ${t} `)
    .replace(COLOUR_AFTER_ITEM, '$1 ')
    .replace(COLOUR_BEFORE_ITEM, '');

/**
 * Amounts and sizes as they are said, for a reader that keeps the rest of the text as typed (the
 * mission's constraints): numbers in digits, spoken corrections applied ("size ten no eleven",
 * "38 actually make it 39"), slang money ("a tenner"). Punctuation after a word is set apart so
 * "fifty," is a number word; "49,99" and "1,200" stay as they are.
 */
export function spokenAmounts(lowercased: string): string {
  const spaced = spellNumbers(
    lowercased
      .replace(HALF_SIZE_COMMA, '$1 $2.5')
      .replace(ABBREVIATED_BOUND, '$1 ')
      .replace(/([a-z0-9])([,.!?;])(?=\s|$)/g, '$1 $2'),
  );
  // Most messages correct nothing: the correction patterns run only when a marker is there.
  const corrected = CORRECTION_MARKER.test(spaced)
    ? selfCorrected(spaced).replace(I_MEAN, ' ').replace(/\s+/g, ' ').trim()
    : spaced;
  return slangMoney(spokenPence(corrected));
}

/**
 * Pounds and pence said apart, as a voice client dictates them: "twelve pounds fifty" and "5 pounds
 * 50 pence" are 12.50 and 5.50; after a price word a bare pair is too ("under nineteen ninety
 * nine", "max twelve fifty"). Never a range, a list or a count ("20 pounds and 30", "for 2 10 year
 * olds").
 */
// A bare pair after the unit is pence only where the price ends: at the clause's end or before a
// word for a ceiling ("2 pounds 50 each", "twelve pounds fifty max"); before a size, an age, a
// count or another figure it is that ("jeans 30 pounds 28 waist", "a hoodie for 30 quid 13 yo").
// At the clause's end only shop pence ("a top 12 pounds 99"): "trainers 60 pounds 42", "dress max
// 40 pounds 14" end with the size.
const PENCE_END = String.raw`(?:(?<=\b(?:25|49|50|75|95|99))(?= ?(?:$|[.!?;)]|,(?! ?\d)))|(?= (?:each|max|maximum|tops|at most|or less|or under|apiece|a piece|in total|total)\b))`;
const UNIT_PENCE = new RegExp(
  String.raw`\b(\d{1,4}) (pounds?|quid|dollars?|bucks|euros?) (?:(\d{2}) ?(?:p|pence|cents?)|and (\d{2}) ?(?:p|pence|cents?)|(\d{2})${PENCE_END})\b(?![.,]\d| ?(?:-|–|to|or|pounds?|quid|dollars?|bucks|euros?|years?|yrs?|months?|sizes?|pairs?|items?)\b)`,
  'g',
);
// Dictated shapes only ("under nineteen ninety nine", "max twelve fifty"): shop pence (99, 95,
// 49, 50) ending the clause or said with the unit; any other second figure is a size, a second
// price or a count ("trainers under 50 39", "spend 15 19 max", "budget 100 50 each").
const PAIR_PENCE =
  /\b(under|below|max|maximum|up to|upto|budget|budget is|budget of|less than|no more than|at most|spend|costs?|priced at) (\d{1,3}) (50|95|99|49)\b(?= ?(?:$|[.!?;)]|,(?! ?\d)| (?:pounds?|p|pence)\b))/g;
function spokenPence(said: string): string {
  if (!/\d \d{2}\b/.test(said) && !/\d (?:pounds?|quid|dollars?|bucks|euros?) (?:and )?\d{2}/.test(said))
    return said;
  return said
    .replace(UNIT_PENCE, (_, n: string, unit: string, p1?: string, p2?: string, p3?: string) => {
      return `${n}.${p1 ?? p2 ?? p3} ${unit}`;
    })
    .replace(PAIR_PENCE, (_, word: string, n: string, p: string) => `${word} ${n}.${p}`);
}
/** A word every correction marker (STRONG_MARKER, a bare "no") contains. */
const CORRECTION_MARKER = /\b(?:no|nope|wait|sorry|mean|rather|actually|scratch|make)\b/;

/**
 * "max 1k", "under £2k", "budget 1.5k", "2k rupees": thousands, where the figure is money (a price
 * word or a currency before it, a currency after it); "a 5k run", "up to 10k runs" are distances.
 */
const THOUSANDS =
  /(\b(?:under|below|max|maximum|budget|upto|up to|within|around|about|than|spend|of|is|to) )?(\$|£|€|₹)?(?<![\w.])(\d{1,3}(?:\.\d)?)k\b/g;
/** "2-3k", "£2k-£3k": a range in thousands, money unless it is a distance ("a 5-10k run"). */
const THOUSANDS_RANGE =
  /(\$|£|€|₹)?(?<![\w.])(\d{1,3}(?:\.\d)?)k?\s?(?:[-–]|to)\s?(\$|£|€|₹)?(\d{1,3}(?:\.\d)?)k\b/g;
const thousand = (n: string) => String(Math.round(Number(n) * 1000));
/**
 * A "k" figure is a distance when a run, race or walk follows it ("a 5-10k run", "10k runs", "a
 * 5k fun run") or running comes right before it ("i run about 10k a week", "jogging 5k"): never
 * money, whatever price word is near ("up to 10k runs").
 */
const DISTANCE_AFTER =
  /^ ?(?:(?:fun|charity|park|trail|road|cross country|training|long|easy|race) )?(?:runs?|races?|walks?|jogs?|hikes?|rides?|swims?|marathons?|trail|route|course|loop|parkrun)\b/;
const DISTANCE_BEFORE =
  /\b(?:run|runs|ran|running|jog|jogs|jogged|jogging|walk|walks|walked|walking|race|races|raced|racing|cycle|cycles|cycling|ride|rides|riding|hike|hikes|hiking|swim|swims|swimming|train|training)(?: (?:about|around|roughly|approx|approximately|over|up to|upto|at least|maybe|like|nearly|almost|a|an|the|my|his|her|their|our|usually|normally|regularly|each|every|weekly))* ?$/;
/** "2k rupees", "5k dollars": a currency said after the figure. */
const MONEY_AFTER = new RegExp(`^ ?${CURRENCY}(?![a-z])`);
const isDistance = (before: string, after: string) =>
  DISTANCE_AFTER.test(after) || DISTANCE_BEFORE.test(before);

/**
 * Money as it is said: "a tenner" and "a fiver" are 10 and 5 pounds, "a couple of quid" 2,
 * "a grand" / "2 grand" a thousand or two (in no currency), "1k" / "£2k" as THOUSANDS says.
 */
function slangMoney(said: string): string {
  // Thousands are rare: their patterns run only when a figure ends in "k".
  const t = /\dk\b/.test(said)
    ? said
        .replace(
          THOUSANDS_RANGE,
          (
            m,
            s1: string | undefined,
            a: string,
            s2: string | undefined,
            b: string,
            at: number,
            all: string,
          ) =>
            !s1 &&
            !s2 &&
            !MONEY_AFTER.test(all.slice(at + m.length)) &&
            isDistance(all.slice(0, at), all.slice(at + m.length))
              ? m
              : `between ${s1 ?? ''}${thousand(a)} and ${s2 ?? ''}${thousand(b)}`,
        )
        .replace(
          THOUSANDS,
          (m, before: string | undefined, sign: string | undefined, n: string, at: number, all: string) =>
            sign ||
            MONEY_AFTER.test(all.slice(at + m.length)) ||
            (before && !isDistance(all.slice(0, at), all.slice(at + m.length)))
              ? `${before ?? ''}${sign ?? ''}${thousand(n)}`
              : m,
        )
    : said;
  return t
    .replace(/\b(?:a |one )?tenners?\b/g, '10 pounds')
    .replace(/\b(?:a |one )?fivers?\b/g, '5 pounds')
    .replace(/\ba couple (?:of )?(quid|pounds|bucks|dollars|euros)\b/g, '2 $1')
    .replace(/\b(?:a|one) grand\b/g, '1000')
    .replace(/\b(\d{1,3}) grand\b/g, (_, n: string) => String(Number(n) * 1000));
}
