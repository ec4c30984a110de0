import { describe, expect, it } from 'vitest';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { lastStep } from './stub-stylist.ts';

// Round 30: families naming several children with their ages, gifts from aunts, uncles and
// godparents, back-to-school lists with counts and sizes, and returns asked as a new purchase.
// Gifts and school lists were read right; a family would notice "my eldest is 12 and youngest 6"
// or "hoodies for both, 8 and 10" searching one child's size or none, and a return ("the 8 was
// too small, need a 9", "the size 4 wellies pinch, a 5 please") searching the size that did not
// fit, or none.

const chat = lastStep;

describe('a second child named with "and" and an age', () => {
  it('"my eldest is 12 and youngest 6", "my son 6 and his sister 4" search both sizes', async () => {
    for (const [message, sizes] of [
      ['my eldest is 12 and youngest 6, winter coats', ['KIDS 12', 'KIDS 6']],
      ['pyjamas for my son 6 and his sister 4', ['KIDS 6', 'KIDS 4']],
      ['my daughter is 7 and her friend is 8, party dresses', ['KIDS 7', 'KIDS 8']],
      ['my son is 9 and the little one 5, coats', ['KIDS 9', 'KIDS 5']],
    ] as const)
      expect((await chat(message)).brief.sizes, message).toEqual(sizes);
    // A count, money, a shoe size, months or a measure after the second child is none.
    for (const [message, sizes] of [
      ['my son is 7 and his sister 4 pairs of socks', ['KIDS 7']],
      ['my son is 7 and his sister 12 in shoes, trainers', ['KIDS 7']],
      ['my son is 7 and his friend 20 quid, hoodies', ['KIDS 7']],
      ['my son is 7 and his brother 3 inches taller, jeans', ['KIDS 7']],
      ['she is 8 and her sister 2 sizes smaller, dresses', ['KIDS 8']],
    ] as const)
      expect((await chat(message)).brief.sizes, message).toEqual(sizes);
  });

  it('"hoodies for both, 8 and 10", "coats for my two, 5 and 9" search both sizes', async () => {
    for (const [message, sizes] of [
      ['hoodies for both, 8 and 10', ['KIDS 8', 'KIDS 10']],
      ['coats for my two, 5 and 9', ['KIDS 5', 'KIDS 9']],
      ['pyjamas for the three, 4, 6 and 9', ['KIDS 4', 'KIDS 6', 'KIDS 9']],
    ] as const) {
      expect((await chat(message)).brief.sizes, message).toEqual(sizes);
      expect(parseConstraints(message).sizes, message).toEqual(sizes);
    }
    for (const message of [
      'hoodies for both, 20 and 30 quid',
      'socks for both, 2 and 3 pairs',
      'coats for my two, 2 coats',
    ])
      expect((await chat(message)).brief.sizes, message).toBeUndefined();
  });
});

describe('a return or an exchange asked as a new purchase', () => {
  it('"the 8 was too small, need a 9" searches the new size, not the old one', async () => {
    for (const [turns, sizes] of [
      [['the size 4 wellies pinch, a 5 please'], ['5']],
      [['the 32 waist jeans too tight, 34 please'], ['34']],
      [['the size 13 shoes were too tight, need size 1'], ['1']],
      [['sent the 12 back, need a 13 in the same trainers'], ['13']],
      [['the boots size 10 too small, size 11 please'], ['11']],
      [['swap the size 8 dress for a 10'], ['10']],
      [['the 11 was too small so need a 12 in school shoes'], ['12']],
      [['the trainers in 5 were too small, a 6 instead'], ['6']],
      [['the dress age 4 was too short, 5 please'], ['KIDS 5']],
      [['returned the 9-10 jumper, swap for 10-11'], ['KIDS 10', 'KIDS 11']],
      [['the 5-6 pyjamas did not fit so need 6-7'], ['KIDS 6', 'KIDS 7']],
      [['the black coat age 9 did not fit, same coat age 10'], ['KIDS 10']],
      [['coat', 'the 8 was too small, need a 9'], ['9']],
      [
        ['jeans 9-10', 'the 9-10 was too short, need 10-11'],
        ['KIDS 10', 'KIDS 11'],
      ],
    ] as const)
      expect((await chat(...turns)).brief.sizes, turns.join(' / ')).toEqual(sizes);
    expect((await chat('the age 7 coat was too small, need age 8')).brief.forAge).toBe(8);
  });

  it("keeps someone's age, a price, a count and a baby's months", async () => {
    expect((await chat('she is 7 and the coat was too small, age 8 please')).brief.forAge).toBe(7);
    expect((await chat('his trainers pinch, he is a 13 now')).brief.sizes).toEqual(['13']);
    for (const message of [
      'the coat was too small, need one under 40',
      'coat too big, 3 sizes',
      'the coat was too big, looking for 20 or less',
      'too small for 2 kids, need a bigger bag',
    ])
      expect((await chat(message)).brief.sizes, message).toBeUndefined();
    expect((await chat('the 30 quid coat was too small, need a 9')).brief.maxPrice).toBe(30);
    expect((await chat('the 12 months sleepsuit is too small, 12-18 please')).brief.sizes).toEqual([
      '12-18M',
    ]);
    expect((await chat('bought 3 tops too small, need 2 age 9')).brief.sizes).toEqual(['KIDS 9']);
  });
});
