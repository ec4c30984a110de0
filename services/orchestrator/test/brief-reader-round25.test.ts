import { describe, expect, it } from 'vitest';
import { lastStep } from './stub-stylist.ts';

// Round 25: a review of round 24's readings (a colour corrected with a bare "no", "4" texted for
// "for") for messages that come near them, and families shopping for several people in one
// message ("the older one is a 3 and the little one a 12"), the same again in another size, kids'
// ranges listed, heights, weather words and sizes of several countries.

const chat = lastStep;

describe('review: "4" is no "for" after one who is 4 or wears a 4', () => {
  it('"she\'s 4 her brother is 6" keeps both children\'s ages', async () => {
    for (const message of [
      "she's 4 her brother is 6 need coats",
      'shes 4 her sister is 6, coats please',
      "he's 4 his sister is 6 both need coats",
      'coats for my kids hes 4 the girl is 6',
    ])
      expect((await chat(message)).brief.sizes, message).toEqual(['KIDS 4', 'KIDS 6']);
    expect((await chat("boots she's 4 me i'm a 6")).brief).toMatchObject({ sizes: ['6'], forAge: 4 });
    // "4" texted for "for" before whom it is for is still read so.
    expect((await chat('trainers 4 my daughter sz 1')).brief.sizes).toEqual(['1']);
    expect((await chat('jeans 4 her age 9 under 30')).brief).toMatchObject({
      sizes: ['KIDS 9'],
      maxPrice: 30,
    });
    expect((await chat('a dress 4 a wedding')).brief.occasion).toBe('wedding');
    expect((await chat('size 6 trainers 4 my daughter')).brief.sizes).toEqual(['6']);
  });
});

describe('review: a colour corrected, or the other colour said of', () => {
  it('"a red dress no a blue dress is too dark" keeps the red dress', async () => {
    for (const message of [
      'a red dress no a blue dress is too dark',
      'a red dress no a blue dress would look odd',
      'a black coat no a navy coat isnt smart enough',
    ]) {
      const { brief } = await chat(message);
      expect(brief.colors, message).toHaveLength(1);
      expect(brief.colors, message).not.toContain('blue');
      expect(brief.colors, message).not.toContain('navy');
    }
    // Said with no word about it, the item said again is still the colour corrected.
    expect((await chat('i want a red dress no a blue dress')).brief.colors).toEqual(['blue']);
    expect((await chat('a green coat no actually a grey coat')).brief.colors).toEqual(['grey']);
  });

  it('"a red no sorry a blue dress" is a blue dress, not dresses said no to', async () => {
    for (const message of [
      'a red no sorry a blue dress',
      'a red no wait a blue dress',
      'a red, no sorry, a blue dress',
      'um a red no i mean a blue dress',
    ])
      expect((await chat(message)).brief, message).toEqual({
        itemKinds: ['dress'],
        categories: ['DRESS'],
        colors: ['blue'],
      });
    expect((await chat('a black no a navy school jumper')).brief).toMatchObject({
      itemKinds: ['sweater'],
      colors: ['navy'],
    });
    // A bare "no" after the item still says no: "a black dress no red", "a blue hoodie no a red zip".
    expect((await chat('a black dress no red')).brief).toMatchObject({
      colors: ['black'],
      excludedColors: ['red'],
    });
    expect((await chat('a blue hoodie no a red logo')).brief).toMatchObject({
      itemKinds: ['hoodie'],
      colors: ['blue'],
    });
  });
});

describe('review: a "no-" word of the item is no item said no to', () => {
  it('"a white no iron shirt", "no show socks", "a no fuss coat" are shirts, socks and coats', async () => {
    expect((await chat('a white no iron shirt for school')).brief).toEqual({
      itemKinds: ['shirt'],
      categories: ['TOP'],
      colors: ['white'],
      occasion: 'school',
    });
    expect((await chat('a blue no iron school shirt')).brief.itemKinds).toEqual(['shirt']);
    expect((await chat('white no show socks')).brief).toMatchObject({
      itemKinds: ['socks'],
      colors: ['white'],
    });
    expect((await chat('a pink no nonsense raincoat')).brief.itemKinds).toEqual(['raincoat']);
    expect((await chat('no tie shoes for my son')).brief.itemKinds).toEqual(['shoes']);
    // The item said no to alone, or a detail, is still said no to.
    expect((await chat('no shirts')).brief.excludedKinds).toEqual(['shirt']);
    expect((await chat('black boots no heels')).brief.excludedKinds).toEqual(['heels']);
  });
});

describe('several children, each with their size', () => {
  it('"the older one is a 3 and the little one a 12" is sizes 3 and 12', async () => {
    const step = await chat(
      'school shoes for both boys, the older one is a 3 and the little one a 12, under 40 each',
    );
    expect(step.brief).toEqual({
      itemKinds: ['shoes'],
      categories: ['SHOES'],
      maxPrice: 40,
      sizes: ['3', '12'],
      occasion: 'school',
    });
    expect(step.searches).toEqual([
      { maxPrice: 40, size: '3' },
      { maxPrice: 40, size: '12' },
    ]);
    expect((await chat("trainers for the boys, one's a 10 the other's a 1")).brief.sizes).toEqual([
      '10',
      '1',
    ]);
    expect((await chat('school shoes x2, one is a 12 one is a 1')).brief.sizes).toEqual(['12', '1']);
    expect((await chat('trainers for my two the eldest is a size 5 the youngest a 13')).brief.sizes).toEqual([
      '13',
      '5',
    ]);
    expect((await chat("he's a 4 my other son a 5")).brief.sizes).toEqual(['4', '5']);
    expect((await chat('trainers, the eldest takes a 5 and the younger one a 2')).brief.sizes).toEqual([
      '5',
      '2',
    ]);
    // A count or an age after them is no size.
    expect((await chat('socks for my son a 3 pack')).brief.sizes).toBeUndefined();
    expect((await chat('a coat for my son a 10 year old')).brief).toMatchObject({ forAge: 10 });
  });

  it('"kids 4-5 and 7-8": every range of the list', async () => {
    expect((await chat("pj's for the kids 4-5 and 7-8")).brief.sizes).toEqual([
      'KIDS 4',
      'KIDS 5',
      'KIDS 7',
      'KIDS 8',
    ]);
    expect((await chat('hoodies kids 9-10 and 11-12 navy')).brief.sizes).toEqual([
      'KIDS 9',
      'KIDS 10',
      'KIDS 11',
      'KIDS 12',
    ]);
    expect((await chat('leggings kids 4-5 and 10 quid max')).brief).toMatchObject({
      sizes: ['KIDS 4', 'KIDS 5'],
      maxPrice: 10,
    });
  });
});

describe('the same again in another size', () => {
  it('"same again but a 13" is size 13', async () => {
    expect((await chat('school shoes size 12', 'same again but a 13')).brief.sizes).toEqual(['13']);
    expect((await chat('same school shoes as before but a 13')).brief.sizes).toEqual(['13']);
    expect((await chat('a coat size 8', 'same but a 10 please')).brief.sizes).toEqual(['10']);
    expect((await chat('a dress but a 12 would be better')).brief.sizes).toEqual(['12']);
    // An age, a budget or a price after "but a" is none.
    expect((await chat('a coat but a 3 year old')).brief).toMatchObject({ forAge: 3 });
    expect((await chat('same trainers but a 50 budget')).brief.sizes).toBeUndefined();
  });
});
