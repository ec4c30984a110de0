import { describe, expect, it } from 'vitest';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { lastStep } from './stub-stylist.ts';

// Round 29: dads texting in three words ("boots 8 black", "coat kid 5 navy", "jeans 32/32 <50"),
// teenagers' slang and brands ("fit check", "drip", "cargos", "y2k", "oversized hoodie"),
// siblings sharing, conversations refined step by step ("shoes" / "for running" / "under 60" /
// "actually white") and messages with emojis, hashtags and capitals. Most were read right; a
// family would notice a garment texted with its kids' label pair ("pyjamas 4-5 blue", "coat 9-10
// <£35", or "coat" then "9-10") searched in no size at all, "14 yrs" sent alone after "jeans"
// read as nothing, "the little one is 2" or "coats for my twins, 4" giving no age, and
// "snowsuit 18 months" searched in no baby size.

const chat = lastStep;

describe("a garment texted with a kids' label pair", () => {
  it('"pyjamas 4-5 blue", "coat 9-10 <£35", "polo 7-8 white x3" search both kids\' sizes', async () => {
    for (const [message, sizes] of [
      ['pyjamas 4-5 blue', ['KIDS 4', 'KIDS 5']],
      ['coat 9-10 <£35', ['KIDS 9', 'KIDS 10']],
      ['polo 7-8 white x3', ['KIDS 7', 'KIDS 8']],
      ['leggings 5-6', ['KIDS 5', 'KIDS 6']],
      ['hoodie 11-12 grey', ['KIDS 11', 'KIDS 12']],
      ['coat 9-10, navy', ['KIDS 9', 'KIDS 10']],
    ] as const) {
      expect((await chat(message)).brief.sizes, message).toEqual(sizes);
      expect(parseConstraints(message).sizes, message).toEqual(sizes);
    }
    // Shoes' pair, a grown-up's sizes two apart, a sleeve or a duration are as before.
    expect((await chat('boots 4-5')).brief.sizes).toEqual(['4', '5']);
    for (const message of [
      'dress 8-10',
      'dress 10-12 black',
      't-shirt 3/4 sleeve',
      'coat 2-3 years warranty',
    ])
      expect((await chat(message)).brief.sizes, message).toBeUndefined();
  });
});

describe("a kids' label or an age in years sent alone after the garment", () => {
  it('"pyjamas" then "4-5", "jeans" then "14 yrs" search that kids\' size', async () => {
    for (const [turns, sizes] of [
      [
        ['leggings', '5-6'],
        ['KIDS 5', 'KIDS 6'],
      ],
      [
        ['pyjamas', '4-5 please'],
        ['KIDS 4', 'KIDS 5'],
      ],
      [
        ['coat', 'under 40', '9-10'],
        ['KIDS 9', 'KIDS 10'],
      ],
      [['jeans', 'baggy', '14 yrs'], ['KIDS 14']],
      [['coat', '9 years'], ['KIDS 9']],
    ] as const)
      expect((await chat(...turns)).brief.sizes, turns.join(' / ')).toEqual(sizes);
    // Shoes' two sizes, a price pair, socks' range or a duration are as before.
    expect((await chat('trainers', '4-5')).brief.sizes).toEqual(['4', '5']);
    expect((await chat('coat', '20-25')).brief.sizes).toBeUndefined();
    expect((await chat('socks', '6-8')).brief.sizes).toBeUndefined();
    expect((await chat('coat', '9-10 quid')).brief.sizes).toBeUndefined();
    expect((await chat('coat', 'lasts 2 years')).brief.sizes).toBeUndefined();
  });
});

describe('"the little one", the twins, a teen, with an age', () => {
  it('"the little one is 2", "coats for my twins, 4", "for my teen, 15" give the age', async () => {
    for (const [message, age] of [
      ['the little one is 2, a coat', 2],
      ['my little one is 4 and needs wellies', 4],
      ['the middle one is 7, jumper', 7],
      ['coats for my twins, 4', 4],
      ['my twins, 6, need wellies', 6],
      ['low rise jeans for my teen, 15', 15],
      ['hoodie for my teenager, 14', 14],
    ] as const)
      expect((await chat(message)).brief.forAge, message).toBe(age);
    expect((await chat('the little one is 3 months, vests')).brief.sizes).toEqual(['3-6M']);
    // Money or a count said the same way is none.
    for (const message of [
      'the little one is 20 quid, hats',
      'my twins, 2 coats please',
      'my twins, 20 quid each, coats',
    ])
      expect((await chat(message)).brief.forAge, message).toBeUndefined();
  });
});

describe('months texted right after a garment', () => {
  it('"snowsuit 18 months", "vests, 6 months", "a cardigan 12 mths" search that baby size', async () => {
    for (const [message, size] of [
      ['snowsuit 18 months', '18-24M'],
      ['vests, 6 months', '6-9M'],
      ['a cardigan 12 mths', '12-18M'],
      ['hat 6 months', '6-9M'],
    ] as const) {
      expect((await chat(message)).brief.sizes, message).toEqual([size]);
      expect(parseConstraints(message).sizes, message).toEqual([size]);
    }
    // A duration or a warranty is no size.
    for (const message of ['coat 18 months warranty', 'a coat that lasts 18 months'])
      expect((await chat(message)).brief.sizes, message).toBeUndefined();
  });
});
