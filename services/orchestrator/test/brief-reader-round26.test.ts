import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { lastStep } from './stub-stylist.ts';

// Round 26: the last reviews' misreadings (two shoe sizes said after the shoes, a colour said
// against another before the item, "the small one" as a child, a size's country in words, the
// heat, an age said "nearly"), then families not yet covered: teenagers texting, partners, school
// uniform lists, sports kits, adaptive clothing, babies and maternity, returns with the same thing
// asked again, and messages that are thanks or no clothing at all.

const chat = lastStep;

describe('two shoe sizes right after the shoes', () => {
  it('"trainers 4 or 5", "boots 8/9", "trainers 3-4 my son" are both sizes', async () => {
    for (const [message, sizes] of [
      ['trainers 4 or 5', ['4', '5']],
      ['trainers 8 or 9', ['8', '9']],
      ['boots 8/9 please', ['8', '9']],
      ['trainers 3-4 my son', ['3', '4']],
      ['school shoes 12 or 13 for my boy', ['12', '13']],
      ['black trainers 5.5 or 6', ['5.5', '6']],
    ] as const)
      expect((await chat(message)).brief.sizes, message).toEqual(sizes);
    // Money, a count, a time or an age after them, or sizes too far apart: no shoe sizes.
    expect((await chat('trainers 3-4 quid')).brief.sizes).toBeUndefined();
    expect((await chat('trainers 2-3 pairs')).brief.sizes).toBeUndefined();
    expect((await chat('boots 1-2 days delivery')).brief.sizes).toBeUndefined();
    expect((await chat('trainers 4 or 6')).brief.sizes).toBeUndefined();
    expect((await chat('trainers 4 or 5 years old')).brief.sizes).toEqual(['KIDS 4', 'KIDS 5']);
    expect((await chat('trainers size 4 or 5')).brief.sizes).toEqual(['4', '5']);
  });
});

describe('a colour said against another before the item', () => {
  it('"a red, not a blue dress", "black no white trainers" ask for the item in the first colour', async () => {
    for (const [message, kind, colour, refused] of [
      ['a red, not a blue dress', 'dress', 'red', 'blue'],
      ['a red not blue dress', 'dress', 'red', 'blue'],
      ['black no white trainers', 'sneakers', 'black', 'white'],
      ['navy not black school shoes', 'shoes', 'navy', 'black'],
      ['a navy not a black school jumper', 'sweater', 'navy', 'black'],
      ['i want red not light blue trainers', 'sneakers', 'red', 'blue'],
    ] as const) {
      const { brief } = await chat(message);
      expect(brief.itemKinds, message).toEqual([kind]);
      expect(brief.colors, message).toEqual([colour]);
      expect(brief.excludedColors, message).toEqual([refused]);
      expect(brief.excludedKinds, message).toBeUndefined();
    }
    // The first colour said no to, or with an item of its own: the item after is said no to.
    expect((await chat('a black dress no white trainers')).brief).toMatchObject({
      itemKinds: ['dress'],
      excludedKinds: ['sneakers'],
    });
    for (const message of [
      'no pink no purple dresses',
      'not red not blue dress',
      'hates pink not purple dresses',
    ])
      expect((await chat(message)).brief.excludedKinds, message).toEqual(['dress']);
    expect((await chat('red and not blue trainers')).brief.excludedKinds).toEqual(['sneakers']);
    expect((await chat('black no white')).brief).toEqual({ colors: ['black'], excludedColors: ['white'] });
    expect((await chat('white no logo trainers')).brief).toMatchObject({
      itemKinds: ['sneakers'],
      colors: ['white'],
    });
  });
});

describe('"the small one" is a child, not size S', () => {
  it('"the small one a 13", "the small one is a 13" are size 13 only', async () => {
    for (const message of ['the small one a 13', 'the small one is a 13', "the small one's a 13"])
      expect((await chat(message)).brief.sizes, message).toEqual(['13']);
    // A small one with no size of its own after it is still size S.
    expect((await chat('the small one please')).brief.sizes).toEqual(['S']);
    expect((await chat('a small one for my son')).brief.sizes).toEqual(['S']);
    expect((await chat('a hoodie in small')).brief.sizes).toEqual(['S']);
  });
});

describe("a size's country said in words or after the figure", () => {
  it('"size 10 US", "38 european", "eu size 38" keep the country', async () => {
    for (const [message, size] of [
      ['trousers size 10 US', 'US 10'],
      ['jeans size 10 american', 'US 10'],
      ['trousers us size 10', 'US 10'],
      ['shoes size 38 european', 'EU 38'],
      ['boots 38 european', 'EU 38'],
      ['shoes european size 38', 'EU 38'],
      ['shoes eu size 38', 'EU 38'],
      ['uk size 5 trainers', 'UK 5'],
    ] as const)
      expect((await chat(message)).brief.sizes, message).toEqual([size]);
    // "us" the pronoun is no country.
    expect((await chat('find us size 10 boots')).brief.sizes).toEqual(['10']);
    expect((await chat('shoes for us size 5 and 6')).brief.sizes).toEqual(['5', '6']);
    expect((await chat('shoes size 38 eu')).brief.sizes).toEqual(['EU 38']);
    expect((await chat('trousers size 10')).brief.sizes).toEqual(['10']);
    expect(parseConstraints('trousers size 10 US').sizes).toEqual(['US 10']);
  });
});

describe('the heat is summer', () => {
  it('"something light for the heat", "a dress for the heat" are for summer', async () => {
    for (const message of [
      'something light for the heat',
      'a dress for the heat',
      'something cool in this heat',
    ])
      expect((await chat(message)).brief.seasons, message).toEqual(['SUMMER']);
    expect(parseConstraints('shorts for the heat in spain').season).toBe('SUMMER');
    expect((await chat('heat resistant gloves')).brief.seasons).toBeUndefined();
    expect((await chat('a coat for my son')).brief.seasons).toBeUndefined();
  });
});

describe('an age said "nearly", "almost" or "about"', () => {
  it('"hes nearly 4", "my son is almost 7", "she\'s about 6" are ages, never a price', async () => {
    for (const [message, age] of [
      ['hes nearly 4', 4],
      ["she's nearly 4", 4],
      ['my son is nearly 7', 7],
      ["he's almost 5 needs a coat", 5],
      ["she's about 6", 6],
    ] as const) {
      const { brief } = await chat(message);
      expect(brief.forAge, message).toBe(age);
      expect(brief.maxPrice, message).toBeUndefined();
    }
    expect(parseConstraints("she's about 6").maxPrice).toBeUndefined();
    // "about" before money is still a price; "nearly a 4" is a size worn.
    expect((await chat('a coat about 40')).brief).toMatchObject({ minPrice: 32, maxPrice: 48 });
    expect((await chat('a coat for my son around 40')).brief.forAge).toBeUndefined();
    expect((await chat("she's nearly 4 foot tall")).brief.forAge).toBeUndefined();
    expect((await chat("he's nearly a 4")).brief).toMatchObject({ sizes: ['4'] });
  });
});

describe('a return said with the same thing asked for again', () => {
  it('"can you find it in a 10 instead", "same trainers in a 5" search', async () => {
    for (const message of [
      'i need to return the dress, can you find it in a 10 instead',
      'want to return the coat, do you have it in a bigger size',
      'need to send them back, same trainers in a 5 please',
    ])
      expect((await chat(message)).kind, message).toBe('tools');
    expect((await chat('i need to return the dress, can you find it in a 10 instead')).brief).toMatchObject({
      itemKinds: ['dress'],
      sizes: ['10'],
    });
    // The return, the refund or the order alone stays outside the stylist's reach.
    for (const message of [
      'can i return the dress',
      'how do i return the size 10 dress',
      'can i get a refund on the size 10 dress',
      'i want to return the coat it was too small',
      'where is my order of the size 8 trainers',
      "can i return them if they don't fit? size 6 trainers",
    ])
      expect(readMessage(message).intent, message).toBe('offtopic');
  });
});

describe('things that are not clothes', () => {
  it('"looking for a sofa", "i need a lawnmower", "shopping for a new lamp" are declined', async () => {
    for (const message of [
      'looking for a sofa for the living room',
      'i need a lawnmower',
      'shopping for a new lamp',
      'looking for a desk for my son',
    ]) {
      expect(readMessage(message).intent, message).toBe('offtopic');
      expect((await chat(message)).brief, message).toEqual({});
    }
    // Clothes for where they are worn, or named after a thing, are still asked for.
    expect(readMessage('looking for a coat for the pram').intent).toBe('search');
    expect(readMessage('a dress for my daughter to wear at the dining table').intent).toBe('search');
    expect(readMessage('looking for a lego t-shirt').intent).toBe('search');
    expect(readMessage('looking for something for my son').intent).toBe('clarify');
  });
});

describe('pleased with what was shown', () => {
  it('"love it", "nice one" are thanks, not off-topic nor a new question', () => {
    for (const message of ['love it', 'nice one', 'love them!', 'oh nice one thanks'])
      expect(readMessage(message).intent, message).toBe('thanks');
    expect(readMessage('i love it but in blue').intent).toBe('search');
    expect(readMessage('nice one for my son?').intent).toBe('clarify');
    expect(readMessage('something nice').intent).toBe('clarify');
    expect(readMessage('what do you think?').intent).toBe('offtopic');
  });
});

describe('"not too warm" asks for no winter', () => {
  it('"pyjamas not too warm", "a coat not too warm" have no season', async () => {
    for (const message of [
      'pyjamas for my son 9-10 not too warm',
      'a coat not too warm',
      'its too warm for a coat',
    ])
      expect((await chat(message)).brief.seasons, message).toBeUndefined();
    expect((await chat('a warm coat')).brief.seasons).toEqual(['WINTER']);
    expect((await chat('something warm')).brief.seasons).toEqual(['WINTER']);
    expect((await chat('something warmer for my son')).brief.seasons).toEqual(['WINTER']);
    expect((await chat('a jumper, really warm')).brief.seasons).toEqual(['WINTER']);
  });
});

describe('families read right already (kept)', () => {
  it('teenagers, uniform lists, sports kits, adaptive wear and babies', async () => {
    expect((await chat('need a hoodie for sixth form, black, 25 max')).brief).toEqual({
      itemKinds: ['hoodie'],
      categories: ['TOP'],
      maxPrice: 25,
      colors: ['black'],
    });
    expect((await chat('3 white polo shirts age 5-6')).brief).toMatchObject({
      itemKinds: ['polo'],
      sizes: ['KIDS 5', 'KIDS 6'],
      colors: ['white'],
    });
    expect((await chat('football boots size 4 for my son')).brief).toMatchObject({
      sizes: ['4'],
      occasion: 'sport',
    });
    expect((await chat('seamless socks for my daughter size 12 kids')).brief.sizes).toEqual(['KIDS 12']);
    expect((await chat('baby vests 0-3 months')).brief.sizes).toEqual(['0-3M']);
    expect((await chat('up to 1 month baby grow')).brief.sizes).toEqual(['NEWBORN']);
    expect((await chat('nursing bra 34c')).brief).toMatchObject({
      itemKinds: ['maternity bra'],
      sizes: ['34C'],
    });
    expect(readMessage('thanks!').intent).toBe('thanks');
    expect(readMessage('how are you').intent).toBe('offtopic');
  });
});
