import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { CLARIFY, CLARIFY_ITEM } from '../src/domain/style-reply.ts';
import { lastStep } from './stub-stylist.ts';

// Round 20: new families (a voice client, grandparents buying gifts, a dad texting tersely, Irish,
// Scottish and Australian English, budgets and baby sizes in many formats, corrections inside a
// message) and what the reader first misread.

const chat = lastStep;
const BRIGHT = ['red', 'yellow', 'orange', 'pink', 'green', 'blue'];

describe('a size with its European size in brackets', () => {
  it('"a dress size 10 (EU 38)" is size 10 and EU 38, no EU 10', async () => {
    expect((await chat('a dress size 10 (EU 38)')).brief.sizes).toEqual(['EU 38', '10']);
    expect(readMessage('shoes size 5 (EU 38)').sizes).toEqual(['EU 38', '5']);
    expect(parseConstraints('a dress size 10 (EU 38)').sizes).toEqual(['EU 38', '10']);
    // The system after its number still names it; one before its own number stays with it.
    expect(readMessage('trainers 42 eu').sizes).toEqual(['EU 42']);
    expect(readMessage('size 5 uk').sizes).toEqual(['UK 5']);
    expect(readMessage('uk 5 eu 38').sizes).toEqual(['UK 5', 'EU 38']);
  });
});

describe('a terse list of clauses', () => {
  it('"coat. boy. 10. <40": the figure after the child is the age', async () => {
    expect((await chat('coat. boy. 10. <40')).brief).toEqual({
      itemKinds: ['coat'],
      categories: ['OUTERWEAR'],
      maxPrice: 40,
      sizes: ['KIDS 10'],
      forAge: 10,
    });
    expect(readMessage('jacket. girl. 6. navy. 30 max')).toMatchObject({
      sizes: ['KIDS 6'],
      colors: ['navy'],
      price: { maxPrice: 30 },
      forAge: 6,
    });
    expect(readMessage('dress. daughter. 8. <30').forAge).toBe(8);
    // Money or a count after the child is none.
    expect(readMessage('a dress for my daughter. 30 max')).toMatchObject({
      sizes: [],
      price: { maxPrice: 30 },
    });
    expect(readMessage('a coat for my son. 2 pairs of socks too').sizes).toEqual([]);
  });

  it('"trainers, 5, black", "boots 7 please": a bare shoe size right after the shoes', async () => {
    expect((await chat('trainers, 5, black, £50 max')).brief).toEqual({
      itemKinds: ['sneakers'],
      categories: ['SHOES'],
      maxPrice: 50,
      currency: 'GBP',
      sizes: ['5'],
      colors: ['black'],
    });
    expect(readMessage('trainers. 5.5. white').sizes).toEqual(['5.5']);
    expect(readMessage('boots 7 please').sizes).toEqual(['7']);
    expect(parseConstraints('trainers 5').sizes).toEqual(['5']);
    // A heel's height, a count, a multi-buy or a baby's age is none.
    expect(readMessage('heels 3 inch').sizes).toEqual([]);
    expect(readMessage('trainers 2 pairs').sizes).toEqual([]);
    expect(readMessage('trainers 3 for £20')).toMatchObject({ sizes: [], price: { maxPrice: 6.66 } });
    expect(readMessage('boots 6 weeks old').sizes).toEqual(['0-3M']);
  });
});

describe('bright colours before the item', () => {
  it('"bright colours for my kids" asks the item and keeps the colours for it', async () => {
    const asked = await chat('bright colours for my kids');
    expect(asked.decision).toMatchObject({ kind: 'reply', text: CLARIFY_ITEM });
    expect(asked.brief).toEqual({ colors: BRIGHT });
    expect((await chat('bright colours for my kids', 't-shirts')).brief).toEqual({
      colors: BRIGHT,
      itemKinds: ['t-shirt'],
      categories: ['TOP'],
    });
    expect((await chat('vibrant colours please', 'a dress for my daughter age 4')).brief.colors).toEqual(
      BRIGHT,
    );
    // Other colours said with the item replace them; a question about colours still asks all.
    expect((await chat('bright colours for my kids', 'actually pastel t-shirts')).brief.colors).toEqual([
      'pink',
      'blue',
      'purple',
      'yellow',
      'green',
    ]);
    expect((await chat('what colors do you have')).decision).toMatchObject({ kind: 'reply', text: CLARIFY });
  });
});

describe('a colour corrected with "no" before the marker', () => {
  it('"green no actually blue trainers" is blue', () => {
    expect(readMessage('green no actually blue trainers').colors).toEqual(['blue']);
    expect(readMessage('trainers in red, no, sorry, navy').colors).toEqual(['navy']);
    expect(parseConstraints('green no wait blue hoodie').colors).toEqual(['blue']);
    // A colour said no to stays said no to.
    expect(readMessage('a dress not green no actually not blue either').excludedColors).toEqual([
      'green',
      'blue',
    ]);
  });
});

describe('an abbreviated bound', () => {
  it('"max. 45", "min. 20" are the budget', () => {
    expect(readMessage('shoes max. 45').price).toEqual({ maxPrice: 45 });
    expect(parseConstraints('shoes max. 45').maxPrice).toBe(45);
    expect(readMessage('jeans min. 20 max. 40').price).toEqual({ maxPrice: 40, minPrice: 20 });
    expect(parseConstraints('a coat max. £60')).toMatchObject({ maxPrice: 60, currency: 'GBP' });
  });
});

describe('a span of shoe sizes that starts on an odd size', () => {
  it('"size 3-5 shoes", "size 2-4 slippers" are every size of the span; clothes keep their pair rule', () => {
    expect(readMessage('size 3-5 shoes').sizes).toEqual(['3', '4', '5']);
    expect(readMessage('size 2-4 slippers for the twins').sizes).toEqual(['2', '3', '4']);
    expect(readMessage('kids shoes size 3.5-5.5').sizes).toEqual(['3.5', '4.5', '5.5']);
    expect(readMessage('a top size 3-5').sizes).toEqual(['3']);
    expect(readMessage('jeans size 3-5 and trainers size 7').sizes).toEqual(['3', '7']);
  });
});
