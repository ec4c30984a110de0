import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { lastStep } from './stub-stylist.ts';

// Review of round 17: everyday requests the round's rules misread.

const chat = lastStep;

describe('a count takes the plural', () => {
  it('"max 40 outfit", "under 60 outfit for a wedding" are prices', () => {
    for (const [text, maxPrice] of [
      ['max 40 outfit', 40],
      ['under 60 outfit for a wedding', 60],
    ] as const) {
      expect(readMessage(text).price.maxPrice, text).toBe(maxPrice);
      expect(parseConstraints(text).maxPrice, text).toBe(maxPrice);
    }
    // One, or a plural, is still a count.
    expect(readMessage('max 1 outfit').price).toEqual({});
    expect(readMessage('max 2 items, tshirts for my son').price).toEqual({});
  });
});

describe('another size asked with "in"', () => {
  it('"have them in 32?" after a price is the size, never a new ceiling', async () => {
    expect((await chat('jeans under 40', 'have them in 32')).brief).toEqual({
      itemKinds: ['jeans'],
      categories: ['BOTTOM'],
      maxPrice: 40,
      sizes: ['32'],
    });
    expect((await chat('a dress under 50', 'in 12')).brief).toMatchObject({ maxPrice: 50, sizes: ['12'] });
    expect((await chat('trainers under 60', 'in 42')).brief).toMatchObject({ maxPrice: 60, sizes: ['42'] });
    // Said bare, a figure after a price is still the new price.
    expect((await chat('a coat under 80', 'what about 60')).brief.maxPrice).toBe(60);
    expect((await chat('jeans under 40', '30')).brief.maxPrice).toBe(30);
  });
});

describe('deals outside clothing', () => {
  it('"any deals on car insurance" is still declined', () => {
    for (const text of [
      'any deals on car insurance',
      'any discounts on my phone bill',
      'any deals on broadband',
    ])
      expect(readMessage(text).intent, text).toBe('offtopic');
    expect(readMessage('any deals today?').intent).toBe('clarify');
  });
});
