import { describe, expect, it } from 'vitest';
import { lastStep } from './stub-stylist.ts';

// Round 7: whole conversations. A terse answer or correction reads against what was said before:
// "back to the jackets" narrows the list, "make it 150" and "no 25" move the budget, "or green"
// and "or 12" add an alternative, "and the same for her brother" adds a child, "9" after
// "trainers" is the size. None from the corpus.

/** The last message's first step, each earlier message kept in the history. */
const chat = lastStep;

describe('going back to items asked for before', () => {
  it('"back to the jackets" searches the jackets alone, in the son’s size, not his sister’s', async () => {
    const { brief, searches } = await chat(
      'jackets for my son age 10',
      'and something for his sister too, shes 6, a dress',
      'back to the jackets',
    );
    expect(brief).toMatchObject({ itemKinds: ['jacket'], sizes: ['KIDS 10'], forAge: 10 });
    expect(searches).toEqual([{ query: 'jacket', size: 'KIDS 10' }]);
  });

  it('"just the jeans" leaves out the white said of the top', async () => {
    const { brief, searches } = await chat('black jeans and a white top for my daughter', 'just the jeans');
    expect(brief.colors).toEqual(['black']);
    expect(searches).toEqual([{ query: 'jeans', colors: ['black'] }]);
  });

  it('"go back to the coat and boots" drops the hat added for another child, and her size', async () => {
    const { brief } = await chat(
      'a coat and boots for my son hes 9',
      'and a hat for his sister shes 4',
      'go back to the coat and boots',
    );
    expect(brief).toMatchObject({ itemKinds: ['coat', 'boots'], sizes: ['KIDS 9'], forAge: 9 });
  });
});

describe('a bare number corrects the figure it is nearest', () => {
  it.each([
    ['actually make it 150', 150],
    ['make that 200 then', 200],
  ])('"%s" after "under 100" is the new ceiling (three digits are no clothing size)', async (text, max) => {
    const { brief } = await chat('need a winter coat', 'under 100', text);
    expect(brief.maxPrice).toBe(max);
  });

  it('"no 25" after "under 30" for a ten-year-old is the budget, not a child’s size 25', async () => {
    const { brief, searches } = await chat('a jumper for my son', 'age 10', 'under 30', 'no 25');
    expect(brief).toMatchObject({ maxPrice: 25, sizes: ['KIDS 10'] });
    expect(searches).toEqual([{ query: 'sweater', maxPrice: 25, size: 'KIDS 10' }]);
  });

  it('"no 12" and "nah 6" after a size are the size said again', async () => {
    expect((await chat('wellies for my daughter', 'size 11', 'no 12')).brief.sizes).toEqual(['12']);
    expect((await chat('boots', 'uk 5', 'nah 6')).brief.sizes).toEqual(['UK 6']);
  });

  it('"9" or "38" answering "trainers" is the shoe size', async () => {
    expect((await chat('need trainers', '9', 'under 60')).brief).toMatchObject({
      sizes: ['9'],
      maxPrice: 60,
    });
    expect((await chat('shoes', '38')).brief.sizes).toEqual(['38']);
  });
});

describe('alternatives and another child add to the brief', () => {
  it('"or green" after "navy" searches both colours', async () => {
    const { brief, searches } = await chat('a cardigan for my mum', 'navy', 'or green');
    expect(brief.colors).toEqual(['navy', 'green']);
    expect(searches).toEqual([{ query: 'cardigan', colors: ['navy', 'green'] }]);
  });

  it('"also in blue" adds blue to green', async () => {
    expect((await chat('a dress', 'in green', 'also in blue')).brief.colors).toEqual(['green', 'blue']);
  });

  it('"or 12" after "size 10" searches both sizes', async () => {
    const { searches } = await chat('a dress size 10', 'or 12');
    expect(searches).toEqual([
      { query: 'dress', size: '10' },
      { query: 'dress', size: '12' },
    ]);
  });

  it('"and the same for her brother hes 11" searches both children’s sizes', async () => {
    const { brief } = await chat('pyjamas for my daughter', 'age 9', 'and the same for her brother hes 11');
    expect(brief.sizes).toEqual(['KIDS 9', 'KIDS 11']);
  });
});
