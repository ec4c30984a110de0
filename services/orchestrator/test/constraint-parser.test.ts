import { describe, expect, it } from 'vitest';
import { type Constraints, describeConstraints, parseConstraints } from '../src/domain/constraint-parser.ts';

const CASES: Array<[string, Constraints]> = [
  // price ceilings
  ['summer tops under 80', { maxPrice: 80, season: 'SUMMER', categories: ['TOP'] }],
  ['something less than $50', { maxPrice: 50, currency: 'USD' }],
  ['max 120 EUR please', { maxPrice: 120, currency: 'EUR' }],
  ['a coat below €60', { maxPrice: 60, currency: 'EUR', categories: ['OUTERWEAR'] }],
  ['no more than 30 pounds', { maxPrice: 30, currency: 'GBP' }],
  ['cheaper than 45', { maxPrice: 45 }],
  ['up to 90 dollars', { maxPrice: 90, currency: 'USD' }],
  ['at most £25', { maxPrice: 25, currency: 'GBP' }],
  ['maximum of 200 CHF', { maxPrice: 200, currency: 'CHF' }],
  ['my budget is 150 euros', { maxPrice: 150, currency: 'EUR' }],
  ['budget of $1,200 for a wedding', { maxPrice: 1200, currency: 'USD', occasion: 'wedding' }],
  ['not more than 49,99 €', { maxPrice: 49.99, currency: 'EUR' }],
  ['60 bucks or less', { maxPrice: 60, currency: 'USD' }],
  ['€70 max', { maxPrice: 70, currency: 'EUR' }],
  ['within 300 yen', { maxPrice: 300, currency: 'JPY' }],
  ['lower than 35.50 usd', { maxPrice: 35.5, currency: 'USD' }],
  ['under a budget... under 40 quid', { maxPrice: 40, currency: 'GBP' }],
  ['<100', { maxPrice: 100 }],
  ['boots not exceeding 250 eur', { maxPrice: 250, currency: 'EUR', categories: ['SHOES'] }],
  ['100 EUR or cheaper', { maxPrice: 100, currency: 'EUR' }],
  // ranges and floors
  ['between 20 and 40', { minPrice: 20, maxPrice: 40 }],
  ['between €20 and €40', { minPrice: 20, maxPrice: 40, currency: 'EUR' }],
  ['from 30 to 60 pounds', { minPrice: 30, maxPrice: 60, currency: 'GBP' }],
  ['$20-$40 tees', { minPrice: 20, maxPrice: 40, currency: 'USD', categories: ['TOP'] }],
  ['20–40 EUR', { minPrice: 20, maxPrice: 40, currency: 'EUR' }],
  ['at least 25 dollars', { minPrice: 25, currency: 'USD' }],
  ['over 50 but under 90 euros', { maxPrice: 90, minPrice: 50, currency: 'EUR' }],
  ['more than 10 and less than 30', { maxPrice: 30, minPrice: 10 }],
  // no price
  ['size 38 shoes', { sizes: ['38'], categories: ['SHOES'] }],
  ['3 outfits for the weekend', {}],
  // seasons, colours, categories, occasions, sizes
  ['autumn jacket in navy', { season: 'FALL', colors: ['navy'], categories: ['OUTERWEAR'] }],
  ['fall colors, brown or beige', { season: 'FALL', colors: ['brown', 'beige'] }],
  ['a winter coat', { season: 'WINTER', categories: ['OUTERWEAR'] }],
  ['spring dress for a wedding', { season: 'SPRING', categories: ['DRESS'], occasion: 'wedding' }],
  // The brief's occasion word (brief/vocabulary.ts OCCASIONS).
  ['something summery for the beach', { season: 'SUMMER', occasion: 'beach' }],
  ['black and white sneakers', { colors: ['black', 'white'], categories: ['SHOES'] }],
  ['gray hoodie', { colors: ['grey'], categories: ['TOP'] }],
  ['office outfit: blazer and trousers', { occasion: 'work', categories: ['BOTTOM', 'OUTERWEAR'] }],
  ['a bag and a scarf', { categories: ['ACCESSORY', 'BAG'] }],
  ['jeans in a medium', { categories: ['BOTTOM'], sizes: ['M'] }],
  ['t-shirt size XL', { categories: ['TOP'], sizes: ['XL'] }],
  ['running shoes EU 42', { categories: ['SHOES'], occasion: 'sport', sizes: ['EU 42'] }],
  ['job interview look, formal, under 200 GBP', { maxPrice: 200, currency: 'GBP', occasion: 'interview' }],
  [
    'party dress, red, size S, up to 80€',
    {
      maxPrice: 80,
      currency: 'EUR',
      colors: ['red'],
      categories: ['DRESS'],
      occasion: 'party',
      sizes: ['S'],
    },
  ],
  ['Casual summer look', { season: 'SUMMER', occasion: 'casual' }],
  ['hi!', {}],
];

describe('constraint parser', () => {
  it('covers at least 40 phrasings', () => expect(CASES.length).toBeGreaterThanOrEqual(40));

  it.each(CASES)('reads %j', (message, expected) => {
    expect(parseConstraints(message)).toEqual(expected);
  });

  it('describes constraints for replies', () => {
    expect(describeConstraints(parseConstraints('black summer tops under 80 EUR for work'))).toBe(
      'under 80 EUR, summer, black, top, for work',
    );
  });
});

describe('parseConstraints: a ceiling said with "tops"', () => {
  it('reads "sneakers 50 tops" as shoes under 50, not shoes and tops', () => {
    expect(parseConstraints('sneakers 50 tops')).toEqual({ maxPrice: 50, categories: ['SHOES'] });
    expect(parseConstraints('3 tops under 20')).toMatchObject({ categories: ['TOP'] });
  });

  it('reads no budget from one that is dropped ("ignore the £40")', () => {
    expect(parseConstraints('ignore the £40, just jeans')).toEqual({ categories: ['BOTTOM'] });
  });
});
