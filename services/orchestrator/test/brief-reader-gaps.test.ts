import type { Brief } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { updateBrief } from '../src/domain/brief/update-brief.ts';

// Messages families send that the brief used to misread (found by trying phrasings outside the
// stylist's corpus): each names the general gap it closes.
const brief = (...turns: string[]) =>
  turns.reduce<Brief>((b, t) => updateBrief(b, readMessage(t), [45, 55, 60]).brief, {});

describe('brief reader: vocabulary and phrasing gaps', () => {
  it('keeps a material word as a material: "denim jacket" is a jacket, not jeans and a jacket', () => {
    expect(brief('denim jacket under 70')).toEqual({
      itemKinds: ['jacket'],
      categories: ['OUTERWEAR'],
      maxPrice: 70,
    });
    expect(brief('a denim skirt for summer')).toMatchObject({ itemKinds: ['skirt'], categories: ['BOTTOM'] });
    expect(brief('blue denims')).toMatchObject({ itemKinds: ['jeans'] });
  });

  it('knows the currencies the mission constraints know (yen, Swedish crowns, swiss francs)', () => {
    expect(brief('denim jacket ¥8000 or less')).toMatchObject({ maxPrice: 8000, currency: 'JPY' });
    expect(brief('sneakers under 5000 yen')).toMatchObject({ maxPrice: 5000, currency: 'JPY' });
    expect(brief('a coat under 900 sek')).toMatchObject({ maxPrice: 900, currency: 'SEK' });
    expect(brief('boots up to 120 swiss francs')).toMatchObject({ maxPrice: 120, currency: 'CHF' });
  });

  it('excludes a kind of swimwear from a swimwear search ("a swimsuit, no bikinis")', () => {
    expect(brief('swimsuit for my 12 yo, no bikinis')).toMatchObject({
      itemKinds: ['swimsuit'],
      excludedKinds: ['bikini'],
      sizes: ['KIDS 12'],
    });
    expect(brief('a bikini for the beach')).toMatchObject({ itemKinds: ['bikini'], categories: ['OTHER'] });
    expect(brief('a swimming costume')).toMatchObject({ itemKinds: ['swimsuit'] });
  });

  it('reads a costume as the item asked for', () => {
    expect(brief('costume for halloween for my 11 year old')).toMatchObject({
      itemKinds: ['costume'],
      categories: ['OTHER'],
      sizes: ['KIDS 11'],
      seasons: ['FALL'],
    });
  });

  it('gives every child of a list of ages a kids size', () => {
    expect(brief('pyjamas for the kids, ages 4 and 6')).toMatchObject({
      sizes: ['KIDS 4', 'KIDS 6'],
      forAge: 4,
    });
    expect(brief('rain boots for my 3 and 7 year olds')).toMatchObject({ sizes: ['KIDS 3', 'KIDS 7'] });
    expect(brief('a hoodie for my son, he is 14')).toMatchObject({ sizes: ['KIDS 14'], forAge: 14 });
  });

  it('reads jeans sizes written "W32 L34"', () => {
    expect(brief('black jeans, slim fit, W32 L34, less than 90')).toMatchObject({
      sizes: ['32'],
      maxPrice: 90,
    });
  });

  it('reads more sports as the sport occasion (PE, yoga, golf)', () => {
    expect(brief('tracksuit bottoms for PE')).toMatchObject({ occasion: 'sport' });
    expect(brief('leggings for yoga')).toMatchObject({ occasion: 'sport' });
    expect(brief('polo shirt for golf')).toMatchObject({ occasion: 'sport' });
    // The garment named after a sport is not the sport.
    expect(brief('yoga pants')).toEqual({ itemKinds: ['leggings'], categories: ['BOTTOM'] });
  });

  it('"more expensive ones" without a budget starts above the offers shown', () => {
    expect(brief('looking for a swimsuit', 'show me more expensive ones')).toMatchObject({ minPrice: 60 });
    expect(brief('a swimsuit under 40', 'more expensive ones')).toMatchObject({ maxPrice: 60 });
  });
});
