import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { CLARIFY } from '../src/domain/style-reply.ts';
import { lastStep } from './stub-stylist.ts';

// Round 8: requests families send that earlier rounds did not cover: thermals and vests, suits
// that are no tailoring, a destination's climate, sizes said as alternatives, everyday words the
// spelling correction turned into clothes, dictation's sound-alikes, items said as what another
// goes with, festivals, and accessibility. None from the corpus.

const chat = lastStep;
const kinds = (text: string) => readMessage(text).kinds;

describe('thermals, base layers and vests', () => {
  it.each([
    ['thermal base layers for my son', ['base layer']],
    ['thermals for skiing', ['base layer']],
    ['a thermal vest for my baby', ['base layer']],
    ['long johns for my dad', ['long johns']],
    ['a vest for my son to wear under his school shirt', ['vest']],
    ['a white vest for school', ['vest']],
    ['a sweater vest for my son', ['waistcoat']],
    ['a waistcoat for a wedding', ['waistcoat']],
    ['a rash vest for my son, age 5', ['swimsuit']],
  ])('"%s" asks for %j', (text, expected) => {
    expect(kinds(text)).toEqual(expected);
  });

  it('thermal base layers are searched as such, for the cold', async () => {
    const { brief, searches } = await chat('thermal base layers for my son');
    expect(brief).toMatchObject({ itemKinds: ['base layer'], seasons: ['WINTER'] });
    expect(searches).toEqual([{ query: 'base layer', season: 'WINTER' }]);
  });

  it('"long johns" is clothing, not a request outside it', async () => {
    const { kind, searches } = await chat('long johns for my dad');
    expect(kind).toBe('tools');
    expect(searches).toEqual([{ query: 'long johns', season: 'WINTER' }]);
  });
});

describe('a suit after a sport or a character is no tailoring', () => {
  it.each([
    ['karate suit for my 8 year old', ['gi']],
    ['a judo gi for my son', ['gi']],
    ['a taekwondo uniform', ['gi']],
    ['a boiler suit for me', ['jumpsuit']],
    ['wellies and a puddle suit for my toddler', ['boots', 'raincoat']],
    ['a sweat suit for my teen', ['tracksuit']],
    ['a running suit', ['tracksuit']],
    ['a superhero suit for world book day', ['costume']],
    ['a space suit for my son', ['costume']],
    ['a dry suit for kayaking', ['wetsuit']],
    ['a sun suit for the baby', ['swimsuit']],
  ])('"%s" asks for %j', (text, expected) => {
    expect(kinds(text)).toEqual(expected);
  });

  it('the karate suit is searched in the child’s size, in no tailoring category', async () => {
    const { brief, searches } = await chat('karate suit for my 8 year old');
    expect(brief).toMatchObject({ itemKinds: ['gi'], categories: ['OTHER'], sizes: ['KIDS 8'] });
    expect(searches).toEqual([{ query: 'gi', size: 'KIDS 8' }]);
    expect(parseConstraints('karate suit for my 8 year old').categories).toEqual(['OTHER']);
  });

  it('"a navy suit for work" is still tailoring', () => {
    expect(kinds('a navy suit for work')).toEqual(['suit']);
  });
});

describe('where the clothes are worn decides over the month', () => {
  it.each([
    ['clothes for a week in Iceland in March', 'WINTER'],
    ['what to pack for lapland in april', 'WINTER'],
    ['ski trip in april, need a jacket', 'WINTER'],
    ['summer ski trip to chile', 'WINTER'],
    ['beach holiday in january, need a swimsuit', 'SUMMER'],
    ['a trip to dubai in february', 'SUMMER'],
    ['a week in tenerife at easter', 'SUMMER'],
    ['a dress for christmas in australia', 'SUMMER'],
    ['a trip to new zealand in july, coats for the kids', 'WINTER'],
  ])('"%s" dresses for %s', (text, season) => {
    expect(readMessage(text).seasons).toEqual([season]);
    expect(parseConstraints(text).season).toBe(season);
  });

  it('the search asks for the destination’s season, not the calendar’s', async () => {
    const { searches } = await chat('a coat for a week in iceland in march');
    expect(searches).toEqual([{ query: 'coat', season: 'WINTER' }]);
  });

  it('a month at home is still the month’s season', () => {
    expect(readMessage('a dress for a party in march').seasons).toEqual(['SPRING']);
    expect(readMessage('a coat for christmas').seasons).toEqual(['WINTER']);
  });
});

describe('sizes said as alternatives and corrections', () => {
  it('"a dress size 8 or a 10" searches both sizes', async () => {
    const { brief, searches } = await chat('a dress size 8 or a 10');
    expect(brief.sizes).toEqual(['8', '10']);
    expect(searches).toEqual([
      { query: 'dress', size: '8' },
      { query: 'dress', size: '10' },
    ]);
    expect(parseConstraints('a dress size 8 or size 10').sizes).toEqual(['8', '10']);
  });

  it('"size 8 or a 10 year old" is no second size', () => {
    expect(readMessage('a dress size 8 or a 10 year old').sizes).not.toContain('10');
  });

  it('"no, a 1 actually" after "size 13" corrects the size', async () => {
    const { brief } = await chat('trainers for my daughter', 'size 13', 'no, a 1 actually');
    expect(brief.sizes).toEqual(['1']);
  });
});

describe('everyday words are never corrected into clothes', () => {
  it.each([
    ['a wetsuit for surfing', { kinds: ['wetsuit'], seasons: ['SUMMER'] }],
    ['a top for biking', { kinds: ['top'], seasons: [] }],
    ['sunglasses for the times we go out', { kinds: ['sunglasses'], seasons: [] }],
    ['school kits for my two boys, age 7', { kinds: [], seasons: [] }],
    ['tops for a capsule wardrobe', { kinds: ['top'], seasons: [] }],
    ['a jacket for overcast days', { kinds: ['jacket'], seasons: [] }],
  ])('"%s"', (text, expected) => {
    const r = readMessage(text);
    expect({ kinds: r.kinds, seasons: r.seasons }).toEqual(expected);
  });

  it.each([
    ['he stood in the rain all day, needs a coat', ['coat']],
    ['i was talking to my mum about a dress', ['dress']],
    ['thanking you in advance, jeans for my son', ['jeans']],
  ])('"%s" asks for %j only', (text, expected) => {
    expect(kinds(text)).toEqual(expected);
  });

  it('"clothes for a sporting event" asks which item, not spring clothes', async () => {
    const { decision, brief } = await chat('clothes for a sporting event');
    expect(brief).toEqual({});
    expect(decision).toMatchObject({ kind: 'reply', text: CLARIFY });
  });

  it.each([
    ['some snickers for running', ['sneakers']],
    ['genes for my son size 10', ['jeans']],
    ['a jump her for my daughter', ['sweater']],
    ['a tea shirt and shorts', ['t-shirt', 'shorts']],
    ['sandles for the beech', ['sandals']],
  ])('dictation’s "%s" asks for %j', (text, expected) => {
    expect(kinds(text)).toEqual(expected);
  });
});

describe('a top word before "dress" describes the dress', () => {
  it.each([
    ['a jumper dress size 10'],
    ['a shirt dress in white'],
    ['a hoodie dress for my daughter age 12'],
    ['a t-shirt dress'],
  ])('"%s" is one dress', (text) => {
    expect(kinds(text)).toEqual(['dress']);
  });

  it('"a jumper, a dress" is still both', () => {
    expect(kinds('a jumper, a dress and tights')).toEqual(['sweater', 'dress', 'leggings']);
  });
});

describe('an item said as what another goes with is not asked for', () => {
  it('"a tie for my husband’s suit" searches ties, with every colour said after', async () => {
    const { brief, searches } = await chat('a tie for my husband’s suit', 'navy', 'or burgundy');
    expect(brief).toMatchObject({ itemKinds: ['tie'], colors: ['navy', 'burgundy'] });
    expect(searches).toEqual([{ query: 'tie', colors: ['navy', 'burgundy'] }]);
  });

  it.each([
    ['suspenders for my husband’s suit', ['braces']],
    ['braces for a wedding suit', ['braces']],
    ['a belt for my black jeans', ['belt']],
    ['socks to wear with her school shoes', ['socks']],
  ])('"%s" asks for %j', (text, expected) => {
    expect(kinds(text)).toEqual(expected);
  });

  it('the colour of the owned piece is not the colour asked for', () => {
    expect(readMessage('a belt for my black jeans').colors).toEqual([]);
  });

  it('two items for two people are still both asked for', () => {
    expect(kinds('a coat for my son and boots for his sister')).toEqual(['coat', 'boots']);
    expect(kinds('shoes for my daughter jeans for my son')).toEqual(['shoes', 'jeans']);
  });
});

describe('details said no to, and what families need help with', () => {
  it('"sensory friendly, no labels t-shirts" asks for t-shirts, none excluded', async () => {
    const { brief, searches } = await chat('sensory friendly no labels t-shirts for my son');
    expect(brief).toMatchObject({ itemKinds: ['t-shirt'] });
    expect(brief.excludedKinds).toBeUndefined();
    expect(searches).toEqual([{ query: 't-shirt' }]);
  });

  it.each([
    ['easy to put on for my gran, she has arthritis'],
    ['adaptive clothing for my son who uses a wheelchair'],
  ])('"%s" asks which item rather than declining', async (text) => {
    const { decision } = await chat(text);
    expect(decision).toMatchObject({ kind: 'reply', text: CLARIFY });
  });
});

describe('festivals and ceremonies', () => {
  it.each([
    ['an outfit for Eid for my daughter age 7', 'holiday'],
    ['diwali outfit for my daughter age 5', 'holiday'],
    ['a suit for my son’s bar mitzvah, he is 13', 'formal'],
  ])('"%s" is the %s occasion', (text, occasion) => {
    expect(readMessage(text).occasion).toBe(occasion);
    expect(parseConstraints(text).occasion).toBe(occasion);
  });

  it('Eid brings no Christmas winter', () => {
    expect(readMessage('a dress for eid, size 8').seasons).toEqual([]);
  });
});

describe('more everyday item words', () => {
  it.each([
    ['a snood for my daughter', ['scarf']],
    ['a balaclava for my son for skiing', ['beanie']],
    ['a bobble hat', ['beanie']],
    ['a tankini for holiday', ['swimsuit']],
    ['a night dress for my gran', ['nightdress']],
    ['ballet pumps size 11', ['flats']],
    ['a pinafore dress for school, grey, age 6', ['dress']],
  ])('"%s" asks for %j', (text, expected) => {
    expect(kinds(text)).toEqual(expected);
  });
});
