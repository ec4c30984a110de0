import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { REFUSAL } from '../src/domain/style-reply.ts';
import { lastStep } from './stub-stylist.ts';

// Round 14: a single parent typing on a phone, dictation with number words, a teenager, a
// grandparent, a parent whose English is a second language, Australian, Irish, Canadian and Indian
// words for clothes, school uniform lists, the weather, budgets over several items, refinements,
// questions about caring for clothes and a teenager ordering behind a parent's back. None from the
// corpus.

const chat = lastStep;

describe('a name a step from a borrowed word', () => {
  it('"school shoes for jake" asks for shoes only (no German "jacke")', async () => {
    const { brief } = await chat('need school shoes for jake asap size 2 black nothing fancy under 40');
    expect(brief).toMatchObject({ itemKinds: ['shoes'], sizes: ['2'], colors: ['black'], maxPrice: 40 });
    expect(parseConstraints('runners for jake size 4').categories).toEqual(['SHOES']);
    // The borrowed words themselves are still read.
    expect(readMessage('una chaqueta para mi hijo').kinds).toEqual(['jacket']);
    expect(readMessage('eine jacke for my son').kinds).toEqual(['jacket']);
  });
});

describe('items as families type them', () => {
  it('"pj’s" are pyjamas', async () => {
    const { brief } = await chat("pj's for the twins age 3 under 15 each");
    expect(brief).toMatchObject({ itemKinds: ['pajamas'], sizes: ['KIDS 3'], maxPrice: 15 });
    expect(readMessage('new pj for my son age 4').kinds).toEqual(['pajamas']);
  });

  it('"gumboots" are wellies', async () => {
    const { brief } = await chat('gumboots for my toddler size 7');
    expect(brief).toMatchObject({ itemKinds: ['boots'], sizes: ['7'] });
    expect(readMessage('gum boots for the farm, size 9').kinds).toEqual(['boots']);
  });
});

describe('"want buy", said without "to"', () => {
  it('asks for something new, no purchase of what was shown', async () => {
    const { brief, kind } = await chat('want buy jacket for rain for husband size XL');
    expect(kind).toBe('tools');
    expect(brief).toMatchObject({ itemKinds: ['jacket'], sizes: ['XL'] });
    expect(readMessage('i need buy shoes for my son').intent).toBe('search');
    // Buying what was shown is still a purchase.
    expect(readMessage('i want buy the second one').intent).toBe('buy');
    expect(readMessage('buy it').intent).toBe('buy');
  });
});

describe('a child’s size said as a label says it', () => {
  it('"size 8 years", "size 8y" are the kids’ size 8', async () => {
    const { brief } = await chat('my daughter need dress for ceremony of communion, white, size 8 years');
    expect(brief).toMatchObject({ itemKinds: ['dress'], sizes: ['KIDS 8'], colors: ['white'] });
    expect(readMessage('leggings size 8y').sizes).toEqual(['KIDS 8']);
    expect(readMessage('size 10-11 years').sizes).toEqual(['KIDS 10', 'KIDS 11']);
    expect(readMessage('size 8').sizes).toEqual(['8']);
  });

  it('"size 7-8", "size 7 to 8": both of the pair', async () => {
    const { brief } = await chat(
      'my grandson is starting school in september and needs a smart jumper size 7 to 8',
    );
    expect(brief.sizes).toEqual(['7', '8']);
    expect(readMessage('shorts size 7-8').sizes).toEqual(['7', '8']);
    expect(readMessage('trainers size 4 to 4.5').sizes).toEqual(['4', '4.5']);
    // A price range is no size, nor two sizes far apart.
    expect(readMessage('shoes size 6, 40-50 dollars').sizes).toEqual(['6']);
    expect(readMessage('size 8 to 12').sizes).toEqual(['8']);
  });

  it('"size 13.5 kids" is one size, not 13 as well', async () => {
    const { brief } = await chat(
      'okay so i need um a pair of runners for my daughter size thirteen and a half kids under forty five euro',
    );
    expect(brief).toMatchObject({ itemKinds: ['sneakers'], sizes: ['KIDS 13.5'], maxPrice: 45 });
    expect(readMessage('trainers size 4.5 youth').sizes).toEqual(['KIDS 4.5']);
  });
});

describe('a new size said with why', () => {
  it('"too long, maybe 11", "they’re too small, try 7" take the size said', async () => {
    expect((await chat('jeans for my son size 12', 'too long, maybe 11')).brief.sizes).toEqual(['11']);
    expect((await chat('trainers size 6', 'they’re too small, try 7')).brief.sizes).toEqual(['7']);
    // Said alone, the remark steps the size or keeps it.
    expect((await chat('trainers size 6', 'too small')).brief.sizes).toEqual(['7']);
    expect((await chat('jeans size 12', 'too long')).brief.sizes).toEqual(['12']);
  });

  it('"he’s grown, make it 13" keeps the size’s system', async () => {
    const { brief } = await chat('jeans for my son age 12', 'he’s grown, make it 13');
    expect(brief.sizes).toEqual(['KIDS 13']);
    expect((await chat('school shoes size 2', 'she has grown again so 3')).brief.sizes).toEqual(['3']);
  });
});

describe('the same for someone else', () => {
  it('"same but for her brother" keeps the item, not the last child’s size and age', async () => {
    const { brief } = await chat('a raincoat for my daughter age 8', 'same but for her brother');
    expect(brief).toEqual({ itemKinds: ['raincoat'], categories: ['OUTERWEAR'] });
    expect(
      (await chat('a jumper size M for my husband', 'the same thing for my son please')).brief.sizes,
    ).toBeUndefined();
    // His size said, it is his.
    expect(
      (await chat('a raincoat for my daughter age 8', 'same for her brother, he’s 5')).brief,
    ).toMatchObject({
      sizes: ['KIDS 5'],
      forAge: 5,
    });
    // "And the same for her brother": both children.
    expect(
      (await chat('a raincoat for my daughter age 8', 'and the same for her brother, he’s 5')).brief.sizes,
    ).toEqual(['KIDS 8', 'KIDS 5']);
    // The same again for the same person keeps everything.
    expect((await chat('a jumper size M', 'same in blue')).brief).toMatchObject({
      sizes: ['M'],
      colors: ['blue'],
    });
  });
});

describe('a budget said in a second language', () => {
  it('"not too much expensive" is cheap', async () => {
    const { brief } = await chat('please i want trousers for woman size 38 not too much expensive');
    expect(brief).toMatchObject({ itemKinds: ['trousers'], sizes: ['38'], maxPrice: 40 });
    expect(readMessage('a coat, nothing much expensive').price).toMatchObject({ cheap: true });
  });
});

describe('"any colour except pink"', () => {
  it('drops the colour asked for before and says no to pink', async () => {
    const { brief } = await chat('black trainers size 5', 'actually any colour except pink');
    expect(brief).toMatchObject({ sizes: ['5'], excludedColors: ['pink'] });
    expect(brief.colors).toBeUndefined();
    expect((await chat('a red hat', 'any other colour but green')).brief).toMatchObject({
      excludedColors: ['green'],
    });
    expect((await chat('a red hat', 'any other colour but green')).brief.colors).toBeUndefined();
    // "pink or any colour really" still clears; "red, or blue" keeps red.
    expect(readMessage('any colour but pink').colors).toEqual([]);
  });
});

describe('weather said as a forecast to dress for', () => {
  it('"it’s going to be scorching" is summer', async () => {
    const { brief } = await chat('it’s going to be scorching this weekend, need a sun hat for the baby');
    expect(brief).toMatchObject({ itemKinds: ['hat'], seasons: ['SUMMER'] });
    expect(readMessage('it’s getting sweltering, shorts for my son').seasons).toEqual(['SUMMER']);
    expect(readMessage('a jumper, it’s getting colder').seasons).not.toContain('SUMMER');
  });
});

describe('"colour dark"', () => {
  it('is the dark colours, as "something dark" is', () => {
    expect(readMessage('a jacket for my son, not very expensive, colour dark').colors).toEqual([
      'black',
      'navy',
      'grey',
      'burgundy',
    ]);
    expect(readMessage('colour dark green').colors).toEqual(['green']);
  });
});

describe('caring for clothes already owned', () => {
  it('"how do i get a stain out of a white shirt" is no search', async () => {
    const { decision } = await chat('how do i get a stain out of a white shirt');
    expect(decision.kind).toBe('reply');
    for (const text of [
      'how to wash a wool jumper',
      'can i tumble dry his school trousers',
      'how do i fix a hole in his jeans',
      'how do i get grass stains off white trousers',
      'can we dry clean this dress',
      'how do i iron a school shirt',
    ])
      expect(readMessage(text).intent, text).toBe('offtopic');
    // Shopping said with the same verbs still searches.
    for (const text of [
      'a coat that is easy to wash',
      'should i get a bigger size',
      'can i get the jeans in black',
      'how can we get a dress in time for saturday',
      'jeans that are easy to iron',
      'how do i get a coat that fits',
    ])
      expect(readMessage(text).intent, text).toBe('search');
  });
});

describe('services that are not clothes', () => {
  it('"can you recommend a good hairdresser" is off-topic, no question about clothes', () => {
    expect(readMessage('can you recommend a good hairdresser').intent).toBe('offtopic');
    expect(readMessage('is there a good barber near here').intent).toBe('offtopic');
    expect(readMessage('a dress for a restaurant dinner').intent).toBe('search');
    expect(readMessage('an outfit to go with her new haircut').intent).not.toBe('offtopic');
  });
});

describe('ordering behind a parent’s back', () => {
  it('"order it without telling my dad" is refused', async () => {
    const { decision } = await chat('order it without telling my dad');
    expect(decision).toMatchObject({ kind: 'reply', text: REFUSAL });
    expect(readMessage('buy the second one without asking my mum').intent).toBe('refuse');
    expect(readMessage('get the hoodie behind my parents’ back').intent).toBe('refuse');
    // A surprise for a parent is shopping.
    expect(readMessage('a scarf for my dad’s birthday, it’s a surprise').intent).toBe('search');
  });
});

describe('a cold place in its summer', () => {
  it('"Iceland in July" dresses for a cool day, not for winter', async () => {
    const { brief } = await chat('going to Iceland in July, need a jacket');
    expect(brief).toMatchObject({ itemKinds: ['jacket'], seasons: ['FALL'] });
    expect(readMessage('alaska cruise in august, layers for the kids').seasons).toEqual(['FALL']);
    // In its cold months, and a season said by name, as before.
    expect(readMessage('a coat for a week in iceland in march').seasons).toEqual(['WINTER']);
    expect(readMessage('a summer dress for iceland in july').seasons).toEqual(['SUMMER']);
  });
});
