import { describe, expect, it } from 'vitest';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { lastStep } from './stub-stylist.ts';

// Review of round 28 and the round 27 review (a length, a time or a distance is no age; "my son's 6
// or 7 pairs"; "6X" is kids' 6; CA$/AU$; "for his sister instead"): 160 messages close to those
// rules. A family would notice a child's age lost when "and" starts the next thing said ("she's 4
// and 2 hours from grandma", "my son is 7 and 2 pairs of school trousers"), a count of socks or
// vests bought "6x" taken for a US size 6X, a colour or place ending in "a" before "$" ("aqua$20")
// read as Australian dollars, "for me instead" or "instead for his sister" keeping the child's
// age while "for his twin instead" (a twin is the same age) dropped it, a shoe size said as a pair
// ("my son's 4 or 5 in shoes") taken for an age, and two shoe sizes lost before "a white pair" or
// "sorry I meant black".

const chat = lastStep;

describe('a child\'s age followed by "and" and a time or a count is still the age', () => {
  it('"she\'s 4 and 2 hours from grandma", "my son is 7 and 2 pairs of school trousers"', async () => {
    for (const [message, age] of [
      ["she's 4 and 2 hours from grandma, a coat", 4],
      ['my daughter is 6 and 3 days a week at nursery, leggings', 6],
      ["he's 5 and 2 days off school, pjs", 5],
      ['my son is 8 & 3 days away on camp, shorts', 8],
      ['my son is 7 and 2 pairs of school trousers please', 7],
      ["my daughter's 5 and 2 hoodies would be great", 5],
    ] as const) {
      const { brief } = await chat(message);
      expect([brief.forAge, brief.sizes], message).toEqual([age, [`KIDS ${age}`]]);
      expect(parseConstraints(message).sizes, message).toEqual([`KIDS ${age}`]);
    }
    // A length, a time or a count said as a pair, or several children's "and", is still no age.
    for (const message of [
      "he's 4 or 5 inches taller now, trousers",
      "he's 4 - 5 inches taller, jeans",
      'my kids are 4 and 7 hours away, hoodies',
      "they're 2 and 3 hours away, coats",
      "my son's 6 or 7 pairs of socks have holes",
    ])
      expect((await chat(message)).brief.forAge, message).toBeUndefined();
  });
});

describe('"6x" said of a count of things is no US size 6X', () => {
  it('"6x socks", "a pack of 6x socks", "7x multipack vests", "bodysuits 6x" give no kids\' size', async () => {
    for (const message of [
      '6x socks for my son',
      'a pack of 6x socks',
      '6x white t-shirts',
      '7x multipack vests',
      'bodysuits 6x please',
      'socks 6x',
    ]) {
      expect((await chat(message)).brief.sizes, message).toBeUndefined();
      expect(parseConstraints(message).sizes, message).toBeUndefined();
    }
    // The age said beside such a count is the size.
    expect((await chat('6x school polo shirts, age 8')).brief.sizes).toEqual(['KIDS 8']);
    // A size 6X or 7X said of one garment or the child still is.
    for (const [message, size] of [
      ['size 6x leggings', 'KIDS 6'],
      ['a 6x dress for my girl', 'KIDS 6'],
      ['6X girls dress', 'KIDS 6'],
      ['my daughter wears 6x, leggings', 'KIDS 6'],
      ['7x jeans pls', 'KIDS 7'],
    ] as const)
      expect((await chat(message)).brief.sizes, message).toEqual([size]);
  });
});

describe('a word ending in "a" or "c" before "$" names no country', () => {
  it('"aqua$20", "costa rica$50", "mocha$ 15" are dollars, not Australian', async () => {
    for (const [message, max] of [
      ['a hat in aqua$20', 20],
      ['a bag from costa rica$50', 50],
      ['a scarf in mocha$ 15', 15],
      ['a bag in nautica$ 40', 40],
    ] as const) {
      const { brief } = await chat(message);
      expect([brief.maxPrice, brief.currency], message).toEqual([max, 'USD']);
      const c = parseConstraints(message);
      expect([c.maxPrice, c.currency], message).toEqual([max, 'USD']);
    }
    // A dollar named by its country still is.
    for (const [message, currency] of [
      ['a coat under A$60', 'AUD'],
      ['jeans CA$70', 'CAD'],
      ['a hat, aus$20', 'AUD'],
      ['a coat c$ 45', 'CAD'],
      ['hoodie au$ 35', 'AUD'],
    ] as const)
      expect((await chat(message)).brief.currency, message).toBe(currency);
  });
});

describe('whom a follow-up is for, "instead"', () => {
  it('"for me instead", "instead for his sister" drop the son\'s size; "for his twin instead" keeps it', async () => {
    for (const turns of [
      ['a coat for my son age 9', 'for me instead'],
      ['a coat for my son age 9', 'for myself this time'],
      ['a coat for my son age 9', 'instead for his sister'],
      ['a coat for my son age 9', 'instead, for my daughter'],
      ['a coat for my son age 9', "this time it's for my daughter"],
      ['a coat for my son age 9', 'for the baby instead'],
    ])
      expect((await chat(...turns)).brief.sizes, turns.join(' / ')).toBeUndefined();
    for (const turns of [
      ['a coat for my son age 9', 'for his twin instead'],
      ['a coat for my son age 9', "for his sister's party instead"],
      ['a coat for my son age 9', "instead for his sister's party"],
      ['a coat for my son age 9', 'a hat instead'],
      ['a coat for my son age 9', 'for my son rather than me'],
      ['a coat for my son age 9', 'for his sister instead, same size'],
      ['a coat for my son age 9', 'this time in red'],
    ])
      expect((await chat(...turns)).brief.sizes, turns.join(' / ')).toEqual(['KIDS 9']);
  });
});

describe('two shoe sizes said with a pair or a colour taken back', () => {
  it('"my son\'s 4 or 5 in shoes" is no age; "a white pair", "sorry I meant black" keep both sizes', async () => {
    for (const message of ["my son's 4 or 5 in shoes", "my son's 6 or 7 in trainers, white"])
      expect((await chat(message)).brief.forAge, message).toBeUndefined();
    expect((await chat("my son's 6 or 7, pyjamas")).brief.forAge).toBe(6);
    for (const message of [
      'trainers 4 or 5 white pair',
      'trainers 4 or 5 black pair please',
      'trainers 4 or 5 sorry i meant black',
      'boots 4 or 5 sorry, i meant brown',
    ]) {
      expect((await chat(message)).brief.sizes, message).toEqual(['4', '5']);
      expect(parseConstraints(message).sizes, message).toEqual(['4', '5']);
    }
    // A count of pairs, or a size taken back, still gives no two sizes.
    for (const message of [
      'trainers 4 or 5 black pairs',
      'trainers 4 or 5 sorry I meant 6',
      'school shoes 4 or 5 sorry i mean size 6',
    ])
      expect((await chat(message)).brief.sizes ?? [], message).not.toContain('4');
  });
});
