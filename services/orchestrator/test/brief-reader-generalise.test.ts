import type { Brief } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { updateBrief } from '../src/domain/brief/update-brief.ts';

// Phrasings real families use that the brief missed (none from the eval corpus): each names the
// general rule it now follows.
const brief = (...turns: string[]) =>
  turns.reduce<Brief>((b, t) => updateBrief(b, readMessage(t), [45, 55, 60]).brief, {});

describe('brief reader: how families really phrase it', () => {
  it('reads baby sizes as the month band babies wear, or newborn', () => {
    expect(brief('baby girl dress 6 months pink')).toMatchObject({ itemKinds: ['dress'], sizes: ['6-9M'] });
    expect(brief('winter coat 12-18m navy')).toMatchObject({ sizes: ['12-18M'], colors: ['navy'] });
    expect(brief('0-3 months baby grows')).toMatchObject({ itemKinds: ['onesie'], sizes: ['0-3M'] });
    expect(brief('baby shoes 12 to 18 months')).toMatchObject({ sizes: ['12-18M'] });
    expect(brief('coat for newborn baby')).toMatchObject({ sizes: ['NEWBORN'] });
    // Not "KIDS 18": the toddler's band is in months.
    expect(brief('raincoat for a toddler 18-24 months yellow').sizes).toEqual(['18-24M']);
    expect(brief('romper for my 6 month old', 'a size up').sizes).toEqual(['9-12M']);
    // "boy 9" of "baby boy 9-12m" is no nine-year-old.
    expect(brief('baby boy 9-12m summer clothes')).toEqual({ sizes: ['9-12M'], seasons: ['SUMMER'] });
    // A duration in months is no size.
    expect(brief('a coat that lasts 6 months').sizes).toBeUndefined();
  });

  it('keeps a material said no to as an exclusion ("not leather", "no wool", "avoid synthetic")', () => {
    expect(brief('winter boots but not leather pls')).toMatchObject({ excludedKinds: ['leather'] });
    expect(brief('jumper for my daughter age 7 no wool she gets itchy')).toMatchObject({
      excludedKinds: ['wool'],
      sizes: ['KIDS 7'],
    });
    expect(brief('dress for a wedding nothing polyester under £80')).toMatchObject({
      excludedKinds: ['polyester'],
      maxPrice: 80,
    });
    expect(brief('vegan boots so no leather or suede').excludedKinds).toEqual(['leather', 'suede']);
    expect(brief('rain jacket, avoid synthetic if you can').excludedKinds).toEqual([
      'synthetic',
      'polyester',
      'nylon',
      'acrylic',
    ]);
    // A material said positively is no exclusion.
    expect(brief('a leather jacket').excludedKinds).toBeUndefined();
  });

  it('reads every size of "m or l", "s/m", "size 10 or 12"', () => {
    expect(brief('a hoodie in m or l').sizes).toEqual(['M', 'L']);
    expect(brief('tank tops for summer in s or m no white').sizes).toEqual(['S', 'M']);
    expect(brief('jeans size 10 or 12').sizes).toEqual(['10', '12']);
    expect(brief('tshirt in xs s or m').sizes).toEqual(['XS', 'S', 'M']);
    expect(brief('sweater for my son hes in size 10-11 years').sizes).toEqual(['KIDS 10', 'KIDS 11']);
  });

  it('reads an age typed after a comma ("my son, 10")', () => {
    expect(brief('need new denim for my son, 10')).toMatchObject({ forAge: 10, sizes: ['KIDS 10'] });
    expect(brief('coat for my grandson, 5, in blue')).toMatchObject({ forAge: 5, colors: ['blue'] });
    expect(brief('sweatshirt 20 bucks or less for my kid, 8')).toMatchObject({ forAge: 8, maxPrice: 20 });
    // A count after the comma is no age.
    expect(brief('socks for my son, 3 pairs').forAge).toBeUndefined();
  });

  it('reads ages listed after "age" or "the kids are"', () => {
    expect(brief('shorts for my boy age 6 and 8').sizes).toEqual(['KIDS 6', 'KIDS 8']);
    expect(brief('christmas jumper for the whole family kids are 4 and 7').sizes).toEqual([
      'KIDS 4',
      'KIDS 7',
    ]);
  });

  it('keeps "shes" a word, so "shes 9" is her age', () => {
    expect(brief('my daughter needs school shoes shes 9')).toMatchObject({ forAge: 9, itemKinds: ['shoes'] });
  });

  it('drops the budget and its currency however it is said', () => {
    for (const dropped of [
      "don't worry about the budget",
      "budget isn't an issue",
      'no spending limit',
      'ignore the £40',
      'whatever it costs',
    ])
      expect(brief('jeans under 40 pounds', dropped)).toEqual({
        itemKinds: ['jeans'],
        categories: ['BOTTOM'],
      });
    // "no" before a count is no budget dropped.
    expect(brief('jeans under 40 pounds', 'no 2 pairs')).toMatchObject({ maxPrice: 40, currency: 'GBP' });
  });

  it('reads money as it is said: a tenner, a fiver, a couple of quid', () => {
    expect(brief('costume for my son 7 under a tenner')).toMatchObject({ maxPrice: 10, currency: 'GBP' });
    expect(brief('socks for the kids, a fiver max')).toMatchObject({ maxPrice: 5, currency: 'GBP' });
    expect(brief('a scarf for a couple of quid')).toMatchObject({ maxPrice: 2, currency: 'GBP' });
  });

  it('knows suits (and "suits her" is no suit)', () => {
    expect(brief('navy suit for work size 40')).toMatchObject({
      itemKinds: ['suit'],
      categories: ['OUTERWEAR'],
    });
    expect(brief('looking for a tux for prom')).toMatchObject({ itemKinds: ['suit'] });
    expect(brief('a suit jacket')).toMatchObject({ itemKinds: ['blazer'] });
    expect(brief('a dress that suits her').itemKinds).toEqual(['dress']);
    expect(brief('swim suit for the beach').itemKinds).toEqual(['swimsuit']);
  });

  it('reads colour families as their colours', () => {
    expect(brief('sweater in earth tones').colors).toEqual(['brown', 'beige', 'olive', 'orange']);
    expect(brief('mum wants a cardigan in pastels').colors).toEqual([
      'pink',
      'blue',
      'purple',
      'yellow',
      'green',
    ]);
    expect(brief('jewel tones for a party dress').colors).toEqual(['green', 'blue', 'purple', 'red']);
    expect(brief('a pastel pink dress').colors).toEqual(['pink']);
    expect(brief('gender neutral baby clothes').colors).toBeUndefined();
  });

  it('takes "actually 80" after a price as the new ceiling', () => {
    expect(brief('get me a dress under 60 euros', 'actually 80')).toMatchObject({
      maxPrice: 80,
      currency: 'EUR',
    });
    expect(brief('boots size 38', 'actually make it 39')).toMatchObject({ sizes: ['39'] });
  });

  it("reads a shoe size said with its system after it, and a kid's shoe size", () => {
    expect(brief('sneakers size 42 eu').sizes).toEqual(['EU 42']);
    expect(brief('sneakers for my kid size 30').sizes).toEqual(['30']);
  });

  it('reads "not too pricey" as cheap, not as cheaper than cheap; "on holiday" as travel', () => {
    expect(brief('a swimsuit not too pricey')).toMatchObject({ maxPrice: 40 });
    expect(brief('sandals for our holiday')).toMatchObject({ occasion: 'travel' });
    expect(brief('tennis shoes').occasion).toBeUndefined();
  });
});
