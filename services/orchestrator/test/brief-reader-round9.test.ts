import { describe, expect, it } from 'vitest';
import { correct } from '../src/domain/brief/normalize.ts';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { lastStep } from './stub-stylist.ts';

// Round 9: requests families send that earlier rounds did not cover: English as a second
// language and Indian English (kurta, lehenga, "marriage function", rupees), Australian and
// Irish words (thongs, togs, cossie, bathers, singlet), numbers and prices as written ("1k",
// "twenty-five", "budget 50-70"), measurements said first ("waist 32 leg 30", "chest 38"),
// colours with "-ish", emoji, and conversations that change the occasion or add a person.
// None from the corpus.

const chat = lastStep;
const kinds = (text: string) => readMessage(text).kinds;

describe('South Asian clothes and Indian English', () => {
  it.each([
    ['kindly help with kurta for function', ['kurta']],
    ['kurta pajama for my son 8 yrs', ['kurta']],
    ['suggest me one good sherwani for wedding', ['sherwani']],
    ['need salwar kameez for my mother, size XL', ['salwar kameez']],
    ['a lehenga for my daughter for diwali, she is 10', ['lehenga']],
    ['dupatta in red colour', ['dupatta']],
    ['saree under 3000 rupees', ['saree']],
    ['please show some kurtis under 1500 rs', ['kurta']],
  ])('"%s" asks for %j', (text, expected) => {
    expect(kinds(text)).toEqual(expected);
  });

  it('a "marriage function" is a wedding, and "a function" a party', () => {
    expect(readMessage('one dress for my wife for marriage function').occasion).toBe('wedding');
    expect(readMessage('a saree for my cousin’s marriage').occasion).toBe('wedding');
    expect(readMessage('kindly help with kurta for function').occasion).toBe('party');
    expect(parseConstraints('a dress for marriage function')).toMatchObject({ occasion: 'wedding' });
  });

  it('"i want to buy one dress" shops for a dress instead of buying what was shown', async () => {
    const { kind, brief, searches } = await chat('i want to buy one dress for my wife for marriage function');
    expect(kind).toBe('tools');
    expect(brief).toMatchObject({ itemKinds: ['dress'], occasion: 'wedding' });
    expect(searches).toEqual([{ query: 'dress' }]);
  });

  it('rupees, "rs" and ₹ are INR, in the brief and in a mission’s constraints', () => {
    expect(readMessage('jeans for my husband, budget is 2000 rupees').price).toEqual({
      maxPrice: 2000,
      currency: 'INR',
    });
    expect(readMessage('kurta upto 500 rs').price).toEqual({ maxPrice: 500, currency: 'INR' });
    expect(readMessage('nice top, budget ₹1500').price).toEqual({ maxPrice: 1500, currency: 'INR' });
    expect(parseConstraints('kurtis under 1500 rs')).toMatchObject({ maxPrice: 1500, currency: 'INR' });
    // "years" ends in "rs": no amount in rupees.
    expect(readMessage('a coat for my son, 8 years 10 months').price).toEqual({});
  });

  it('"my size is M" is a size', () => {
    expect(readMessage('please to show me warm coat for winter, my size is M').sizes).toEqual(['M']);
    expect(readMessage('jeans, my size is 12').sizes).toEqual(['12']);
  });
});

describe('Australian, Irish and Scottish words for clothes', () => {
  it.each([
    ['thongs for the beach', ['sandals']],
    ['new togs for swimming lessons, she’s 6', ['swimsuit']],
    ['cossie for my daughter size 8', ['swimsuit']],
    ['bathers for my daughter, she’s 5', ['swimsuit']],
    ['boardies for my boy size 12', ['swimsuit']],
    ['a singlet for my son for basketball', ['tank top']],
  ])('"%s" asks for %j', (text, expected) => {
    expect(kinds(text)).toEqual(expected);
  });

  it('togs are searched as swimwear in the child’s size, for summer', async () => {
    const { brief, searches } = await chat('new togs for swimming lessons, she’s 6');
    expect(brief).toMatchObject({ itemKinds: ['swimsuit'], sizes: ['KIDS 6'], seasons: ['SUMMER'] });
    expect(searches).toEqual([{ query: 'swimsuit', size: 'KIDS 6', season: 'SUMMER' }]);
  });

  it.each([['brothers'], ['things'], ['single'], ['spree'], ['singers'], ['tongs']])(
    'the spelling correction leaves "%s" alone (regional words are read as written)',
    (word) => {
      expect(correct(word)).toBe(word);
    },
  );
});

describe('numbers and prices as families write them', () => {
  it.each([
    ['a suit max 1k', { maxPrice: 1000 }],
    ['a coat under £2k', { maxPrice: 2000, currency: 'GBP' }],
    ['a lehenga, budget 1.5k', { maxPrice: 1500 }],
    ['a hoodie for twenty-five pounds max', { maxPrice: 25, currency: 'GBP' }],
    ['shoes budget 50-70', { minPrice: 50, maxPrice: 70 }],
    ['a dress, can spend 30 to 40', { minPrice: 30, maxPrice: 40 }],
    ['a sherwani 10k-15k', { minPrice: 10000, maxPrice: 15000 }],
  ])('"%s" reads the price %j', (text, price) => {
    expect(readMessage(text).price).toEqual(price);
  });

  it('the mission’s constraints read thousands and hyphenated numbers too', () => {
    expect(parseConstraints('a suit max 1k')).toMatchObject({ maxPrice: 1000 });
    expect(parseConstraints('a hoodie for twenty-five pounds max')).toMatchObject({ maxPrice: 25 });
  });

  it('a 5k run is a distance, not a budget', () => {
    expect(readMessage('running kit for a 5k').price).toEqual({});
  });

  it('"not so expensive" is cheap', () => {
    expect(readMessage('a t-shirt size L not so expensive').price).toEqual({ maxPrice: 40, cheap: true });
  });
});

describe('measurements said before the number', () => {
  it.each([
    ['jeans waist 32 leg 30', ['32']],
    ['chinos waist 34 length 32', ['34']],
    ['a shirt chest 38 inches', ['38']],
    ['a shirt collar 16', ['16']],
    ['trousers 30 inch waist', ['30']],
  ])('"%s" is size %j', (text, sizes) => {
    expect(readMessage(text).sizes).toEqual(sizes);
  });

  it('"waist 32 leg 30" searches jeans in waist 32', async () => {
    const { searches } = await chat('jeans waist 32 leg 30');
    expect(searches).toEqual([{ query: 'jeans', size: '32' }]);
  });
});

describe('colours said roughly and clothes sent as emoji', () => {
  it.each([
    ['a navy-ish jumper', ['navy']],
    ['a greenish coat', ['green']],
    ['a reddish top', ['red']],
    ['a bluish shirt', ['blue']],
    ['a pinkish hoodie', ['pink']],
  ])('"%s" is %j', (text, colors) => {
    expect(readMessage(text).colors).toEqual(colors);
  });

  it('"👗 for my gal" asks for a dress, not something outside clothing', async () => {
    const { kind, searches } = await chat('👗 for my gal');
    expect(kind).toBe('tools');
    expect(searches).toEqual([{ query: 'dress' }]);
  });

  it.each([
    ['need 👟 size 5', ['sneakers']],
    ['🧥 and 🧣 for winter', ['coat', 'scarf']],
  ])('"%s" asks for %j', (text, expected) => {
    expect(kinds(text)).toEqual(expected);
  });
});

describe('conversations that change the occasion or the person', () => {
  it('"forget the party, for school" replaces the occasion', async () => {
    const { brief } = await chat('a party dress for my daughter age 7', 'forget the party, for school');
    expect(brief.occasion).toBe('school');
  });

  it('"forget the wedding" drops the occasion and keeps the rest', async () => {
    const { brief } = await chat('a navy suit for a wedding', 'forget the wedding');
    expect(brief).toMatchObject({ itemKinds: ['suit'], colors: ['navy'] });
    expect(brief.occasion).toBeUndefined();
  });

  it('"forget the party dress" still names a dress, so the occasion is not dropped by it', () => {
    expect(readMessage('forget the party dress, a coat instead').clear).not.toContain('occasion');
  });

  it('"and for my daughter size 2" adds her shoe size to her brother’s', async () => {
    const { brief, searches } = await chat('trainers for my son size 4', 'and for my daughter size 2');
    expect(brief.sizes).toEqual(['4', '2']);
    expect(searches).toEqual([
      { query: 'sneakers', size: '4' },
      { query: 'sneakers', size: '2' },
    ]);
  });
});
