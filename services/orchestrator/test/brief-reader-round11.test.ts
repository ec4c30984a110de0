import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { AFTER_SALES_REPLY, OFF_TOPIC, WEIGHT_LOSS_REPLY } from '../src/domain/style-reply.ts';
import { lastStep } from './stub-stylist.ts';

// Round 11: requests as families in a hurry, dictating, or writing in a second language send them:
// a child's height for the size ("she's 140 cm", "size 128"), what a child will not wear ("she
// hates pink"), "a dark coat", a waist said after the item ("jeans 32"), "a bit over 100", "<40",
// a count in words ("make it two"), questions after the sale ("can i return the coat?") and
// requests the stylist must not serve as shopping (a diet, a poem). None from the corpus.

const chat = lastStep;

describe('a child’s height is the kids’ size', () => {
  it('"she’s 140 cm", "1.40 m", "size 152": European kids’ sizes are heights', async () => {
    const { brief, searches } = await chat('need coat for dd she’s 140 cm');
    expect(brief).toMatchObject({ itemKinds: ['coat'], sizes: ['KIDS 10'] });
    expect(searches).toEqual([{ query: 'coat', size: 'KIDS 10' }]);
    expect(readMessage('my son is 140 cm tall and needs a raincoat').sizes).toEqual(['KIDS 10']);
    expect(readMessage('she is a hundred and forty centimetres').sizes).toEqual(['KIDS 10']);
    expect(readMessage('we need trousers for boy size 152').sizes).toEqual(['KIDS 12']);
    expect(readMessage('my daughter is size 128, she need dress for party').sizes).toEqual(['KIDS 8']);
    expect(readMessage('my daughter needs leggings, she is 116 cm').sizes).toEqual(['KIDS 6']);
    expect(parseConstraints('size 164 joggers for my son').sizes).toEqual(['KIDS 14']);
    // The height decides over the age: a tall ten year old.
    expect(readMessage('a shirt for my grandson, he is 10 and 152 cm').sizes).toEqual(['KIDS 12']);
    // An adult’s height, a length, or a figure no kids’ size is, is none.
    expect(readMessage('i’m 160cm, a dress').sizes).toEqual([]);
    expect(readMessage('a scarf 150 cm long').sizes).toEqual([]);
    expect(readMessage('a coat for my son, 10').sizes).toEqual(['KIDS 10']);
  });

  it('said after the item, the height sizes it', async () => {
    const { brief, searches } = await chat('a coat for my daughter', 'she’s 140 cm');
    expect(brief).toMatchObject({ itemKinds: ['coat'], sizes: ['KIDS 10'] });
    expect(searches).toEqual([{ query: 'coat', size: 'KIDS 10' }]);
  });

  it('"1.40 m" is no age of 1', () => {
    const son = readMessage('my son is 1.40 m');
    expect(son.forAge).toBeUndefined();
    expect(son.sizes).toEqual(['KIDS 10']);
    expect(readMessage('my son is 4').forAge).toBe(4);
  });

  it('"about 152 centimetres", "1m50" are no price', () => {
    expect(readMessage('a shirt for my grandson, he is about 152 centimetres').price).toEqual({});
    expect(readMessage('he’s about 1m50, jeans please').price).toEqual({});
    expect(parseConstraints('a shirt for my grandson, he is about 152 centimetres').maxPrice).toBeUndefined();
    expect(readMessage('a shirt about 15').price).toEqual({ minPrice: 12, maxPrice: 18 });
  });
});

describe('what a child will not wear', () => {
  it('"she doesn’t like pink" says no to pink ("like" is no filler after a negation)', async () => {
    const { brief, searches } = await chat('she doesnt like red or orange, a party dress size 10');
    expect(brief).toMatchObject({ itemKinds: ['dress'], excludedColors: ['red', 'orange'], sizes: ['10'] });
    expect(brief.colors).toBeUndefined();
    expect(searches).toEqual([{ query: 'dress', size: '10', excludeColors: ['red', 'orange'] }]);
    expect(readMessage('he does not like black, a coat')).toMatchObject({
      colors: [],
      excludedColors: ['black'],
    });
    expect(readMessage('she doesn’t like pink').excludedColors).toEqual(['pink']);
    expect(parseConstraints('she doesn’t like pink, a coat').colors).toBeUndefined();
  });

  it('"hates", "can’t stand", "won’t wear" say no too', async () => {
    const { brief } = await chat('looking for a winter coat for my daughter she is eight and she hates pink');
    expect(brief).toMatchObject({ itemKinds: ['coat'], excludedColors: ['pink'], sizes: ['KIDS 8'] });
    expect(brief.colors).toBeUndefined();
    expect(readMessage('my son can’t stand jeans, joggers instead')).toMatchObject({
      kinds: ['joggers'],
      excludedKinds: ['jeans'],
    });
    expect(readMessage('she won’t wear dresses, a skirt maybe')).toMatchObject({
      kinds: ['skirt'],
      excludedKinds: ['dress'],
    });
    // Liking stays liking.
    expect(readMessage('she would like pink').colors).toEqual(['pink']);
  });
});

describe('"a dark coat": dark without a colour is the dark colours', () => {
  it('dark before an item, alone, or as a colour', async () => {
    const dark = ['black', 'navy', 'grey', 'burgundy'];
    const { brief, searches } = await chat('a dark coat for my husband XL');
    expect(brief).toMatchObject({ itemKinds: ['coat'], sizes: ['XL'], colors: dark });
    expect(searches).toEqual([{ query: 'coat', colors: dark, size: 'XL' }]);
    expect(readMessage('something dark for a funeral').colors).toEqual(dark);
    expect(parseConstraints('a dark coat').colors).toEqual(dark);
    const after = await chat('a coat for my dd', 'dark please');
    expect(after.brief).toMatchObject({ itemKinds: ['coat'], colors: dark });
    // A dark shade is that colour, and a wash is no colour.
    expect(readMessage('a dark blue dress').colors).toEqual(['navy']);
    expect(readMessage('dark green cargo shorts').colors).toEqual(['green']);
    expect(readMessage('dark wash jeans').colors).toEqual([]);
  });

  it('"a dark colour" is the family too', () => {
    expect(readMessage('can you find me a coat in a dark colour for work').colors).toEqual([
      'black',
      'navy',
      'grey',
      'burgundy',
    ]);
  });
});

describe('sizes as the shop or the family says them', () => {
  it('"jeans 32": a waist right after trousers, never a price or a count', async () => {
    const { brief, searches } = await chat('jeans 32 for my son');
    expect(brief).toMatchObject({ itemKinds: ['jeans'], sizes: ['32'] });
    expect(searches).toEqual([{ query: 'jeans', size: '32' }]);
    expect(readMessage('chinos, 34 please').sizes).toEqual(['34']);
    expect(parseConstraints('jeans 32 for my son').sizes).toEqual(['32']);
    for (const text of [
      'jeans 30 max',
      'jeans 40 quid',
      'jeans 30 or less',
      'jeans 30 for both',
      'jeans 50ish',
    ])
      expect(readMessage(text).sizes).toEqual([]);
  });

  it('"ladies 14", "mens 10", "shoes number 34"', () => {
    expect(readMessage('an anorak for walking, waterproof, ladies 14').sizes).toEqual(['14']);
    expect(readMessage('mens 9 chelsea boots under 100')).toMatchObject({
      sizes: ['9'],
      price: { maxPrice: 100 },
    });
    expect(readMessage('please I want shoes for girl number 34').sizes).toEqual(['34']);
    expect(parseConstraints('womens 12 dress').sizes).toEqual(['12']);
    // Money and other numbers stay what they are.
    expect(readMessage('mens 40 quid').sizes).toEqual([]);
    expect(readMessage('a dress, call me on number 07').sizes).toEqual([]);
  });
});

describe('sizes typed as a list', () => {
  it('"for school, 9-10 yrs": a range of years in its own clause after the item is kids’ sizes', async () => {
    const { brief, searches } = await chat('grey trousers for school, 9-10 yrs');
    expect(brief).toMatchObject({ itemKinds: ['trousers'], sizes: ['KIDS 9', 'KIDS 10'], colors: ['grey'] });
    expect(searches.map((s) => s.size)).toEqual(['KIDS 9', 'KIDS 10']);
    expect(parseConstraints('grey trousers for school, 9-10 yrs').sizes).toEqual(['KIDS 9', 'KIDS 10']);
    // A duration is none.
    expect(readMessage('a coat that lasts 2-3 years').sizes).toEqual([]);
  });

  it('"for my dad, L": a letter alone in its clause is the size', async () => {
    const { brief } = await chat('a warm jumper for my dad, L');
    expect(brief).toMatchObject({ itemKinds: ['sweater'], sizes: ['L'] });
    expect(readMessage('a t-shirt, s, please').sizes).toEqual(['S']);
    expect(readMessage('size m, l').sizes).toEqual(['M', 'L']);
    expect(readMessage('m&s jumper').sizes).toEqual([]);
  });
});

describe('prices as said in a hurry', () => {
  it('"a bit over 100" is a ceiling a little above, never a floor', async () => {
    const { brief, searches } = await chat('a bit over 100 for a good winter coat');
    expect(brief).toMatchObject({ itemKinds: ['coat'], maxPrice: 120 });
    expect(brief.minPrice).toBeUndefined();
    expect(searches).toEqual([{ query: 'coat', maxPrice: 120, season: 'WINTER' }]);
    const after = await chat('trainers size 5', 'hmm a bit over 50 is ok');
    expect(after.brief).toMatchObject({ sizes: ['5'], maxPrice: 60 });
    expect(after.brief.minPrice).toBeUndefined();
    expect(readMessage('just over £80 for boots').price).toEqual({ maxPrice: 96, currency: 'GBP' });
    expect(parseConstraints('a bit over 100 for a good winter coat')).toMatchObject({ maxPrice: 120 });
    expect(parseConstraints('a bit over 100 for a good winter coat').minPrice).toBeUndefined();
    // "over 100" is still a floor.
    expect(readMessage('a coat over 100').price).toEqual({ minPrice: 100 });
  });

  it('"<40" is a ceiling in the brief as in the mission’s constraints', async () => {
    const { brief } = await chat('hoodie for teen boy medium, grey or navy, <40');
    expect(brief).toMatchObject({ itemKinds: ['hoodie'], sizes: ['M'], maxPrice: 40 });
    expect(readMessage('trousers <= 60').price).toEqual({ maxPrice: 60 });
  });

  it('"make it two" is how many: no size, no price', async () => {
    const { brief, searches } = await chat('school polo shirts age 6', 'make it two');
    expect(brief).toMatchObject({ itemKinds: ['polo'], sizes: ['KIDS 6'] });
    expect(searches).toEqual([{ query: 'polo', size: 'KIDS 6' }]);
    expect(readMessage('make it two').sizeRetry).toBeUndefined();
    // A size said again is still one.
    expect(readMessage('make it a 2').sizeRetry).toBe('2');
  });
});

describe('questions after the sale and requests that are no shopping', () => {
  it.each([
    'can I return the coat?',
    'how do I return the jeans I bought',
    'i need to return the trainers they are too small',
    'where is my order',
    'has my order shipped yet',
    'when will my parcel arrive',
  ])('"%s" searches nothing and buys nothing', async (text) => {
    expect(readMessage(text).intent).toBe('offtopic');
    const { kind, decision, searches } = await chat(text);
    expect(kind).toBe('reply');
    expect(searches).toEqual([]);
    expect(decision.kind === 'reply' && decision.text).toBe(AFTER_SALES_REPLY);
  });

  it('a return asked mid-conversation keeps the brief and searches nothing', async () => {
    const { kind, searches } = await chat('a red coat for my daughter size 10', 'can I return the coat?');
    expect(kind).toBe('reply');
    expect(searches).toEqual([]);
    // Coming back from school, a "return" trip: shopping.
    expect(readMessage('a coat for the return trip from school').intent).toBe('search');
  });

  it('asking to make a child lose weight gets no search; having lost weight is shopping', async () => {
    const { kind, decision, searches } = await chat('how do I make my daughter lose weight for her dress');
    expect(kind).toBe('reply');
    expect(searches).toEqual([]);
    expect(decision.kind === 'reply' && decision.text).toBe(WEIGHT_LOSS_REPLY);
    expect(readMessage('my daughter has lost weight, needs smaller jeans size 8')).toMatchObject({
      intent: 'search',
      kinds: ['jeans'],
      sizes: ['8'],
    });
  });

  it('"write me a poem about socks" is no search for socks', async () => {
    const { kind, decision, searches } = await chat('write me a poem about socks');
    expect(kind).toBe('reply');
    expect(searches).toEqual([]);
    expect(decision.kind === 'reply' && decision.text).toBe(OFF_TOPIC);
    expect(readMessage('socks with a poem printed on them').intent).toBe('search');
  });
});
