import { describe, expect, it } from 'vitest';
import { lastStep } from './stub-stylist.ts';

// Round 23: whole conversations (two to five messages), each message read with the brief the
// earlier ones left: answers to the stylist's question given as a fragment, corrections of whom
// the shopping is for, sizes and ages said again, a cloth said alone.

const chat = lastStep;

describe('a correction of whom the shopping is for', () => {
  it('"no I meant for my wife" after a daughter of 8 drops her age and size', async () => {
    expect((await chat('a dress for my daughter age 8', 'no i meant for my wife')).brief).toEqual({
      itemKinds: ['dress'],
      categories: ['DRESS'],
    });
    const step = await chat('a dress for my daughter age 8', 'no i meant for my wife', 'size 12');
    expect(step.brief).toEqual({ itemKinds: ['dress'], categories: ['DRESS'], sizes: ['12'] });
    expect(step.searches).toEqual([{ query: 'dress', size: '12' }]);
    for (const turns of [
      ['show me coats for my son age 8', 'actually for my daughter'],
      ['a jumper for my daughter age 10', 'not for her, for her brother'],
      ['a coat for my son age 8', 'sorry, it’s for my husband'],
      ['a dress for my daughter age 8', 'for my wife actually'],
      ['a coat for my son age 8', 'oh not for him for my daughter'],
    ]) {
      const { brief } = await chat(...turns);
      expect(brief.sizes, turns.join(' / ')).toBeUndefined();
      expect(brief.forAge, turns.join(' / ')).toBeUndefined();
    }
  });

  it('someone added, or a place of the child’s, keeps the child', async () => {
    expect((await chat('a hoodie for my son age 9', 'and for my daughter too')).brief).toMatchObject({
      sizes: ['KIDS 9'],
      forAge: 9,
    });
    expect((await chat('a coat for my son age 8', 'actually for my son’s school, navy')).brief).toMatchObject(
      { sizes: ['KIDS 8'], forAge: 8, colors: ['navy'] },
    );
    // Said with the new person's age, the age is theirs.
    expect((await chat('pyjamas for my son age 5', 'actually for my nephew, he is 6')).brief).toMatchObject({
      sizes: ['KIDS 6'],
      forAge: 6,
    });
  });
});

describe('a size said again for a child sized by age', () => {
  it('"what about size 10" after a child of 7 is the child’s size 10', async () => {
    const step = await chat('a coat for my daughter age 7', 'forget the colour', 'what about size 10');
    expect(step.brief).toEqual({
      itemKinds: ['coat'],
      categories: ['OUTERWEAR'],
      sizes: ['KIDS 10'],
      forAge: 7,
    });
    expect(step.searches).toEqual([{ query: 'coat', size: 'KIDS 10' }]);
    expect((await chat('a raincoat size 8 kids', 'actually a size 10', 'yellow')).brief.sizes).toEqual([
      'KIDS 10',
    ]);
    expect((await chat('a dress for my daughter age 8', 'size 10 please')).brief.sizes).toEqual(['KIDS 10']);
    expect((await chat('a jacket for my son age 8', 'what about size 10', 'under 35')).brief).toMatchObject({
      sizes: ['KIDS 10'],
      maxPrice: 35,
    });
  });

  it('a shoe size, a grown-up’s size or a waist stays as said', async () => {
    expect((await chat('wellies for my daughter age 3', 'size 8')).brief.sizes).toEqual(['8']);
    expect((await chat('a dress for my daughter age 14', 'women’s size 8')).brief.sizes).toEqual(['8']);
    expect((await chat('jeans for my son age 12', 'waist 28')).brief.sizes).toEqual(['28']);
    expect((await chat('a dress size 12 for me', 'what about size 14')).brief.sizes).toEqual(['14']);
  });
});

describe('a size for the parent beside the child’s', () => {
  it('"and for me, size 12" after a son of 8 keeps his size beside hers', async () => {
    const step = await chat('a coat for my son age 8', 'and for me size 12');
    expect(step.brief.sizes).toEqual(['KIDS 8', '12']);
    expect(step.searches).toEqual([
      { query: 'coat', size: 'KIDS 8' },
      { query: 'coat', size: '12' },
    ]);
  });
});

describe('an age corrected', () => {
  it('"age 8" then "actually make that 9" is a child of 9', async () => {
    expect((await chat('a coat for my son', 'age 8', 'actually make that 9')).brief).toEqual({
      itemKinds: ['coat'],
      categories: ['OUTERWEAR'],
      sizes: ['KIDS 9'],
      forAge: 9,
    });
    expect((await chat('a coat for my son age 8', 'no 9')).brief).toMatchObject({
      sizes: ['KIDS 9'],
      forAge: 9,
    });
    // Another size tried is no other age.
    expect((await chat('a coat for my son age 8', 'what about 9')).brief).toMatchObject({
      sizes: ['KIDS 9'],
      forAge: 8,
    });
  });

  it('"she’s actually 7", "he is now 10" is the child’s age', async () => {
    expect((await chat('a coat for my daughter age 6', 'um she’s actually 7 sorry')).brief).toMatchObject({
      sizes: ['KIDS 7'],
      forAge: 7,
    });
    expect((await chat('a hoodie for my son', 'he is now 10')).brief).toMatchObject({
      sizes: ['KIDS 10'],
      forAge: 10,
    });
  });
});

describe('a bare figure answering for a child named before', () => {
  it('"a winter coat for my daughter", then "7", is a child of 7', async () => {
    const step = await chat('a winter coat for my daughter', '7');
    expect(step.brief).toEqual({
      itemKinds: ['coat'],
      categories: ['OUTERWEAR'],
      seasons: ['WINTER'],
      sizes: ['KIDS 7'],
      forAge: 7,
    });
    expect(step.searches).toEqual([{ query: 'coat', season: 'WINTER', size: 'KIDS 7' }]);
    expect((await chat('a coat', 'for my son', '11', 'navy')).brief).toMatchObject({
      sizes: ['KIDS 11'],
      forAge: 11,
      colors: ['navy'],
    });
    expect((await chat('jeans for my son', '10')).brief).toMatchObject({ sizes: ['KIDS 10'], forAge: 10 });
  });

  it('with no child named, for shoes, or after a budget, it is not an age', async () => {
    expect((await chat('a top for me', '12')).brief.sizes).toBeUndefined();
    expect((await chat('trainers for my daughter', '13')).brief).toEqual({
      itemKinds: ['sneakers'],
      categories: ['SHOES'],
      sizes: ['13'],
    });
    expect((await chat('a dress for my daughter under 40', '30')).brief).toMatchObject({ maxPrice: 30 });
    expect((await chat('a dress for my daughter under 40', '30')).brief.forAge).toBeUndefined();
  });
});

describe('the cloth said alone', () => {
  it('"denim" after a skirt is the skirt’s cloth, not jeans', async () => {
    expect((await chat('a skirt for my daughter age 11', 'denim', 'under 20 pounds')).brief).toEqual({
      itemKinds: ['skirt'],
      categories: ['BOTTOM'],
      sizes: ['KIDS 11'],
      forAge: 11,
      maxPrice: 20,
      currency: 'GBP',
    });
    expect((await chat('a skirt for my daughter age 9', 'something denim')).brief.itemKinds).toEqual([
      'skirt',
    ]);
    expect((await chat('a jacket for my son', 'in denim please')).brief.itemKinds).toEqual(['jacket']);
  });

  it('jeans asked for are jeans', async () => {
    expect((await chat('a skirt for my daughter', 'actually jeans')).brief.itemKinds).toEqual(['jeans']);
    expect((await chat('a top for my daughter', 'and some jeans')).brief.itemKinds).toEqual(['top', 'jeans']);
    expect((await chat('something for my son', 'denim')).brief.itemKinds).toEqual(['jeans']);
  });
});
