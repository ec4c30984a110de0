import type { Season, WardrobeCategory } from '@hs/contracts';

/**
 * The everyday words families use for clothes, each mapped to one item kind (the word the
 * brief keeps and commerce searches titles for) and its wardrobe category. Phrases are listed
 * before the single words they contain ("rain jacket" before "jacket").
 */
type Kind = { kind: string; category: WardrobeCategory; words: string[]; season?: Season; generic?: boolean };

/** Sports whose "suit" is a tracksuit-like kit: "a running suit", "a football suit". */
const SPORT_SUIT_WORDS = [
  'running',
  'jogging',
  'training',
  'football',
  'gym',
  'athletics',
  'warm up',
  'cycling',
  'skating',
];
/** Martial arts, whose suit is a gi: "a karate suit", "judo gi". */
export const MARTIAL_ARTS = [
  'karate',
  'judo',
  'jiu jitsu',
  'jujitsu',
  'bjj',
  'taekwondo',
  'aikido',
  'martial arts',
];
/** Dressing-up suits: costumes, not tailoring. */
const DRESS_UP_SUITS = [
  'superhero',
  'super hero',
  'spiderman',
  'spider-man',
  'batman',
  'space',
  'astronaut',
  'dinosaur',
  'animal',
  'bunny',
  'monkey',
  'bear',
  'tiger',
  'shark',
  'inflatable',
  'santa',
  'elf',
];

export const KINDS: Kind[] = [
  { kind: 'poncho', category: 'OUTERWEAR', words: ['rain ponchos', 'rain poncho', 'ponchos', 'poncho'] },
  {
    kind: 'raincoat',
    category: 'OUTERWEAR',
    words: [
      'rain jackets',
      'rain jacket',
      'rain coats',
      'rain coat',
      'raincoats',
      'raincoat',
      'rain mac',
      'cagoules',
      'cagoule',
      'kagool',
      'slicker',
      // A toddler's waterproof all-in-one: rain wear, not tailoring.
      'puddle suits',
      'puddle suit',
      'rain suits',
      'rain suit',
    ],
  },
  {
    kind: 'puffer',
    category: 'OUTERWEAR',
    words: [
      'puffer jacket',
      'puffer coat',
      'puffy jacket',
      'puffy coat',
      'down jacket',
      'down coat',
      'puffer',
      'puffa',
    ],
    season: 'WINTER',
  },
  { kind: 'parka', category: 'OUTERWEAR', words: ['parkas', 'parka', 'anoraks', 'anorak'], season: 'WINTER' },
  {
    kind: 'blazer',
    category: 'OUTERWEAR',
    words: ['suit jacket', 'sport coat', 'sports coat', 'blazers', 'blazer'],
  },
  { kind: 'windbreaker', category: 'OUTERWEAR', words: ['windbreaker', 'wind breaker', 'windcheater'] },
  {
    kind: 'snowsuit',
    category: 'OUTERWEAR',
    words: ['snowsuits', 'snowsuit', 'snow suit', 'ski suit', 'pramsuit', 'pram suit'],
    season: 'WINTER',
  },
  { kind: 'gilet', category: 'OUTERWEAR', words: ['gilet', 'puffer vest', 'body warmer', 'bodywarmer'] },
  {
    kind: 'jacket',
    category: 'OUTERWEAR',
    words: [
      'jean jacket',
      'denim jacket',
      'leather jacket',
      'bomber jacket',
      'bomber',
      'jacket',
      'jackets',
      'shacket',
    ],
  },
  {
    kind: 'coat',
    category: 'OUTERWEAR',
    words: [
      'trench coats',
      'trench coat',
      'trench',
      'overcoats',
      'overcoat',
      'peacoat',
      'pea coat',
      'coats',
      'coat',
    ],
  },
  {
    kind: 'sneakers',
    category: 'SHOES',
    words: [
      'running shoes',
      'tennis shoes',
      'gym shoes',
      'sneakers',
      'sneaker',
      'trainers',
      'trainer',
      'kicks',
      'runners',
      'plimsolls',
      'plimsoll',
      // Trainers asked for by their model's name.
      'air force 1s',
      'air force 1',
      'air force ones',
      'air force one',
      'air forces',
      'af1s',
      'af1',
      'air maxes',
      'air max',
      'jordans',
      'stan smiths',
      'sambas',
    ],
  },
  {
    kind: 'boots',
    category: 'SHOES',
    words: [
      'rain boots',
      'snow boots',
      'wellington boots',
      'wellingtons',
      'welly boots',
      'wellies',
      'wellys',
      'welly',
      'gumboots',
      'gumboot',
      'gum boots',
      // American "cleats": football (soccer) boots, with studs.
      'cleats',
      'cleat',
      'booties',
      'boots',
      'boot',
    ],
  },
  {
    kind: 'sandals',
    category: 'SHOES',
    // Australian "thongs" (plural, a pair) are flip-flops; one "thong" is left unread.
    words: [
      'flip flops',
      'flip-flops',
      'flipflops',
      'thong sandals',
      'thongs',
      'sliders',
      'slides',
      'sandals',
      'sandal',
      'chappals',
      'chappal',
    ],
    season: 'SUMMER',
  },
  { kind: 'heels', category: 'SHOES', words: ['high heels', 'heels', 'pumps', 'stilettos', 'stiletto'] },
  { kind: 'loafers', category: 'SHOES', words: ['loafers', 'loafer', 'moccasins'] },
  // British ballet "pumps" are flat, not the American pumps (heels).
  {
    kind: 'flats',
    category: 'SHOES',
    words: ['ballet flats', 'ballet pumps', 'ballet shoes', 'ballet slippers', 'flats'],
  },
  { kind: 'slippers', category: 'SHOES', words: ['slippers', 'slipper'] },
  { kind: 'shoes', category: 'SHOES', words: ['shoes', 'shoe', 'footwear'], generic: true },
  // Thermals worn under clothes: "base layers", "a thermal vest", "long johns" (all for the cold).
  {
    kind: 'base layer',
    category: 'TOP',
    words: [
      'thermal base layers',
      'thermal base layer',
      'base layers',
      'base layer',
      'baselayers',
      'baselayer',
      'thermal vests',
      'thermal vest',
      'thermal tops',
      'thermal top',
      'thermal underwear',
      'thermals',
    ],
    season: 'WINTER',
  },
  {
    kind: 'long johns',
    category: 'BOTTOM',
    words: ['long johns', 'longjohns', 'thermal leggings', 'thermal bottoms', 'long underwear'],
    season: 'WINTER',
  },
  // A waistcoat is what Americans call a vest of a suit; "sweater vest" is knitted but sleeveless.
  {
    kind: 'waistcoat',
    category: 'TOP',
    words: ['waistcoats', 'waistcoat', 'sweater vests', 'sweater vest', 'suit vest', 'knitted vest'],
  },
  // "Vest" alone is an undershirt in the UK and a waistcoat in the US: searched as the word the
  // merchant's title uses, whichever it means ("puffer vest", "vest top" are read above and below).
  { kind: 'vest', category: 'TOP', words: ['vests', 'vest'] },
  {
    kind: 'tank top',
    category: 'TOP',
    // An Australian or New Zealand "singlet" is a sleeveless top.
    words: [
      'tank tops',
      'tank top',
      'tanktop',
      'vest top',
      'camisole',
      'cami',
      'singlets',
      'singlet',
      'tank',
    ],
  },
  {
    kind: 't-shirt',
    category: 'TOP',
    words: ['t-shirts', 't-shirt', 't shirts', 't shirt', 'tshirts', 'tshirt', 'tees', 'tee'],
  },
  { kind: 'polo', category: 'TOP', words: ['polo shirts', 'polo shirt', 'polos', 'polo'] },
  {
    kind: 'sweatshirt',
    category: 'TOP',
    words: ['sweatshirts', 'sweatshirt', 'sweat-shirt', 'sweat shirt', 'crewneck', 'crew neck'],
  },
  {
    kind: 'hoodie',
    category: 'TOP',
    words: ['hoodies', 'hoodie', 'hoody', 'hoodys', 'zip up', 'zip-up', 'zipup'],
  },
  { kind: 'cardigan', category: 'TOP', words: ['cardigans', 'cardigan', 'cardi'] },
  {
    kind: 'sweater',
    category: 'TOP',
    words: [
      'sweaters',
      'sweater',
      'jumpers',
      'jumper',
      'pullovers',
      'pullover',
      'turtlenecks',
      'turtleneck',
      'polo neck',
      'roll neck',
      'knitwear',
      'knit',
    ],
  },
  { kind: 'fleece', category: 'TOP', words: ['fleece', 'fleeces'] },
  { kind: 'blouse', category: 'TOP', words: ['blouses', 'blouse'] },
  {
    kind: 'shirt',
    category: 'TOP',
    // A team's "jersey" ("a soccer jersey"), as "a football shirt" is one; "jersey" alone is a cloth.
    words: [
      'button down',
      'button-down',
      'button up',
      'button-up',
      'shirts',
      'shirt',
      ...['football', 'soccer', 'hockey', 'basketball', 'baseball', 'rugby'].flatMap((s) => [
        `${s} jerseys`,
        `${s} jersey`,
      ]),
    ],
  },
  { kind: 'top', category: 'TOP', words: ['tops', 'top'], generic: true },
  // "denim" alone is jeans; before another garment ("denim skirt") it is the cloth (CLOTH_WORDS).
  { kind: 'jeans', category: 'BOTTOM', words: ['jeans', 'denims', 'denim', 'jean'] },
  {
    kind: 'joggers',
    category: 'BOTTOM',
    words: [
      'sweatpants',
      'sweat pants',
      'track pants',
      'trackies',
      'tracksuit bottoms',
      'joggers',
      'jogger',
      'sweats',
    ],
  },
  { kind: 'leggings', category: 'BOTTOM', words: ['yoga pants', 'leggings', 'tights'] },
  { kind: 'chinos', category: 'BOTTOM', words: ['chinos', 'khakis'] },
  { kind: 'shorts', category: 'BOTTOM', words: ['bermuda shorts', 'bermudas', 'jorts', 'shorts'] },
  // A ballet "tutu" is a skirt.
  { kind: 'skirt', category: 'BOTTOM', words: ['skirts', 'skirt', 'tutus', 'tutu'] },
  { kind: 'kilt', category: 'BOTTOM', words: ['kilts', 'kilt'] },
  { kind: 'sarong', category: 'BOTTOM', words: ['sarongs', 'sarong'] },
  // Ski trousers with a bib: before "pants" (trousers) and the "ski" occasion, the longer phrase wins.
  {
    kind: 'salopettes',
    category: 'BOTTOM',
    words: ['salopettes', 'salopette', 'ski pants', 'ski trousers', 'snow pants'],
    season: 'WINTER',
  },
  {
    kind: 'trousers',
    category: 'BOTTOM',
    words: ['cargo trousers', 'cargo pants', 'cargos', 'culottes', 'trousers', 'pants', 'slacks'],
  },
  { kind: 'sundress', category: 'DRESS', words: ['sundresses', 'sundress', 'sun dress'], season: 'SUMMER' },
  {
    kind: 'jumpsuit',
    category: 'DRESS',
    words: [
      'jumpsuits',
      'jumpsuit',
      'jump suits',
      'jump suit',
      'romper',
      'playsuit',
      'play suit',
      'boiler suits',
      'boiler suit',
      'catsuits',
      'catsuit',
      'overalls',
      'dungarees',
    ],
  },
  // A suit is tailoring, as its jacket (a blazer) is: "suit jacket" stays a blazer (listed first).
  {
    kind: 'suit',
    category: 'OUTERWEAR',
    words: ['trouser suit', 'pant suit', 'pantsuit', 'tuxedos', 'tuxedo', 'tux', 'suits', 'suit'],
  },
  { kind: 'dress', category: 'DRESS', words: ['dresses', 'dress', 'gown', 'frock', 'pinafores', 'pinafore'] },
  { kind: 'kaftan', category: 'DRESS', words: ['kaftans', 'kaftan', 'caftans', 'caftan'] },
  // Worn for Eid and Friday prayers: a long robe (a thobe, for boys and men) and an abaya.
  { kind: 'abaya', category: 'DRESS', words: ['abayas', 'abaya'] },
  {
    kind: 'thobe',
    category: 'OTHER',
    words: ['thobes', 'thobe', 'thawbs', 'thawb', 'jubbas', 'jubba', 'kanduras', 'kandura'],
  },
  // South Asian clothes, searched by the name merchants give them.
  { kind: 'saree', category: 'DRESS', words: ['sarees', 'saree', 'saris', 'sari'] },
  { kind: 'lehenga', category: 'DRESS', words: ['lehenga cholis', 'lehenga choli', 'lehengas', 'lehenga'] },
  {
    kind: 'salwar kameez',
    category: 'DRESS',
    words: [
      'salwar kameez',
      'shalwar kameez',
      'salwar suits',
      'salwar suit',
      'churidar suit',
      'salwars',
      'salwar',
    ],
  },
  {
    kind: 'kurta',
    category: 'TOP',
    words: ['kurta pyjama', 'kurta pajama', 'kurtas', 'kurta', 'kurtis', 'kurti'],
  },
  { kind: 'sherwani', category: 'OUTERWEAR', words: ['sherwanis', 'sherwani'] },
  { kind: 'dupatta', category: 'ACCESSORY', words: ['dupattas', 'dupatta'] },
  {
    kind: 'beanie',
    category: 'ACCESSORY',
    words: [
      'beanies',
      'beanie',
      'woolly hats',
      'woolly hat',
      'wooly hat',
      'bobble hats',
      'bobble hat',
      'pom pom hat',
      'balaclavas',
      'balaclava',
      'toque',
    ],
    season: 'WINTER',
  },
  { kind: 'cap', category: 'ACCESSORY', words: ['baseball cap', 'ball cap', 'snapback', 'caps', 'cap'] },
  {
    kind: 'hat',
    category: 'ACCESSORY',
    words: ['bucket hat', 'sun hats', 'sun hat', 'sunhats', 'sunhat', 'hats', 'hat'],
  },
  {
    kind: 'scarf',
    category: 'ACCESSORY',
    words: ['scarves', 'scarfs', 'scarf', 'snoods', 'snood', 'neck warmers', 'neck warmer', 'neck gaiter'],
  },
  // A head covering: "a black headscarf", "a hijab" (a "hijab friendly dress" is a dress: MODIFIER_WORDS).
  {
    kind: 'headscarf',
    category: 'ACCESSORY',
    words: ['headscarves', 'headscarf', 'head scarves', 'head scarf', 'hijabs', 'hijab'],
  },
  { kind: 'gloves', category: 'ACCESSORY', words: ['gloves', 'mittens', 'mitts'] },
  { kind: 'belt', category: 'ACCESSORY', words: ['belts', 'belt'] },
  // "black tie" is a dress code (NOT_GARMENTS), "tie-dye" a pattern: neither is a tie.
  {
    kind: 'tie',
    category: 'ACCESSORY',
    words: ['bow ties', 'bow tie', 'neckties', 'necktie', 'ties', 'tie'],
  },
  { kind: 'sunglasses', category: 'ACCESSORY', words: ['sunglasses', 'sunnies', 'shades'] },
  // For the pool and the slopes.
  {
    kind: 'goggles',
    category: 'ACCESSORY',
    words: ['ski goggles', 'snow goggles', 'swimming goggles', 'swim goggles', 'goggles'],
  },
  // A head covering worn for prayer, a bar or bat mitzvah, a wedding.
  {
    kind: 'kippah',
    category: 'ACCESSORY',
    words: ['kippahs', 'kippah', 'kippot', 'kipa', 'yarmulkes', 'yarmulke', 'yamaka', 'kufi', 'kufis'],
  },
  // What a suit is finished with for a wedding.
  { kind: 'cufflinks', category: 'ACCESSORY', words: ['cufflinks', 'cuff links'] },
  { kind: 'pocket square', category: 'ACCESSORY', words: ['pocket squares', 'pocket square'] },
  { kind: 'tote', category: 'BAG', words: ['tote bag', 'totes', 'tote'] },
  {
    kind: 'crossbody',
    category: 'BAG',
    words: ['crossbody bag', 'cross body bag', 'crossbody', 'cross body', 'sling bag'],
  },
  {
    kind: 'backpack',
    category: 'BAG',
    words: ['school bag', 'schoolbag', 'book bag', 'bookbag', 'rucksack', 'backpacks', 'backpack'],
  },
  { kind: 'bag', category: 'BAG', words: ['handbag', 'purse', 'clutch', 'bags', 'bag'], generic: true },
  {
    kind: 'swimsuit',
    category: 'OTHER',
    words: [
      'bathing suits',
      'bathing suit',
      'swim suits',
      'swim suit',
      'swimming suits',
      'swimming suit',
      'sun suits',
      'sun suit',
      'sunsuits',
      'sunsuit',
      'swimming costume',
      // "swimming kit for school", "her swim kit": what is worn to swim.
      'swimming kit',
      'swim kit',
      'swim trunks',
      'swim shorts',
      'swimming trunks',
      'swimming shorts',
      'board shorts',
      'boardshorts',
      'swimsuit',
      'swimwear',
      'swimmers',
      'cozzie',
      'cozzies',
      // Australian and Irish words for swimwear: "cossie", "togs", "boardies".
      'cossies',
      'cossie',
      'togs',
      'boardies',
      'bathers',
      // A one-piece top and bottoms, and the sun-safe swim top ("rash vest"): swimwear, no vest.
      'tankinis',
      'tankini',
      'rash vests',
      'rash vest',
      'rash guards',
      'rash guard',
      'rashguard',
    ],
    season: 'SUMMER',
  },
  // A kind of its own, so "a swimsuit, no bikinis" keeps the exclusion.
  { kind: 'bikini', category: 'OTHER', words: ['bikinis', 'bikini'], season: 'SUMMER' },
  {
    kind: 'costume',
    category: 'OTHER',
    // British "fancy dress" is dressing up; a lone "fancy dress" stays a dress (a fancy one).
    words: [
      'fancy dress costumes',
      'fancy dress costume',
      'fancy dress outfits',
      'fancy dress outfit',
      'fancy dress party',
      'halloween costume',
      // Dressing up as someone: "a superhero suit", "a space suit".
      ...DRESS_UP_SUITS.flatMap((w) => [`${w} suits`, `${w} suit`]),
      'spacesuits',
      'spacesuit',
      'costumes',
      'costume',
    ],
  },
  {
    kind: 'pajamas',
    category: 'OTHER',
    words: ['pajamas', 'pyjamas', 'pjs', "pj's", 'pj', 'jammies', 'pajama', 'pyjama'],
  },
  // Sleepwear, so a "night dress" is no dress (the longer phrase wins).
  {
    kind: 'nightdress',
    category: 'OTHER',
    words: [
      'nightdresses',
      'nightdress',
      'night dresses',
      'night dress',
      'nightgowns',
      'nightgown',
      'night gowns',
      'night gown',
      'nighties',
      'nightie',
      'nighty',
    ],
  },
  // Trouser braces (American "suspenders").
  { kind: 'braces', category: 'ACCESSORY', words: ['trouser braces', 'suspenders', 'braces'] },
  { kind: 'socks', category: 'OTHER', words: ['socks', 'sock'] },
  // Underwear as families name it: "boxer shorts" are no shorts ("pants" is trousers, as in the US).
  {
    kind: 'underwear',
    category: 'OTHER',
    words: ['underwear', 'undies', 'underpants', 'knickers', 'boxer shorts', 'boxers', 'briefs', 'panties'],
  },
  // Sports kit a child outgrows: "shin pads for football".
  {
    kind: 'shin pads',
    category: 'OTHER',
    words: ['shin pads', 'shin pad', 'shinpads', 'shin guards', 'shin guard', 'shinguards'],
  },
  { kind: 'leotard', category: 'OTHER', words: ['leotards', 'leotard'] },
  // Work wear a family buys for a nurse, vet or carer.
  { kind: 'scrubs', category: 'OTHER', words: ['scrubs'] },
  { kind: 'sports bra', category: 'TOP', words: ['sports bras', 'sports bra', 'sport bras', 'sport bra'] },
  // Underwear bought by size ("a bra, 34B"): the longer "sports bra" phrase above wins.
  { kind: 'bra', category: 'OTHER', words: ['bras', 'bra'] },
  // The longer phrase wins, so a dressing gown is not a gown (a dress).
  {
    kind: 'dressing gown',
    category: 'OTHER',
    words: ['dressing gowns', 'dressing gown', 'bathrobes', 'bathrobe', 'bath robe', 'robes', 'robe'],
  },
  // What babies wear day and night: one kind, whatever a family calls it.
  {
    kind: 'onesie',
    category: 'OTHER',
    words: [
      'onesies',
      'onesie',
      'babygrows',
      'babygrow',
      'baby grows',
      'baby grow',
      'sleepsuits',
      'sleepsuit',
      'bodysuits',
      'bodysuit',
      'body suits',
      'body suit',
    ],
  },
  {
    kind: 'tracksuit',
    category: 'OTHER',
    words: [
      'tracksuits',
      'tracksuit',
      'track suits',
      'track suit',
      'sweatsuits',
      'sweatsuit',
      'sweat suits',
      'sweat suit',
      'shell suits',
      'shell suit',
      // A "suit" after a sport is its kit, never tailoring (martial arts: the gi, below).
      ...SPORT_SUIT_WORDS.flatMap((w) => [`${w} suits`, `${w} suit`]),
    ],
  },
  // The martial arts' suit, whatever the art calls it.
  {
    kind: 'gi',
    category: 'OTHER',
    words: [
      ...MARTIAL_ARTS.flatMap((w) => [
        `${w} suits`,
        `${w} suit`,
        `${w} uniforms`,
        `${w} uniform`,
        `${w} gis`,
        `${w} gi`,
      ]),
      'doboks',
      'dobok',
      'gi',
    ],
  },
  {
    kind: 'wetsuit',
    category: 'OTHER',
    words: [
      'wetsuits',
      'wetsuit',
      'wet suits',
      'wet suit',
      'drysuits',
      'drysuit',
      'dry suits',
      'dry suit',
      'diving suits',
      'diving suit',
      'surf suit',
      'surfing suit',
    ],
    season: 'SUMMER',
  },
];

/**
 * Clothing words families mix in from Spanish, French and German ("zapatillas for my son",
 * "pantalones negros"), each to its English item. Only words that mean nothing else in English
 * text: German "Hose" (English hose, stockings) and "Rock", French "robe" (a dressing gown) and
 * "pull" are left out.
 */
const BORROWED: Record<string, string[]> = {
  sneakers: ['zapatillas', 'zapatilla', 'turnschuhe'],
  shoes: ['zapatos', 'chaussures', 'schuhe'],
  trousers: ['pantalones', 'pantalón', 'pantalon'],
  't-shirt': ['camisetas', 'camiseta'],
  jacket: ['chaquetas', 'chaqueta', 'jacke'],
  coat: ['abrigos', 'abrigo', 'manteau'],
  dress: ['vestidos', 'vestido', 'kleid'],
  skirt: ['faldas', 'falda', 'jupe'],
  sweatshirt: ['sudaderas', 'sudadera'],
};
for (const k of KINDS) k.words.push(...(BORROWED[k.kind] ?? []));
/** Borrowed words are read as written: a misspelling is English, and "jake" (a name) is no "jacke". */
const BORROWED_WORDS = Object.values(BORROWED).flat();

/**
 * Item words that describe another item when one follows: "denim skirt", "jean shorts" and
 * "dress shoes" are a skirt, shorts and shoes, not jeans or a dress as well. The cloth words
 * may stand a word or two before their item ("denim mini skirt"); "dress" only directly before
 * one of its compounds, as "a party dress, sparkly shoes" asks for both.
 */
/**
 * Regional and borrowed words a step from many English ones ("brothers" is no bathers, "things" no
 * thongs, "single" no singlet, "spree" no saree): read as written, never a spelling correction's
 * target (brief/normalize.ts).
 */
export const READ_AS_WRITTEN = new Set([
  // "cleats" is a step from "clears", "cheats", "creates", "clients": read only as written.
  'cleats',
  'cleat',
  // Underwear's words are a step from "parties", "boxes", "briefly", "unties": read only as written.
  'underwear',
  'undies',
  'underpants',
  'knickers',
  'boxers',
  'briefs',
  'panties',
  'bathers',
  'boardies',
  'cossies',
  'cossie',
  'cozzies',
  'cozzie',
  'togs',
  'thongs',
  'singlets',
  'singlet',
  'sarees',
  'saree',
  'saris',
  'sari',
  'salwars',
  'salwar',
  'chappals',
  'chappal',
  // "welly" is a step from "well" and "wells", "thawb" from "thaw", "thobes" from "thrones",
  // "sunhats" from "suntans".
  'wellys',
  'welly',
  'thawbs',
  'thawb',
  'thobes',
  'thobe',
  'sunhats',
  'sunhat',
]);

export const MODIFIER_WORDS = new Set(['denim', 'denims', 'jean', 'dress', 'hijab']);
/**
 * Top words that describe a dress right after them: "a jumper dress", "a shirt dress", "a t-shirt
 * dress" are dresses, not a top as well.
 */
export const DESCRIBES_A_DRESS = new Set([
  'jumper',
  'sweater',
  'shirt',
  't-shirt',
  't shirt',
  'tshirt',
  'tee',
  'hoodie',
  'hoody',
  'polo',
  'blazer',
  'tank',
  'cami',
  'sweatshirt',
  'knit',
  'cardigan',
]);
/** The items "dress" describes when it comes right before them: "dress shoes", "dress shirt". */
export const DRESS_COMPOUNDS = ['shoes', 'shoe', 'shirts', 'shirt', 'trousers', 'pants', 'boots', 'socks'];

/** Phrases with an item word that name no garment: "costume jewellery", "the dress code". */
export const NOT_GARMENTS = [
  'costume jewellery',
  'costume jewelry',
  'costume dramas',
  'costume drama',
  'costume designer',
  'black tie',
  'dress codes',
  'dress code',
  'birthday suit',
  // "whatever suits her": the verb, not the garment.
  ...['suit', 'suits'].flatMap((w) =>
    ['me', 'you', 'him', 'her', 'them', 'us', 'yourself', 'everyone', 'my', 'his', 'your', 'their'].map(
      (o) => `${w} ${o}`,
    ),
  ),
  'would suit',
  'to suit',
  'might suit',
];

/**
 * The phrases above as one pattern, for readers without the brief's item table (a mission's
 * constraints): "black tie" is a dress code, neither black nor a tie.
 */
export const NOT_A_GARMENT = new RegExp(NOT_GARMENTS.map((w) => String.raw`\b${w}\b`).join('|'), 'g');

/**
 * Cloth words a shopper says no to ("not leather", "no wool", "nothing polyester"): kept with the
 * excluded item words, which searches leave out of offer titles. "synthetic" stands for the
 * synthetic fibres titles name.
 */
export const MATERIALS: Array<[string, string[]]> = [
  ['faux leather', ['faux leather']],
  ['fake leather', ['faux leather']],
  ['real leather', ['leather']],
  ['fake fur', ['faux fur']],
  ['faux fur', ['faux fur']],
  ['real fur', ['fur']],
  ['synthetics', ['synthetic', 'polyester', 'nylon', 'acrylic']],
  ['synthetic', ['synthetic', 'polyester', 'nylon', 'acrylic']],
  ['man made', ['synthetic', 'polyester', 'nylon', 'acrylic']],
  ['man-made', ['synthetic', 'polyester', 'nylon', 'acrylic']],
  ...[
    'leather',
    'suede',
    'wool',
    'merino',
    'cashmere',
    'mohair',
    'angora',
    'alpaca',
    'polyester',
    'nylon',
    'acrylic',
    'spandex',
    'elastane',
    'lycra',
    'viscose',
    'rayon',
    'cotton',
    'linen',
    'silk',
    'satin',
    'velvet',
    'corduroy',
    'lace',
    'sequins',
    'fur',
    'pvc',
    'vinyl',
    'latex',
    'feathers',
  ].map((w): [string, string[]] => [w, [w]]),
  ['woollen', ['wool']],
  ['woolen', ['wool']],
  ['poly', ['polyester']],
  ['sequin', ['sequins']],
  ['feather', ['feathers']],
];

/**
 * Families of colours named as one ("earth tones", "pastels"), each to the plain colours offers
 * are tagged with.
 */
export const COLOR_FAMILIES: Array<[string, string[]]> = [
  ...[
    'earth tones',
    'earth tone',
    'earthy tones',
    'earthy colours',
    'earthy colors',
    'earth colours',
    'earth colors',
    'earthy',
  ].map((w): [string, string[]] => [w, ['brown', 'beige', 'olive', 'orange']]),
  ...['pastel colours', 'pastel colors', 'pastel shades', 'pastel tones', 'pastels', 'pastel'].map(
    (w): [string, string[]] => [w, ['pink', 'blue', 'purple', 'yellow', 'green']],
  ),
  ...['neutral colours', 'neutral colors', 'neutral tones', 'neutral shades', 'neutrals'].map(
    (w): [string, string[]] => [w, ['black', 'white', 'grey', 'beige', 'cream']],
  ),
  ...['dark colours', 'dark colors', 'dark colour', 'dark color', 'dark tones', 'dark shades'].map(
    (w): [string, string[]] => [w, ['black', 'navy', 'grey', 'burgundy']],
  ),
  // "bright colours", "something in vibrant colours": the vivid colours, no one of them asked.
  ...[
    'bright colours',
    'bright colors',
    'bright colour',
    'bright color',
    'bright shades',
    'bright tones',
    'vibrant colours',
    'vibrant colors',
  ].map((w): [string, string[]] => [w, ['red', 'yellow', 'orange', 'pink', 'green', 'blue']]),
  ...['jewel tones', 'jewel tone', 'jewel colours', 'jewel colors', 'jewel-toned', 'jewel toned'].map(
    (w): [string, string[]] => [w, ['green', 'blue', 'purple', 'red']],
  ),
];

/**
 * Where "dress" names no dress ("dress shoes", "fancy dress costume", "the dress code"), for
 * readers without the brief's item table (a mission's constraints): the same rule as the brief.
 */
export const DRESS_NOT_A_DRESS = new RegExp(
  [
    String.raw`\bdress(?= (?:${DRESS_COMPOUNDS.join('|')})\b)`,
    // "dressing gown" is no gown either.
    ...[...KINDS.filter((k) => k.category !== 'DRESS').flatMap((k) => k.words), ...NOT_GARMENTS]
      .filter((w) => /\bdress\b|\bgowns?\b/.test(w))
      .map((w) => String.raw`\b${w}\b`),
  ].join('|'),
  'g',
);

/** Colour words and shades, each to the plain colour offers are tagged with. */
export const COLORS: Array<[string, string]> = [
  // A shade, not the cloth: "a denim blue shirt" is a blue shirt.
  ['denim blue', 'blue'],
  ['navy blue', 'navy'],
  ['dark blue', 'navy'],
  ['light blue', 'blue'],
  ['baby blue', 'blue'],
  ['sky blue', 'blue'],
  ['royal blue', 'blue'],
  ['off white', 'cream'],
  ['off-white', 'cream'],
  ['olive green', 'olive'],
  ['army green', 'olive'],
  ['khaki green', 'olive'],
  ['forest green', 'green'],
  ['dark green', 'green'],
  ['light pink', 'pink'],
  ['hot pink', 'pink'],
  ['baby pink', 'pink'],
  ['dark red', 'burgundy'],
  // A pastel shade is its colour, not the whole pastel family.
  ['pastel pink', 'pink'],
  ['pastel blue', 'blue'],
  ['pastel green', 'green'],
  ['pastel yellow', 'yellow'],
  ['pastel purple', 'purple'],
  ['mint green', 'green'],
  ['mint', 'green'],
  ['light grey', 'grey'],
  ['light gray', 'grey'],
  ['dark grey', 'grey'],
  ['dark gray', 'grey'],
  ['black', 'black'],
  ['white', 'white'],
  ['red', 'red'],
  ['scarlet', 'red'],
  ['crimson', 'red'],
  ['blue', 'blue'],
  ['navy', 'navy'],
  ['green', 'green'],
  ['sage', 'green'],
  ['emerald', 'green'],
  ['olive', 'olive'],
  ['yellow', 'yellow'],
  ['mustard', 'yellow'],
  ['orange', 'orange'],
  ['rust', 'orange'],
  ['coral', 'orange'],
  ['peach', 'orange'],
  ['pink', 'pink'],
  ['blush', 'pink'],
  ['fuchsia', 'pink'],
  ['purple', 'purple'],
  ['lilac', 'purple'],
  ['lavender', 'purple'],
  ['violet', 'purple'],
  ['mauve', 'purple'],
  ['plum', 'purple'],
  ['brown', 'brown'],
  ['chocolate', 'brown'],
  ['beige', 'beige'],
  ['tan', 'beige'],
  ['camel', 'beige'],
  ['khaki', 'beige'],
  ['nude', 'beige'],
  ['sand', 'beige'],
  ['taupe', 'beige'],
  ['grey', 'grey'],
  ['gray', 'grey'],
  ['charcoal', 'grey'],
  ['silver', 'silver'],
  ['gold', 'gold'],
  ['cream', 'cream'],
  ['ivory', 'cream'],
  ['ecru', 'cream'],
  ['burgundy', 'burgundy'],
  ['maroon', 'burgundy'],
  ['wine', 'burgundy'],
  ['oxblood', 'burgundy'],
  ['bordeaux', 'burgundy'],
  ['teal', 'blue'],
  ['turquoise', 'blue'],
  ['aqua', 'blue'],
];
/**
 * Colours families mix in from Spanish ("zapatos negros", "una chaqueta azul"), as BORROWED items
 * are: only words that mean nothing else in English text ("rosa", a name, is left out).
 */
const SPANISH_COLOURS: Array<[string, string]> = [
  ['negros', 'black'],
  ['negras', 'black'],
  ['negro', 'black'],
  ['negra', 'black'],
  ['azules', 'blue'],
  ['azul', 'blue'],
  ['rojos', 'red'],
  ['rojas', 'red'],
  ['rojo', 'red'],
  ['roja', 'red'],
  ['blancos', 'white'],
  ['blancas', 'white'],
  ['blanco', 'white'],
  ['blanca', 'white'],
  ['verdes', 'green'],
  ['verde', 'green'],
  ['amarillo', 'yellow'],
  ['amarilla', 'yellow'],
  ['morado', 'purple'],
  ['morada', 'purple'],
];
COLORS.push(...SPANISH_COLOURS);
// Read as written: a step from many English words ("verse", "balance", "neurons").
for (const w of [...BORROWED_WORDS, ...SPANISH_COLOURS.map(([c]) => c)]) READ_AS_WRITTEN.add(w);

/**
 * "holiday" naming a thing or a day at home, no trip: "a warm holiday jumper", "the big holiday
 * dinner", "the long holiday weekend at home", "hot holiday drinks". Before it "warm" or "hot" is
 * no summer weather and "for the holiday" no travel.
 */
const HOLIDAY_THING = String.raw`(?! (?:${KINDS.flatMap((k) => k.words)
  .sort((a, b) => b.length - a.length)
  .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`))
  .join(
    '|',
  )}|outfits?|clothes|clothing|looks?|wear|dinners?|lunch(?:es)?|meals?|weekends?|part(?:y|ies)|drinks|do|dos|celebrations?|gatherings?|bash|shows?|concerts?|markets?|fairs?|cards?|decorations?|spirit|jumpers?|sweaters?|knits?|season)\b)`;
/** Occasions, first match wins: "ski trip" is ski, not travel; "birthday party" is a party. */
export const OCCASIONS: Array<[RegExp, string, Season?]> = [
  [/\b(?:ski(?:ing)?|snowboard(?:ing)?)\b/, 'ski', 'WINTER'],
  // Indian English says "marriage" (and "marriage function") for a wedding, and names its days;
  // "a mother of the bride outfit" is for one too.
  [
    /\bweddings?\b|\bbridesmaid\b|\bmother of the (?:bride|groom)\b|\bmarriage (?:functions?|ceremony|party|reception)\b|\b(?:for|to|at) (?:a |the |my |our |his |her |their )?(?:[a-z]+'s )?marriage\b|\bshaadi\b|\bmehn?di\b|\bmehendi\b|\bsangeet\b|\bhaldi\b/,
    'wedding',
  ],
  // A baby's blessing: christening, baptism, naming day, first communion.
  [
    // "her communion", "my son's confirmation" (an order's confirmation is no such day).
    /\bchristenings?\b|\bbaptisms?\b|\bnaming (?:day|ceremony)\b|\bcommunions?\b|\b(?:first|holy|her|his|their|my|our|(?:daughter|son|grandson|granddaughter|niece|nephew|godson|goddaughter)'?s) confirmation\b/,
    'christening',
  ],
  [/\bjob interview|\binterviews?\b/, 'interview'],
  [/\bprom\b|\bhomecoming\b/, 'prom', 'SPRING'],
  [/\bgraduation\b|\bgrad\b/, 'graduation'],
  [/\bfuneral\b|\bmemorial\b/, 'funeral'],
  [/\bdate night\b|\bon a date\b|\bfor a date\b|\bfirst date\b|\bdate\b/, 'date'],
  // A birthday present is a gift, no party to dress for; Indian English's "a function" is a party.
  // "the school disco", "a school dance" are parties, not school days.
  [
    /\b(?:parties|party|discos?|school dances?|clubbing|birthday(?! (?:presents?|gifts?|pressies?|money)\b)|hen (?:do|night)|stag (?:do|night)|bachelorette)\b|\b(?:for|to|at) (?:a |the |my |our |this |that |an )?(?:family |office |school |small |big )?functions?\b/,
    'party',
  ],
  [/\bchristmas\b|\bxmas\b|\bholiday season\b|\bnew year'?s? eve\b|\bhanukkah\b/, 'holiday', 'WINTER'],
  // Festivals of other faiths and calendars, in whatever month they fall.
  [
    /\beid\b|\beid al[ -](?:fitr|adha)\b|\bdiwali\b|\bholi\b|\b(?:lunar|chinese) new year\b|\brosh hashanah\b|\bpassover\b|\bvaisakhi\b|\bbaisakhi\b|\bnavratri\b|\bramadan\b/,
    'holiday',
  ],
  // Coming-of-age ceremonies are dressed up for.
  [
    /\b(?:bar|bat|b'nai) mitzvahs?\b|\bquincea(?:ñ|n)eras?\b|\bconfirmation (?:service|ceremony|day|mass)\b/,
    'formal',
  ],
  [/\bback to school\b/, 'school', 'FALL'],
  // "first day at nursery", "a coat for preschool": the little ones' school.
  [/\bschool\b|\bclass(?:es)?\b|\b(?:at|to|for|starting) (?:nursery|pre-?school)\b/, 'school'],
  // "a new job", "my waitressing job" ("job interview" is read above); "how does this work", "how
  // approvals work", "will that work", "it doesn't work" use the verb, no place of work ("how to
  // dress for work" is one). After "does", "will", "this" or "that" the verb ends the clause or is
  // followed by how it works ("will that work for you", "does it work with"); followed by a noun
  // or a place it is work ("this work conference", "does work experience", "will work at a bank").
  [
    /\b(?:(?<!\b(?:how (?!to\b)(?:\S+ ){0,3}(?!(?:to|for|at|from|into|my|our|his|her|their|your|the|a|new)\b)\S+) )(?:(?<!\b(?:does|do|did|doesnt|doesn't|dont|don't|didnt|didn't|will|wont|won't|would|might|it|this|that) )work|work(?! *$| [.,]| (?:for (?:me|you|us|him|her|them|it|this|that)|with|on|out|properly|ok|okay|well|if|when|together|here|now|again|anymore|any more)\b))(?! out\b)|office|business|meetings?|jobs?)\b/,
    'work',
  ],
  [/\bblack tie\b|\bformal\b|\bgala\b/, 'formal'],
  [/\bbeach\b|\bpool\b|\bseaside\b/, 'beach', 'SUMMER'],
  [/\bhik(?:e|es|ing)\b|\bcamping\b|\btrekking\b/, 'hiking'],
  // A sport's "season" is a time of year and a "climbing frame" a playground; "potty training" no
  // sport, nor a baseball cap, ballet flats or Boxing Day.
  [
    /(?<!\b(?:potty|toilet) )\b(?:gym|workouts?|running|jogging|sports?|soccer|football|basketball|tennis(?! shoes?\b)|training|pe class|pe|yoga(?! pants)|pilates|golf|cycling|biking|hockey|rugby|volleyball|cricket|climbing|karate|judo|martial arts|netball|baseball(?! caps?| hats?)|softball|lacrosse|badminton|athletics|gymnastics|ballet(?! flats?)|taekwondo|boxing(?! day))\b(?! (?:seasons?|frames?)\b)/,
    'sport',
  ],
  [/\bcasual\b|\beveryday\b/, 'casual'],
  // British "on holiday" / "for our holiday" is a trip; "the holiday season" is Christmas (above).
  [
    new RegExp(
      String.raw`\btrips?\b|\bvacation\b|\btravel(?:ling|ing)?\b|\b(?:on|for|going on|off on) (?:a |an |our |the |my |their |his |her |summer |family |hot |sunny |warm |beach |long |short |big )*holidays?\b${HOLIDAY_THING}`,
    ),
    'travel',
  ],
];

const MONTHS: Array<[string, Season]> = [
  ['january', 'WINTER'],
  ['february', 'WINTER'],
  ['march', 'SPRING'],
  ['april', 'SPRING'],
  ['may', 'SPRING'],
  ['june', 'SUMMER'],
  ['july', 'SUMMER'],
  ['august', 'SUMMER'],
  ['september', 'FALL'],
  ['october', 'FALL'],
  ['november', 'FALL'],
  ['december', 'WINTER'],
];

/** Seasons named, and those weather implies. */
export const SEASON_HINTS: Array<[RegExp, Season]> = [
  [/\bspring(?:time)?\b/, 'SPRING'],
  [
    new RegExp(
      String.raw`\bsummer(?:y|time)?\b|\bheat ?wave\b|\b(?:super |really |so )?hot (?:out|outside|weather|days?|countr(?:y|ies)|places?|climates?)\b|\bhot holidays?\b${HOLIDAY_THING}|\bwhen it'?s (?:super |really |so )?hot\b|\bsunny\b|\bfor the sun\b|\bin the sun\b|\b(?:going to be|gonna be|it'?s|it is|will be|getting) (?:really |so |absolutely )?(?:boiling|scorching|roasting|baking|sweltering)\b|\b(?:hot|boiling|scorching|roasting) (?:here|where (?:we|i|they|he|she) (?:live|lives|are|is))\b|\b(?:live|living|lives) somewhere (?:hot|warm)\b|\b(?:for|in|during|with) (?:the |this |all this |all the )?heat\b(?![ -]?(?:resistant|proof|packs?|pads?|press|transfers?|tech|gun|rash|reflective|reflecting|retaining|retention|insulat(?:ed|ing|ion)|sealed|rounds?|races?|runs?|of (?:the |a |an )?(?:match|game|battle|moment|race|competition|contest|final|fight|argument|kitchen|oven))\b)`,
    ),
    'SUMMER',
  ],
  [/\b(?:fall|autumn(?:al)?)\b|\b(?:getting|turning) (?:a bit |a lot |much )?cooler\b/, 'FALL'],
  [
    /\bwint(?:er|ry)\b|\bsnow(?:y|ing|s)?\b|\bfreezing\b|\bcold (?:weather|days?|out)\b|\bwhen it'?s (?:super |really |so )?cold\b|\bicy\b|\b(?:it'?s|it is|getting|turning|gets|got|going to be|gonna be)(?: (?:a lot|much|a bit|really|so|very|way))? (?:colder|chilly|chillier|nippy|nippier|parky)\b/,
    'WINTER',
  ],
  // Warm clothes ("something warmer", "a warm coat", "thermals") are for the cold ("not too warm",
  // "too warm" say the opposite, no season); warm weather
  // ("warm days", "when it's warm") is summer's; "warm colours" are a palette, no season.
  [
    new RegExp(
      String.raw`\bwarm (?:weather|days?|climates?|countr(?:y|ies)|places?|out(?:side)?|spells?)\b|\bwarm holidays?\b${HOLIDAY_THING}|\bwhen it'?s (?:super |really |so )?warm\b`,
    ),
    'SUMMER',
  ],
  [
    new RegExp(
      String.raw`\b(?<!it'?s (?:super |really |so )?)(?<!\b(?:not|nothing|isn'?t|too|overly)(?: too| so| very| overly)? )warm(?:er|est)?\b(?! (?:weather|days?|climates?|countr(?:y|ies)|places?|out(?:side)?|spells?|colou?rs?|tones?|shades?)\b)(?! holidays?\b${HOLIDAY_THING})|\btherm(?:al|als)\b`,
    ),
    'WINTER',
  ],
];

/** Seasons of the calendar: months and holidays (brief/climate.ts turns them round in the south). */
export const CALENDAR_HINTS: Array<[RegExp, Season]> = [
  [/\beaster\b/, 'SPRING'],
  [/\bhalloween\b|\bthanksgiving\b/, 'FALL'],
  [/\bchristmas\b|\bxmas\b|\bnew year'?s? eve\b|\bhanukkah\b/, 'WINTER'],
  // "may" is also a verb: only "in may" or "may <number>" is the month.
  ...MONTHS.map(([m, s]): [RegExp, Season] =>
    m === 'may'
      ? [/\b(?:in|for|this|next|early|late) may\b/, s]
      : [new RegExp(`\\b${m}\\b|\\b${m.slice(0, 3)}\\b(?!\\w)`), s],
  ),
];

/**
 * Brands that are everyday words too ("next week", "a gap year", "mango", "vans"): read when said
 * no to ("not from next"), never as a brand asked for.
 */
export const COMMON_WORD_BRANDS = new Set([
  'next',
  'gap',
  'target',
  'champion',
  'mango',
  'vans',
  'hm',
  'columbia',
  'crocs',
  'ugg',
  'uggs',
]);

export const BRANDS = [
  'nike',
  'adidas',
  'puma',
  'reebok',
  'new balance',
  'converse',
  'vans',
  'shein',
  'zara',
  'h&m',
  'h and m',
  'gap',
  'old navy',
  'uniqlo',
  'primark',
  'levis',
  "levi's",
  'levi',
  'north face',
  'the north face',
  'patagonia',
  'columbia',
  'under armour',
  'skechers',
  'crocs',
  'ugg',
  'uggs',
  'dr martens',
  'doc martens',
  'timberland',
  'asos',
  'gucci',
  'fila',
  'champion',
  'hollister',
  'abercrombie',
  'american eagle',
  'lululemon',
  'mango',
  'next',
  'boden',
  'hm',
  'temu',
  'fashion nova',
  'forever 21',
  'target',
  'walmart',
  'kohls',
  'asics',
  'hoka',
  'birkenstock',
];
