import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { lastStep } from './stub-stylist.ts';

// Round 18: new families (a voice client, a new baby, a large family, a teenager, a phone typed
// one-handed) and what the reader first misread.

const chat = lastStep;

describe('pounds and pence said apart', () => {
  it('"twelve pounds fifty", "nineteen ninety nine" after a price word are 12.50 and 19.99', async () => {
    expect((await chat('a top under twelve pounds fifty')).brief).toEqual({
      itemKinds: ['top'],
      categories: ['TOP'],
      maxPrice: 12.5,
      currency: 'GBP',
    });
    for (const [text, maxPrice] of [
      ['a dress under nineteen ninety nine', 19.99],
      ['a coat under twelve fifty', 12.5],
      ['a hat for five pounds fifty pence', 5.5],
      ['a coat under 12 pounds and 50p', 12.5],
      ['twelve pounds fifty max for a top', 12.5],
    ] as const) {
      expect(readMessage(text).price.maxPrice, text).toBe(maxPrice);
      expect(parseConstraints(text).maxPrice, text).toBe(maxPrice);
    }
  });

  it('a range, a list, a count or an age beside a price is unchanged', () => {
    expect(readMessage('between 20 pounds and 30').price).toEqual({
      minPrice: 20,
      maxPrice: 30,
      currency: 'GBP',
    });
    expect(readMessage('under 30 40 is fine').price.maxPrice).toBe(30);
    expect(parseConstraints('under 30 40 is fine').maxPrice).toBe(30);
    expect(readMessage('under 10 12 year olds').price.maxPrice).toBe(10);
    expect(readMessage('max 40 , size 12')).toMatchObject({ sizes: ['12'], price: { maxPrice: 40 } });
    expect(readMessage('a coat under 50 for ages 12 14').price.maxPrice).toBe(50);
  });
});

describe('a baby label said by where it ends', () => {
  it('"up to 3 months" is the 0-3M size, no price', async () => {
    expect((await chat('bodysuits up to 3 months')).brief).toEqual({
      itemKinds: ['onesie'],
      categories: ['OTHER'],
      sizes: ['0-3M'],
    });
    expect(parseConstraints('bodysuits up to 3 months')).toEqual({ categories: ['OTHER'], sizes: ['0-3M'] });
    expect(readMessage('vests upto 1 month').sizes).toEqual(['NEWBORN']);
    expect(readMessage('sleepsuits up to 6 months white').sizes).toEqual(['3-6M']);
    expect(readMessage('a snowsuit up to 12 months under 30')).toMatchObject({
      sizes: ['9-12M'],
      price: { maxPrice: 30 },
    });
    // A price is still read up to its figure.
    expect(readMessage('a hat for my son age 2 up to 30').price.maxPrice).toBe(30);
    expect(readMessage('a coat up to 3 pounds').price.maxPrice).toBe(3);
  });
});

describe('children said with their ages', () => {
  it('"pjs for the boys 5 and 8", "coats for my three kids: 4, 6 and 9" want each kids’ size', async () => {
    expect((await chat('pjs for the boys 5 and 8')).brief.sizes).toEqual(['KIDS 5', 'KIDS 8']);
    expect(readMessage('coats for my three kids: 4, 6 and 9').sizes).toEqual(['KIDS 4', 'KIDS 6', 'KIDS 9']);
    expect(readMessage('school shoes for my girls 10 and 13').sizes).toEqual(['KIDS 10', 'KIDS 13']);
    // A count, money or items after the list is no age.
    expect(readMessage('t-shirts for the boys 4 , 6 and 2 hoodies').sizes).toEqual(['KIDS 4', 'KIDS 6']);
    expect(readMessage('kids 12 and 2 pairs of socks').sizes).toEqual(['KIDS 12']);
  });

  it('"hoodie grey 13yrs", "a coat 6 years" beside an item is the kids’ size', () => {
    expect(readMessage('hoodie grey 13yrs')).toMatchObject({ sizes: ['KIDS 13'], forAge: 13 });
    expect(readMessage('hoodie grey 13 yrs no logo').sizes).toEqual(['KIDS 13']);
    expect(readMessage('joggers navy 9 years').sizes).toEqual(['KIDS 9']);
    // A duration is none.
    for (const text of [
      'a coat that lasts 2 years',
      'jeans i have had for 5 years',
      'boots with a 2 year guarantee',
      'a dress 3 years ago',
    ])
      expect(readMessage(text).sizes, text).toEqual([]);
  });
});

describe('British fancy dress', () => {
  it('"fancy dress for halloween", "need fancy dress for world book day" is a costume', async () => {
    expect((await chat('fancy dress for halloween age 5')).brief).toMatchObject({
      itemKinds: ['costume'],
      categories: ['OTHER'],
      sizes: ['KIDS 5'],
    });
    for (const text of [
      'need fancy dress for world book day',
      'a fancy dress for book day',
      'fancy dress, age 6, pirate',
      'my daughter needs a fancy dress costume',
    ])
      expect(readMessage(text).kinds, text).toEqual(['costume']);
    // A fancy dress, or fancy dresses, are dresses.
    for (const text of [
      'a fancy dress for a gala',
      'fancy dresses for the party',
      'she wants a really fancy dress for prom',
    ])
      expect(readMessage(text).kinds, text).toEqual(['dress']);
  });
});

describe('a shop that is an everyday word', () => {
  it('"anything from next", "what’s good at next" ask for the brand', async () => {
    expect((await chat('anything from next for my son')).searches).toEqual([{ query: 'next' }]);
    expect(readMessage('whats good at next for school').brands).toEqual(['next']);
    expect(readMessage('jeans from gap').brands).toEqual(['gap']);
    for (const text of [
      'a dress from next week',
      'a top from next door',
      'boots from the next size up',
      'a coat for the wedding at next month s party',
    ])
      expect(readMessage(text).brands, text).toEqual([]);
    expect(readMessage('a coat, not from next')).toMatchObject({ brands: [], excludedBrands: ['next'] });
  });
});

describe('a holiday said with its weather', () => {
  it('"a sun hat for a hot holiday", "shorts for a warm holiday" are summer travel', async () => {
    expect((await chat('a sun hat for a hot holiday')).brief).toMatchObject({
      itemKinds: ['hat'],
      seasons: ['SUMMER'],
      occasion: 'travel',
    });
    expect(readMessage('shorts for a warm holiday')).toMatchObject({
      seasons: ['SUMMER'],
      occasion: 'travel',
    });
    expect(readMessage('a dress for a sunny holiday').occasion).toBe('travel');
    // Warm clothes are still for the cold.
    expect(readMessage('a warm jumper').seasons).toEqual(['WINTER']);
    expect(readMessage('a coat for our winter holiday').seasons).toEqual(['WINTER']);
  });
});

describe('a collar said after its measurement', () => {
  it('"a school shirt 15.5 collar", "16 inch neck", "41 collar" is the size', async () => {
    expect((await chat('a school shirt 15.5 collar')).brief.sizes).toEqual(['15.5']);
    expect(readMessage('a white shirt, 16 inch collar').sizes).toEqual(['16']);
    expect(readMessage('shirt 41 collar for my husband').sizes).toEqual(['41']);
    expect(readMessage('a shirt 16 neck').sizes).toEqual(['16']);
    // A price before a collar is no size.
    expect(readMessage('a shirt under 30 collar')).toMatchObject({ sizes: [], price: { maxPrice: 30 } });
    expect(readMessage('a jumper under 20 with a round neck').sizes).toEqual([]);
  });
});
