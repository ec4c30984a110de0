import type { Brief } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { updateBrief } from '../src/domain/brief/update-brief.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';

// Second review of the brief reader: where a word describing another item, a count, a range of
// ages or an amount was read as more (or less) than it says.
const brief = (...turns: string[]) =>
  turns.reduce<Brief>((b, t) => updateBrief(b, readMessage(t), []).brief, {});

describe('brief reader: a modifier never reaches past a break or onto a non-compound', () => {
  it('keeps a dress asked for when the next sentence, line or clause names another item', () => {
    expect(brief('Need a dress! Boots for my son too').itemKinds).toEqual(['dress', 'boots']);
    expect(brief('looking for a dress\nshoes as well').itemKinds).toEqual(['dress', 'shoes']);
    expect(brief('is there a denim? sandals too').itemKinds).toEqual(['jeans', 'sandals']);
    expect(brief('a jean; a hoodie as well').itemKinds).toEqual(['jeans', 'hoodie']);
    expect(brief('some denim, a skirt too').itemKinds).toEqual(['jeans', 'skirt']);
  });

  it('reads "dress" as a modifier only right before its compounds', () => {
    expect(brief('a party dress sparkly shoes').itemKinds).toEqual(['dress', 'shoes']);
    expect(brief('a summer dress leather sandals').itemKinds).toEqual(['dress', 'sandals']);
    expect(brief('dress shoes for a wedding').itemKinds).toEqual(['shoes']);
    expect(brief('a white dress shirt and tie').itemKinds).toEqual(['shirt', 'tie']);
    expect(brief('dress pants for work').itemKinds).toEqual(['trousers']);
    expect(brief('fancy dress costume for halloween').itemKinds).toEqual(['costume']);
    // The cloth words still reach over a word: a skirt only.
    expect(brief('a denim mini skirt').itemKinds).toEqual(['skirt']);
  });

  it('reads "denim blue" as a colour, not as jeans', () => {
    expect(brief('a denim blue shirt')).toMatchObject({ itemKinds: ['shirt'], colors: ['blue'] });
    expect(brief('denim blue sneakers size 9')).toMatchObject({ itemKinds: ['sneakers'], colors: ['blue'] });
  });

  it('ends a negation at a sentence break: "no black! red hoodies" wants red hoodies', () => {
    expect(brief('no black! red hoodies please')).toMatchObject({
      itemKinds: ['hoodie'],
      colors: ['red'],
      excludedColors: ['black'],
    });
  });

  it('still reads decimals and a trailing question mark as before', () => {
    expect(brief('jeans size 10.5? under 20.5 euros')).toMatchObject({ sizes: ['10.5'], maxPrice: 20.5 });
    expect(readMessage('what about 43?').sizeRetry).toBe('43');
  });
});

describe('brief reader: counts and ages', () => {
  it('reads a count after a list of ages as how many, not another age', () => {
    expect(brief('twins aged 10, 2 hoodies please').sizes).toEqual(['KIDS 10']);
    expect(brief('school uniform trousers ages 7 and 9, 2 pairs').sizes).toEqual(['KIDS 7', 'KIDS 9']);
    expect(brief('socks for ages 4 and 6 and 3 packs').sizes).toEqual(['KIDS 4', 'KIDS 6']);
    // After "and", an item word ends the list: three ages.
    expect(brief('kids aged 4, 6 and 8 hoodies').sizes).toEqual(['KIDS 4', 'KIDS 6', 'KIDS 8']);
  });

  it('reads ages said each with its unit, with "or", and after "toddler"', () => {
    expect(brief('kids coats in 4 years and 6 years').sizes).toEqual(['KIDS 4', 'KIDS 6']);
    expect(brief('she is 5 or 6 years old, a raincoat').sizes).toEqual(['KIDS 5', 'KIDS 6']);
    expect(brief('rain jacket for toddlers 2-3 years').sizes).toEqual(['KIDS 2', 'KIDS 3']);
  });

  it('sets no age from a range too wide to give sizes', () => {
    const wide = brief('outfits for kids aged 2 to 14');
    expect(wide.sizes).toBeUndefined();
    expect(wide.forAge).toBeUndefined();
    // An age said apart from the range still counts.
    expect(brief('my son is 7, hoodies for ages 2 to 14').forAge).toBe(7);
  });
});

describe('mission constraints: the brief’s item and money rules', () => {
  it('puts no dress in the categories for dress shoes, a dress shirt or a fancy dress costume', () => {
    expect(parseConstraints('dress shoes for the wedding').categories).toEqual(['SHOES']);
    expect(parseConstraints('a dress shirt and tie').categories).toEqual(['TOP', 'ACCESSORY']);
    // A costume, as in the brief: no dress.
    expect(parseConstraints('fancy dress costume for book day').categories).toEqual(['OTHER']);
    expect(parseConstraints('what is the dress code').categories).toBeUndefined();
    // What is said no to is no category to search (round 3: the brief reader's negations).
    expect(parseConstraints('I want a dress, not dress shoes').categories).toEqual(['DRESS']);
    expect(parseConstraints('a dress\nshoes too').categories).toEqual(['DRESS', 'SHOES']);
  });

  it('reads a bare amount with a currency as the budget, as the brief does', () => {
    expect(parseConstraints('hoodie for 80 zł')).toMatchObject({ maxPrice: 80, currency: 'PLN' });
    expect(parseConstraints('jacket for 400 SEK')).toMatchObject({ maxPrice: 400, currency: 'SEK' });
    expect(parseConstraints('size 40 eur shoes').maxPrice).toBeUndefined();
  });

  it('reads the amount of a currency word several countries share, without guessing the currency', () => {
    for (const text of ['sweater, 300 kroner', '300 kr max']) {
      expect(parseConstraints(text).maxPrice).toBe(300);
      expect(parseConstraints(text).currency).toBeUndefined();
      expect(brief(text).maxPrice).toBe(300);
      expect(brief(text).currency).toBeUndefined();
    }
  });
});
