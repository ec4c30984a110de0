import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { CLARIFY, OFF_TOPIC } from '../src/domain/style-reply.ts';
import { lastStep } from './stub-stylist.ts';

// Round 17: the most common shapes families type, read by a new set of families.

const chat = lastStep;

describe('a count of things', () => {
  it('"max 2 items", "up to 3 tops", "no more than 2 pairs" is no price', async () => {
    expect((await chat('max 2 items, tshirts for my son')).brief).toEqual({
      itemKinds: ['t-shirt'],
      categories: ['TOP'],
    });
    expect((await chat('no more than 3 items, jeans under 40')).brief.maxPrice).toBe(40);
    for (const text of [
      'up to 3 tops for my daughter',
      'up to 2 dresses',
      'jeans, no more than 2 pairs',
      'max 9 tops',
    ]) {
      expect(readMessage(text).price, text).toEqual({});
      expect(parseConstraints(text).maxPrice, text).toBeUndefined();
    }
    expect(readMessage('show me up to 5 options under 30').price).toEqual({ maxPrice: 30 });
    expect(parseConstraints('no more than 3 items, jeans under 40').maxPrice).toBe(40);
  });

  it('a price beside a count or a sign is still the price', () => {
    for (const [text, maxPrice] of [
      ['£5 socks', 5],
      ['socks for £5', 5],
      ['socks 5 quid', 5],
      ['tops max 9', 9],
      ['jeans max 40', 40],
      ['a dress up to 80', 80],
      ['up to 40 for a dress', 40],
      ['2 tops under 15', 15],
      ['3 pairs of socks under 8', 8],
      ['hoodies for 2 kids under 25', 25],
      ['a hat under 9', 9],
      ['gloves max 8', 8],
      ['a scarf, max 8 pounds', 8],
      ['i want 2 tops max 15 each', 15],
      ['2 pairs of jeans up to 50', 50],
    ] as const) {
      expect(readMessage(text).price.maxPrice, text).toBe(maxPrice);
      expect(parseConstraints(text).maxPrice, text).toBe(maxPrice);
    }
    expect(readMessage('up to 2 sizes bigger').sizeStep).toBe(1);
  });
});

describe('what is on sale', () => {
  it('"what’s on sale", "any deals today?" ask what to shop for, not the off-topic reply', async () => {
    for (const text of [
      'what’s on sale',
      'whats on sale at the moment',
      'what’s in the sale',
      'any deals today?',
      'what’s trending',
      'what have you got',
      'what’s popular right now',
    ]) {
      expect(readMessage(text).intent, text).toBe('clarify');
    }
    expect((await chat('what’s on sale')).decision).toMatchObject({ kind: 'reply', text: CLARIFY });
    // Outside clothing it is still declined.
    for (const text of [
      'any deals on flights',
      'the sales assistant was rude',
      'can you help with my maths homework',
      'what’s the weather tomorrow',
      'tell me a joke',
      'how does this work',
      'what time is it',
      'recipe for lasagne',
    ])
      expect(readMessage(text).intent, text).toBe('offtopic');
    expect((await chat('tell me a joke')).decision).toMatchObject({ kind: 'reply', text: OFF_TOPIC });
    expect(readMessage('hello').intent).toBe('clarify');
    expect(readMessage('thanks').intent).toBe('thanks');
  });
});

describe('another size asked of what was shown', () => {
  it('"in 11?", "have you got it in 11?", "do you have them in 8" is the size in the brief’s system', async () => {
    expect((await chat('a hoodie for my son age 10', 'in 11?')).brief.sizes).toEqual(['KIDS 11']);
    expect((await chat('a hoodie for my son age 10', 'have you got it in 11?')).brief.sizes).toEqual([
      'KIDS 11',
    ]);
    expect((await chat('trainers size 7', 'do you have them in 8')).brief.sizes).toEqual(['8']);
    expect((await chat('a dress size 12', 'have it in 14?')).brief.sizes).toEqual(['14']);
    expect((await chat('jeans 32 waist', 'in 34?')).brief.sizes).toEqual(['34']);
  });

  it('"in 11-12?", "what about 11-12", "7-8?": both sizes of the pair', async () => {
    for (const text of ['in 11-12?', '11-12 please', 'what about 11-12'])
      expect((await chat('a hoodie for my son age 10', text)).brief, text).toMatchObject({
        itemKinds: ['hoodie'],
        sizes: ['KIDS 11', 'KIDS 12'],
      });
    expect((await chat('a hoodie for my son age 10', 'what about 11-12')).brief.maxPrice).toBeUndefined();
    expect((await chat('trainers size 7', '7-8?')).brief.sizes).toEqual(['7', '8']);
    expect((await chat('a dress size 12', '12-14')).brief.sizes).toEqual(['12', '14']);
  });

  it('a price, a time or a count said the same way is unchanged', async () => {
    expect((await chat('jeans under 40', '30-40')).brief).toEqual({
      itemKinds: ['jeans'],
      categories: ['BOTTOM'],
      maxPrice: 40,
    });
    expect((await chat('a dress under 50', '20-30')).brief.maxPrice).toBe(50);
    expect((await chat('a coat under 80', 'what about 60')).brief.maxPrice).toBe(60);
    expect((await chat('a coat under 80', 'or 70')).brief.maxPrice).toBe(70);
    expect((await chat('trainers size 8', '9')).brief.sizes).toEqual(['9']);
    expect((await chat('trainers size 7', 'or 8')).brief.sizes).toEqual(['7', '8']);
    expect((await chat('a dress size 12', 'in 3 days')).brief.sizes).toEqual(['12']);
    expect((await chat('a hoodie for my son age 10', 'in 2 weeks')).brief.sizes).toEqual(['KIDS 10']);
    expect((await chat('a hoodie for my son age 10', 'make it two')).brief.sizes).toEqual(['KIDS 10']);
    expect((await chat('a hoodie size M', 'in L')).brief.sizes).toEqual(['L']);
    expect((await chat('a coat', 'in 2026')).brief).toEqual({
      itemKinds: ['coat'],
      categories: ['OUTERWEAR'],
    });
  });
});

describe('a women’s size pair', () => {
  it('"size 14-16", "size 8-10" are both sizes', () => {
    expect(readMessage('a coat size 14-16').sizes).toEqual(['14', '16']);
    expect(readMessage('a dress size 8-10 for my wife').sizes).toEqual(['8', '10']);
    expect(readMessage('a coat size 14-16 under 60')).toMatchObject({
      sizes: ['14', '16'],
      price: { maxPrice: 60 },
    });
    // Sizes further apart, odd ones or a half still read as before.
    expect(readMessage('size 8 to 12').sizes).toEqual(['8']);
    expect(readMessage('a jumper size 7 to 9').sizes).toEqual(['7']);
    expect(readMessage('a top size 11-13').sizes).toEqual(['11']);
    // Shoes in every size of the span (round 20): "size 3-5 shoes" is 3, 4 and 5.
    expect(readMessage('size 3-5 shoes').sizes).toEqual(['3', '4', '5']);
    expect(readMessage('trainers size 7-8').sizes).toEqual(['7', '8']);
    expect(readMessage('trainers size 4 to 4.5').sizes).toEqual(['4', '4.5']);
    expect(readMessage('shoes size 6, 40-50 dollars').sizes).toEqual(['6']);
    expect(readMessage('leggings size 12-14 years').sizes).toEqual(['KIDS 12', 'KIDS 13', 'KIDS 14']);
  });
});

describe('underwear', () => {
  it('"knickers", "boxers", "undies", "boxer shorts" are underwear, no shorts', async () => {
    expect((await chat('boxer shorts for my husband')).brief.itemKinds).toEqual(['underwear']);
    for (const text of [
      'undies for my toddler age 3',
      'underwear for my son age 7',
      'briefs for my husband size M',
      'knickers for my daughter age 6',
      'boxers for my husband size L',
    ])
      expect(readMessage(text).kinds, text).toEqual(['underwear']);
    expect((await chat('knickers for my daughter age 6')).searches).toEqual([
      { query: 'underwear', size: 'KIDS 6' },
    ]);
  });

  it('words a letter away are not corrected into it', () => {
    for (const [text, kinds] of [
      ['thermal underwear for skiing', ['base layer']],
      ['long underwear for my son', ['long johns']],
      ['a design brief for a party outfit', []],
      ['a brief case for work', []],
      ['a boxer costume for halloween', ['costume']],
      ['shorts for my son age 8', ['shorts']],
      ['cycling shorts for my daughter', ['shorts']],
      ['pants for my son, 8 years', ['trousers']],
      ['a dress for the parties this christmas', ['dress']],
      ['shoes that fit in the boxes', ['shoes']],
      ['he unties his laces, velcro trainers please', ['sneakers']],
    ] as const)
      expect(readMessage(text).kinds, text).toEqual(kinds);
    expect(readMessage('a dress for the parties this christmas').occasion).toBe('party');
  });
});

describe('a child said with a label’s pair of ages', () => {
  it('"pyjamas for my son 7-8" wants both kids’ sizes', async () => {
    expect((await chat('pyjamas for my son 7-8')).brief).toMatchObject({
      itemKinds: ['pajamas'],
      sizes: ['KIDS 7', 'KIDS 8'],
      forAge: 7,
    });
    for (const [text, sizes] of [
      ['swimwear for my daughter 11-12', ['KIDS 11', 'KIDS 12']],
      ['a coat for my daughter 9-10', ['KIDS 9', 'KIDS 10']],
      ['school trousers for my boy 4-5', ['KIDS 4', 'KIDS 5']],
      ['a dress for my girl 2-3', ['KIDS 2', 'KIDS 3']],
    ] as const)
      expect(readMessage(text).sizes, text).toEqual(sizes);
  });

  it('money, a count, months or a single age beside a child are unchanged', () => {
    expect(readMessage('a coat for my daughter 20-30 pounds')).toMatchObject({
      sizes: [],
      price: { minPrice: 20, maxPrice: 30, currency: 'GBP' },
    });
    expect(readMessage('jeans for my son 10').sizes).toEqual(['KIDS 10']);
    expect(readMessage('a hoodie for my son 3 hoodies').sizes).toEqual([]);
    expect(readMessage('a snowsuit for my son 12-18 months').sizes).toEqual(['12-18M']);
    expect(readMessage('a onesie for my daughter 3-6 months').sizes).toEqual(['3-6M']);
    expect(readMessage('leggings for my daughter age 5-6').sizes).toEqual(['KIDS 5', 'KIDS 6']);
    expect(readMessage('t-shirts for my 3 kids aged 4, 7 and 10').sizes).toEqual([
      'KIDS 4',
      'KIDS 7',
      'KIDS 10',
    ]);
    expect(readMessage('a jumper for my son 10-11 years').sizes).toEqual(['KIDS 10', 'KIDS 11']);
    expect(readMessage('socks for my son 2 pairs').sizes).toEqual([]);
  });
});

describe('occasions said the everyday way', () => {
  it('"a mother of the bride outfit" is for a wedding; "first day at nursery" for school', async () => {
    expect((await chat('a mother of the bride outfit')).brief).toEqual({ occasion: 'wedding' });
    expect(readMessage('mother of the groom dress size 16')).toMatchObject({
      kinds: ['dress'],
      sizes: ['16'],
      occasion: 'wedding',
    });
    expect((await chat('something for first day at nursery')).brief).toEqual({ occasion: 'school' });
    expect(readMessage('a coat for preschool age 3').occasion).toBe('school');
    expect(readMessage('wellies for my toddler starting nursery').occasion).toBe('school');
  });

  it('a mother, a bride or a nursery said otherwise is no occasion', () => {
    for (const text of [
      'a nursery rhyme t-shirt',
      'a dress for my mother',
      'a bride costume for halloween',
      'a rug for the nursery',
    ])
      expect(readMessage(text).occasion, text).toBeUndefined();
    expect(readMessage('a dress for my mother’s birthday').occasion).toBe('party');
  });
});
