import { describe, expect, it } from 'vitest';
import { lastStep } from './stub-stylist.ts';

// Round 25 reviewed: the round's rules where their words mean something else. A size said after
// "but a" or after a child may be judged ("but a 12 would be too big"), a product's number ("a 3
// in 1 jacket") or a time ("a 3 day trip"); a range after a kids' range may be a price, a count or
// a length ("10-12 quid", "2-3 pairs", "3/4 length"); the other colour may be judged for, not
// against ("no a blue dress would be better"); "they're 4 my son" is texted "for".

const chat = lastStep;

describe('a size judged after "but a" is no size asked for', () => {
  it('"but a 12 would be too big", "but a 12 won\'t fit her" ask for no 12', async () => {
    for (const message of [
      'a dress but a 12 would be too big',
      'a 10 is fine but a 12 would be too big',
      "they're nice but a 12 won't fit her",
      'same but a 10 would be too small',
      'a 10 fits but a 12 would be way too big',
    ])
      expect((await chat(message)).brief.sizes ?? [], message).not.toContain(
        message.includes('same but a 10') ? '10' : '12',
      );
    expect((await chat('a coat size 8', 'nice but a 10 is too big')).brief.sizes).not.toContain('10');
    // Judged for, or another size said beside it, the size is still read.
    expect((await chat('a dress but a 12 would be better')).brief.sizes).toEqual(['12']);
    expect((await chat('a coat size 8', 'same but a 10 would be better')).brief.sizes).toEqual(['10']);
    expect((await chat("she's a 10 but a 12 would be too big")).brief.sizes).toEqual(['10']);
    expect((await chat("he's a 32 long")).brief.sizes).toEqual(['32']);
  });
});

describe('a number of the product, a deal or a time is no size', () => {
  it('"my son a 3 in 1 jacket", "but a 2 for 1", "the kids a 3 day trip" have no size', async () => {
    for (const message of [
      'get my son a 3 in 1 jacket',
      'same jacket but a 3 in 1',
      'same again but a 2 for 1 offer',
      'the other one is a 2 for 1',
      'coats for the kids a 3 day trip',
      'outfits for the kids a 4 night holiday',
      'same dress but a 5 minute job',
      'my son a 5 a side football kit',
      'the second one is a 5 star',
      'the first one is a 10 out of 10',
    ])
      expect((await chat(message)).brief.sizes, message).toBeUndefined();
    expect((await chat('same again but a 20 gbp max')).brief).toMatchObject({ maxPrice: 20 });
    expect((await chat('same again but a 20 gbp max')).brief.sizes).toBeUndefined();
    // Words after the size that say what it is for keep it.
    expect((await chat('my son a 10 in trousers')).brief.sizes).toEqual(['10']);
    expect((await chat('the youngest a 1 in shoes')).brief.sizes).toEqual(['1']);
    expect((await chat('same again but a 2 for my son')).brief.sizes).toEqual(['2']);
  });

  it('"my daughter a 7-8" is both sizes of the pair, as "size 7-8" is', async () => {
    expect((await chat('my daughter a 7-8')).brief.sizes).toEqual(['7', '8']);
    expect((await chat('the eldest a 9-10 the youngest a 5-6')).brief.sizes).toEqual(['9', '10', '5', '6']);
    expect((await chat('same but a 6-7')).brief.sizes).toEqual(['6', '7']);
    expect((await chat("she's a 7-8")).brief.sizes).toEqual(['7', '8']);
  });
});

describe("a range after a kids' range that is no kids' size", () => {
  it('"3/4 length", "10-12 quid", "2-3 pairs" are no more ranges', async () => {
    for (const message of [
      'leggings kids 9-10, 3/4 length',
      'leggings kids 9-10 and 3/4 length',
      'socks kids 9-10 and 2-3 pairs',
    ])
      expect((await chat(message)).brief.sizes, message).toEqual(['KIDS 9', 'KIDS 10']);
    expect((await chat('trousers kids 5-6 and 7/8 length')).brief.sizes).toEqual(['KIDS 5', 'KIDS 6']);
    expect((await chat('school trousers kids 7-8, 10-12 quid')).brief).toMatchObject({
      sizes: ['KIDS 7', 'KIDS 8'],
      minPrice: 10,
      maxPrice: 12,
    });
    expect((await chat('t shirts kids 4-5, 2-3 of them')).brief.sizes).toEqual(['KIDS 4', 'KIDS 5']);
    expect((await chat('kids 4-5 and 1-2 day delivery')).brief.sizes).toEqual(['KIDS 4', 'KIDS 5']);
    // A list of ranges is still every range, whatever follows it.
    expect((await chat('kids 3-4 and 5-6 in blue')).brief).toMatchObject({
      sizes: ['KIDS 3', 'KIDS 4', 'KIDS 5', 'KIDS 6'],
      colors: ['blue'],
    });
    expect((await chat('kids 7-8, 9-10 and 11-12')).brief.sizes).toHaveLength(6);
  });
});

describe('the other colour judged for is the colour corrected', () => {
  it('"a red dress no a blue dress would be better" is a blue dress', async () => {
    for (const message of [
      'a red dress no a blue dress would be better',
      'a red dress no a blue dress is better',
      'a red dress no a blue dress looks nicer',
      'a red dress no a blue dress would suit her better',
      'a red dress no a blue dress is what she wants',
      'a red dress no a blue dress would be perfect',
      'a red dress no a blue dress would look lovely on her',
    ]) {
      const { brief } = await chat(message);
      expect(brief.colors, message).toEqual(['blue']);
      expect(brief.excludedColors, message).toBeUndefined();
    }
    expect((await chat('a black coat no a navy coat is smarter')).brief.colors).toEqual(['navy']);
    expect((await chat('a white dress no a cream dress looks better')).brief.colors).toEqual(['cream']);
    expect((await chat('a white shirt no a grey shirt is fine too')).brief.excludedColors).toBeUndefined();
  });

  it('judged against, it keeps the first colour and says no to the other', async () => {
    for (const [message, kept, refused] of [
      ['a red dress no a blue dress is too plain', 'red', 'blue'],
      ["a red dress no a blue dress isn't her style", 'red', 'blue'],
      ['a red dress no a blue dress looks off', 'red', 'blue'],
      ['a red dress no a blue dress is so boring', 'red', 'blue'],
      ['a pink hoodie no a purple hoodie is too babyish', 'pink', 'purple'],
      ['a black coat no a navy coat is too dull', 'black', 'navy'],
      ['a blue dress no a red dress clashes', 'blue', 'red'],
    ] as const) {
      const { brief } = await chat(message);
      expect(brief.colors, message).toEqual([kept]);
      expect(brief.excludedColors, message).toEqual([refused]);
    }
  });
});

describe('"they\'re 4 my son" is texted "for"', () => {
  it('what they are for, not twins of 4', async () => {
    expect((await chat("they're 4 my daughter age 6")).brief).toMatchObject({ sizes: ['KIDS 6'], forAge: 6 });
    expect((await chat('theyre 4 the twins both age 5')).brief).toMatchObject({
      sizes: ['KIDS 5'],
      forAge: 5,
    });
    const { brief } = await chat("they're 4 my son size 10");
    expect(brief.sizes).toEqual(['10']);
    expect(brief.forAge).toBeUndefined();
    expect((await chat('theyre 4 my son')).brief.forAge).toBeUndefined();
    // Another child's age said after: the children's ages.
    for (const message of [
      "they're 4 my son is 6",
      'the twins, theyre 4 my son is 6',
      'they are 4 my son is 6',
    ])
      expect((await chat(message)).brief.sizes, message).toEqual(['KIDS 4', 'KIDS 6']);
    expect((await chat("they're 4 and 6")).brief.sizes).toEqual(['KIDS 4', 'KIDS 6']);
  });
});
