import { describe, expect, it } from 'vitest';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { lastStep } from './stub-stylist.ts';

// Round 28: American and Australian English (pants, sneakers, thongs, 2T, 6X, "$40 max"),
// questions about the family's own wardrobe, follow-ups that change one thing ("same but in
// black", "cheaper", "for his sister instead") and prices in every format (€25, 25,50 €, £1,000,
// USD 40, AU$25). Most were read right; a family would notice a US girls' "6X" lost, a dollar
// named by its country taken for a US dollar, and a follow-up for someone else keeping the first
// child's age and size.

const chat = lastStep;

describe('a US "6X" or "7x" is a kids\' size', () => {
  it('"size 6X", "my daughter\'s 6X" search that age\'s kids\' size', async () => {
    for (const [message, size] of [
      ['pants for my son, size 6X, under $40', 'KIDS 6'],
      ["my daughter's 6X, a party dress", 'KIDS 6'],
      ['a sweater vest for my son, 6X', 'KIDS 6'],
      ['size 7x jeans for my boy', 'KIDS 7'],
    ] as const) {
      expect((await chat(message)).brief.sizes, message).toEqual([size]);
      expect(parseConstraints(message).sizes, message).toEqual([size]);
    }
    // A count said with an "x" is none; a toddler's "2T" is as before.
    expect((await chat('6x pairs of socks')).brief.sizes).toBeUndefined();
    expect((await chat('toddler 2T sneakers, light up if possible')).brief.sizes).toEqual(['KIDS 2']);
  });
});

describe('a dollar named by its country', () => {
  it('"AU$25", "CA$80", "CAN$ 60" are Australian and Canadian dollars, not US', async () => {
    for (const [message, max, currency] of [
      ['a beanie and mittens, AU$25 tops', 25, 'AUD'],
      ['trainers up to CA$80', 80, 'CAD'],
      ['a coat under CAN$ 60', 60, 'CAD'],
      ['pants under cdn$40', 40, 'CAD'],
      ['a scarf, 20 aus$ max', 20, 'AUD'],
    ] as const) {
      const { brief } = await chat(message);
      expect([brief.maxPrice, brief.currency], message).toEqual([max, currency]);
      const c = parseConstraints(message);
      expect([c.maxPrice, c.currency], message).toEqual([max, currency]);
    }
    // A dollar alone, a US one or "ca" for "about" stay as they were.
    for (const [message, currency] of [
      ['a hoodie under $30', 'USD'],
      ['a coat under US$50', 'USD'],
      ['a coat under A$60', 'AUD'],
      ['a coat ca $40', 'USD'],
    ] as const)
      expect((await chat(message)).brief.currency, message).toBe(currency);
  });
});

describe('a follow-up for someone else "instead"', () => {
  it('"for his sister instead" drops the son\'s age and size, keeps the rest', async () => {
    for (const turns of [
      ['a hoodie for my son, age 10, navy', 'for his sister instead'],
      ['a coat for my son age 9', 'for his little brother instead'],
      ['a coat for my son age 9', 'for my niece this time'],
      ['a jumper for my son age 7, green', 'in navy for his brother instead'],
    ]) {
      const { brief } = await chat(...turns);
      expect(brief.forAge, turns.join(' / ')).toBeUndefined();
      expect(brief.sizes, turns.join(' / ')).toBeUndefined();
      expect(brief.itemKinds?.length, turns.join(' / ')).toBe(1);
    }
    // The same child named again, or another thing changed "instead", keeps the age and size.
    for (const turns of [
      ['a coat for my son age 9', 'for my son instead'],
      ['a coat for my son age 9', 'in navy instead'],
    ])
      expect((await chat(...turns)).brief.sizes, turns.join(' / ')).toEqual(['KIDS 9']);
    // Her own age, said with her, is hers.
    expect(
      (await chat('a hoodie for my son, age 10, navy', "for his sister instead, she's 6")).brief.sizes,
    ).toEqual(['KIDS 6']);
  });
});
