import { describe, expect, it } from 'vitest';
import { lastStep } from './stub-stylist.ts';

// Round 23 reviewed: the round's conversation rules where their trigger words mean something else:
// the person named again, a grown-up's size said of someone, a count, a weight, an age no child's
// size goes with, a bare figure after shopping for oneself.

const chat = lastStep;

describe('a person named again is no correction of whom the shopping is for', () => {
  it('the child asked for before keeps the age and size, someone else takes them away', async () => {
    for (const turns of [
      ['a coat for my son age 8', 'no, for my son, navy'],
      ['a coat for my son age 8', 'not for my husband, for my son'],
      ['a coat for my boy age 8', 'no, for my son'],
      ['a dress for my daughter age 8', 'actually for my daughter, not for me'],
      ['my son needs a coat, he’s 8', 'no sorry it’s for my son'],
      // Two people: one added beside the child.
      ['a coat for my son age 8', 'actually for my son and my daughter'],
    ]) {
      const { brief } = await chat(...turns);
      expect(brief.sizes, turns.join(' / ')).toEqual(['KIDS 8']);
      expect(brief.forAge, turns.join(' / ')).toBe(8);
    }
    // Someone else still takes them away.
    for (const turns of [
      ['a coat for my son age 8', 'no i meant for my wife'],
      ['a coat for my son age 8', 'not for him, for his sister'],
      ['my son needs a coat, he’s 8', 'no sorry it’s for my daughter'],
    ]) {
      const { brief } = await chat(...turns);
      expect(brief.sizes, turns.join(' / ')).toBeUndefined();
      expect(brief.forAge, turns.join(' / ')).toBeUndefined();
    }
  });
});

describe('a grown-up’s size said after a child’s', () => {
  it('"my size is 10", "my husband is a size 12" are no child’s sizes', async () => {
    expect((await chat('a coat for my daughter age 7', 'my size is 10')).brief.sizes).toEqual(['10']);
    expect((await chat('a coat for my son age 8', 'my husband is a size 12')).brief.sizes).toEqual(['12']);
    expect((await chat('a coat for my son age 8', 'my wife’s a size 12')).brief.sizes).toEqual(['12']);
    expect((await chat('a dress for my daughter age 8', 'i wear a 12')).brief.sizes).toEqual(['12']);
  });

  it('a figure said again after both sizes replaces the nearer one', async () => {
    const step = await chat('a coat for my son age 8', 'and for me, size 12', 'no, 14');
    expect(step.brief).toMatchObject({ sizes: ['KIDS 8', '14'], forAge: 8 });
    expect(step.searches).toEqual([
      { query: 'coat', size: 'KIDS 8' },
      { query: 'coat', size: '14' },
    ]);
    // As near to both: the size said last.
    expect((await chat('a coat for my son age 8', 'and for me size 12', 'sorry 10')).brief.sizes).toEqual([
      'KIDS 8',
      '10',
    ]);
    expect(
      (await chat('a coat for my son age 8', 'and for me, size 12', 'actually make that 9')).brief,
    ).toMatchObject({ sizes: ['KIDS 9', '12'], forAge: 9 });
    expect(
      (await chat('a coat for me size 12', 'and one for my son age 8', 'actually make that 9')).brief,
    ).toMatchObject({ sizes: ['12', 'KIDS 9'], forAge: 9 });
  });
});

describe('a figure corrected that is no age', () => {
  it('"actually make that 2" after a child of 8 is how many, not a child of 2', async () => {
    for (const turns of [
      ['a coat for my son age 8', 'actually make that 2'],
      ['a coat for my son age 8', 'make it 2 please'],
      ['a coat for my son age 12', 'actually make that 3'],
    ]) {
      const { brief } = await chat(...turns);
      expect(brief.forAge, turns.join(' / ')).toBe(Number(turns[0]!.match(/\d+/)![0]));
      expect(brief.sizes, turns.join(' / ')).toEqual([`KIDS ${brief.forAge}`]);
    }
    // A nearby age is still a correction.
    expect((await chat('a coat for my son age 8', 'make that 9')).brief).toMatchObject({
      sizes: ['KIDS 9'],
      forAge: 9,
    });
  });

  it('a shoe size said again is no other age', async () => {
    expect((await chat('trainers for my son age 8', 'no 2')).brief.forAge).toBe(8);
  });
});

describe('"she’s actually …" that is no child’s age by size', () => {
  it('a weight or a count is no age', async () => {
    expect((await chat('a coat for my daughter', 'she’s actually 7 stone')).brief.forAge).toBeUndefined();
    expect((await chat('a coat for my son age 8', 'he’s 40 kilos')).brief).toMatchObject({
      sizes: ['KIDS 8'],
      forAge: 8,
    });
    expect((await chat('a coat for my son', 'they’re actually 3 of them')).brief.sizes).toBeUndefined();
  });

  it('months make a baby of no age in years; past 16 the child’s size by age goes', async () => {
    expect((await chat('a coat for my daughter age 8', 'she’s actually 7 months')).brief).toEqual({
      itemKinds: ['coat'],
      categories: ['OUTERWEAR'],
      sizes: ['6-9M'],
    });
    expect((await chat('a coat for my daughter age 8', 'she’s actually 17')).brief).toEqual({
      itemKinds: ['coat'],
      categories: ['OUTERWEAR'],
      forAge: 17,
    });
  });
});

describe('a bare figure after shopping for oneself', () => {
  it('"a top for me, my daughter is with me", then "12", is no child of 12', async () => {
    expect((await chat('a top for me, my daughter is with me', '12')).brief.forAge).toBeUndefined();
    expect((await chat('a top for my daughter', 'actually for me', '9')).brief.forAge).toBeUndefined();
    // The child asked for last is.
    expect((await chat('a top for me', 'and for my daughter', '9')).brief).toMatchObject({
      sizes: ['KIDS 9'],
      forAge: 9,
    });
  });
});
