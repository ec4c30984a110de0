import type { Brief } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { updateBrief } from '../src/domain/brief/update-brief.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';

// Readings a review of the brief reader found wrong (a word taken for more than it says, or
// not read at all); each test names the general rule it pins, with phrasings of its own.
const brief = (...turns: string[]) =>
  turns.reduce<Brief>((b, t) => updateBrief(b, readMessage(t), []).brief, {});

describe('brief reader: words that describe another item', () => {
  it('reads a lone "denim" as jeans, whatever else the message says', () => {
    expect(readMessage('looking for denim')).toMatchObject({ intent: 'search', kinds: ['jeans'] });
    expect(readMessage('denim please')).toMatchObject({ intent: 'search', kinds: ['jeans'] });
    expect(brief('need new denim for my son')).toMatchObject({
      itemKinds: ['jeans'],
      categories: ['BOTTOM'],
    });
    expect(brief('some dark denim, nothing over 60')).toMatchObject({ itemKinds: ['jeans'], maxPrice: 60 });
    // Another item after "and" is a second item, not what the denim is.
    expect(brief('denim and a white tee').itemKinds).toEqual(['jeans', 't-shirt']);
  });

  it('keeps "denim …", "jean …" and "dress …" before another item as that item only', () => {
    expect(brief('denim shorts for summer').itemKinds).toEqual(['shorts']);
    expect(brief('a denim shirt, medium').itemKinds).toEqual(['shirt']);
    expect(brief('a denim mini skirt').itemKinds).toEqual(['skirt']);
    expect(brief('jean shorts under 20').itemKinds).toEqual(['shorts']);
    expect(brief('black dress shoes for a wedding').itemKinds).toEqual(['shoes']);
    expect(brief('my daughter needs a fancy dress costume').itemKinds).toEqual(['costume']);
    // A colour starts the next item: a dress and shoes.
    expect(brief('a red dress white shoes').itemKinds).toEqual(['dress', 'shoes']);
    expect(brief('no denim skirts').excludedKinds).toEqual(['skirt']);
  });

  it('reads British "fancy dress" outfits as costumes, a lone "fancy dress" as a dress', () => {
    expect(brief('fancy dress outfit for world book day').itemKinds).toEqual(['costume']);
    expect(brief('a fancy dress for a gala').itemKinds).toEqual(['dress']);
  });

  it('reads no item in phrases that name no garment ("costume jewellery", "dress code")', () => {
    expect(brief('costume jewellery for a party')).toEqual({ occasion: 'party' });
    expect(brief('costume jewelry under 20')).toEqual({ maxPrice: 20 });
    expect(brief('trousers for an office with a smart dress code').itemKinds).toEqual(['trousers']);
    expect(readMessage('loved the costume drama last night').intent).toBe('offtopic');
  });
});

describe('brief reader: ages', () => {
  it('gives every age of a range a kids size, at most six', () => {
    expect(brief('winter coats for my boys ages 3-5')).toMatchObject({
      sizes: ['KIDS 3', 'KIDS 4', 'KIDS 5'],
    });
    expect(brief('t-shirts for the kids, ages two to four').sizes).toEqual(['KIDS 2', 'KIDS 3', 'KIDS 4']);
    expect(brief('rain boots for 4 through 7 year olds').sizes).toEqual([
      'KIDS 4',
      'KIDS 5',
      'KIDS 6',
      'KIDS 7',
    ]);
    // Too wide to be sizes: no kids size is guessed.
    expect(brief('party hats for ages 2-14')).not.toHaveProperty('sizes');
  });

  it('reads "N years" as an age only for someone, never as a duration', () => {
    expect(brief('a washing machine with 2 and 3 years warranty')).toEqual({});
    expect(brief('sneakers that last 2 or 3 years')).toEqual({
      itemKinds: ['sneakers'],
      categories: ['SHOES'],
    });
    expect(brief('a coat for my son that will last 5-6 years')).toEqual({
      itemKinds: ['coat'],
      categories: ['OUTERWEAR'],
    });
    expect(brief('school shoes for my daughter, she is 7 years')).toMatchObject({
      sizes: ['KIDS 7'],
      forAge: 7,
    });
    expect(brief('hoodies for my kids, 9 and 12 years')).toMatchObject({ sizes: ['KIDS 9', 'KIDS 12'] });
  });
});

describe('brief reader: occasions', () => {
  it("reads a sport word as the sport, not a sport's season, a climbing frame or potty training", () => {
    expect(brief('a warm jacket for the climbing season')).not.toHaveProperty('occasion');
    expect(brief('a hoodie for football season')).not.toHaveProperty('occasion');
    expect(brief('leggings for the climbing frame')).not.toHaveProperty('occasion');
    expect(brief('pants for potty training')).not.toHaveProperty('occasion');
    expect(brief('shoes for rock climbing')).toMatchObject({ occasion: 'sport' });
    expect(brief('shorts for football training')).toMatchObject({ occasion: 'sport' });
  });
});

describe('currencies: one table for the brief and the mission constraints', () => {
  const CODES: Array<[string, string]> = [
    ['50 dollars', 'USD'],
    ['€50', 'EUR'],
    ['50 quid', 'GBP'],
    ['50 swiss francs', 'CHF'],
    ['5000 yen', 'JPY'],
    ['c$50', 'CAD'],
    ['a$50', 'AUD'],
    ['500 sek', 'SEK'],
    ['500 kronor', 'SEK'],
    ['500 nok', 'NOK'],
    ['500 dkk', 'DKK'],
    ['200 pln', 'PLN'],
    ['200 zloty', 'PLN'],
    ['200 zlotys', 'PLN'],
    ['200 złoty', 'PLN'],
    ['200 zł', 'PLN'],
  ];
  it.each(CODES)('"a coat under %s" is %s in both', (amount, code) => {
    expect(readMessage(`a coat under ${amount}`).price).toMatchObject({ currency: code });
    expect(parseConstraints(`a coat under ${amount}`)).toMatchObject({ currency: code });
  });

  it('reads the amount but guesses no currency for words several currencies share', () => {
    for (const amount of ['800 kr', '600 kroner', '600 crowns', '600 krona']) {
      expect(readMessage(`boots under ${amount}`).price).toEqual({ maxPrice: Number.parseInt(amount, 10) });
      expect(parseConstraints(`boots under ${amount}`)).not.toHaveProperty('currency');
    }
  });

  it('reads "nothing over 40" as a ceiling in the mission constraints too', () => {
    expect(parseConstraints('jeans for my son, nothing over 40')).toMatchObject({ maxPrice: 40 });
    expect(parseConstraints('jeans for my son, nothing over 40')).not.toHaveProperty('minPrice');
  });
});
