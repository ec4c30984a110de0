import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { lastStep } from './stub-stylist.ts';

// Round 12: families writing the way they talk: long messages with the budget hedged ("budget
// maybe 50-60"), a colour changed mid-sentence after its item ("a black coat, no sorry navy"),
// what a child will not wear said with "anything" ("she hates anything pink"), sizes as labels
// and other countries give them ("2T", "13-14y", "kids 10-11", "4ft 7", "talla 38"), words for
// what they wear for Eid and a communion, and "half the price" after a list. None from the corpus.

const chat = lastStep;

describe('"hates anything pink": anything right after a negation is what is said no to', () => {
  it('says no to the colours, never asks for them', async () => {
    const { brief, searches } = await chat(
      'my daughter needs a coat, she’s 11, she hates anything pink or purple, max 60',
    );
    expect(brief).toMatchObject({
      itemKinds: ['coat'],
      sizes: ['KIDS 11'],
      maxPrice: 60,
      excludedColors: ['pink', 'purple'],
    });
    expect(brief.colors).toBeUndefined();
    expect(searches).toEqual([
      { query: 'coat', maxPrice: 60, size: 'KIDS 11', excludeColors: ['pink', 'purple'] },
    ]);
    expect(readMessage('he won’t wear anything green or brown, hoodie age 12')).toMatchObject({
      colors: [],
      excludedColors: ['green', 'brown'],
    });
    expect(readMessage('don’t want anything in red, a dress size 10').excludedColors).toEqual(['red']);
    expect(parseConstraints('she hates anything pink, a coat age 11').colors).toBeUndefined();
    // Said after what is refused, "anything" still ends the phrase.
    expect(readMessage('no pink or anything girly, a t-shirt in blue')).toMatchObject({
      colors: ['blue'],
      excludedColors: ['pink'],
    });
  });
});

describe('a colour corrected after its item', () => {
  it('"a black coat, no sorry navy" asks for navy only, and says no to nothing', async () => {
    const { brief, searches } = await chat('a black coat, no sorry navy, size 12');
    expect(brief).toMatchObject({ itemKinds: ['coat'], colors: ['navy'], sizes: ['12'] });
    expect(brief.excludedColors).toBeUndefined();
    expect(searches).toEqual([{ query: 'coat', colors: ['navy'], size: '12' }]);
    expect(readMessage('a pink hoodie no wait purple age 8').colors).toEqual(['purple']);
    expect(readMessage('a green jumper, i mean blue one')).toMatchObject({
      kinds: ['sweater'],
      colors: ['blue'],
    });
    expect(readMessage('a red dress, actually no, make it navy, size 10').colors).toEqual(['navy']);
    expect(parseConstraints('a black coat, no sorry navy').colors).toEqual(['navy']);
    // A bare "no" between colours still says no.
    expect(readMessage('a black coat, no white')).toMatchObject({
      colors: ['black'],
      excludedColors: ['white'],
    });
  });
});

describe('a budget hedged', () => {
  it('"budget maybe 50-60" is the range; "budget maybe 50" the ceiling', async () => {
    const { brief, searches } = await chat(
      'we’re going to my sister’s wedding in june in spain and my 7 year old needs something but not too fancy, budget maybe 50-60',
    );
    expect(brief).toMatchObject({ minPrice: 50, maxPrice: 60, sizes: ['KIDS 7'], occasion: 'wedding' });
    expect(searches).toEqual([{ minPrice: 50, maxPrice: 60, season: 'SUMMER', size: 'KIDS 7' }]);
    expect(readMessage('budget probably 30-40 for jeans').price).toEqual({ minPrice: 30, maxPrice: 40 });
    expect(readMessage('budget maybe 50 for a coat').price).toEqual({ maxPrice: 50 });
    expect(readMessage('spending maybe 25 on a hoodie').price).toEqual({ maxPrice: 25 });
    expect(parseConstraints('budget maybe 50 for a coat')).toMatchObject({ maxPrice: 50 });
  });

  it('the mission’s constraints read two figures after a word for money as a range too', () => {
    expect(parseConstraints('budget maybe 50-60, a dress for my 7 year old')).toMatchObject({
      minPrice: 50,
      maxPrice: 60,
    });
    expect(parseConstraints('budget 30 to 40 for jeans')).toMatchObject({ minPrice: 30, maxPrice: 40 });
    // Sizes are no range of prices.
    expect(parseConstraints('size 10-12 budget').maxPrice).toBeUndefined();
  });
});

describe('kids’ sizes as labels give them', () => {
  it('"13-14y hoodie", "kids 10-11": both ages, before the item too', async () => {
    const { brief, searches } = await chat('13-14y hoodie in navy');
    expect(brief).toMatchObject({ itemKinds: ['hoodie'], sizes: ['KIDS 13', 'KIDS 14'], colors: ['navy'] });
    expect(searches.map((s) => s.size)).toEqual(['KIDS 13', 'KIDS 14']);
    expect(readMessage('9-10y pyjamas').sizes).toEqual(['KIDS 9', 'KIDS 10']);
    expect(readMessage('kids 10-11 hoodie').sizes).toEqual(['KIDS 10', 'KIDS 11']);
    expect(parseConstraints('12-13 yrs trousers').sizes).toEqual(['KIDS 12', 'KIDS 13']);
    // A duration is none.
    expect(readMessage('a coat that lasts 2-3 yrs').sizes).toEqual([]);
  });

  it('"2T", "4t": a toddler’s US size is that age', async () => {
    const { brief } = await chat('2T pajamas for my little one');
    expect(brief).toMatchObject({ itemKinds: ['pajamas'], sizes: ['KIDS 2'] });
    expect(readMessage('4t shorts').sizes).toEqual(['KIDS 4']);
    // "2 t-shirts" counts them.
    expect(readMessage('i got 2 t-shirts').sizes).toEqual([]);
  });
});

describe('a child’s height in feet', () => {
  it('"4ft 7", "4 foot 2", "4’7": the kids’ size of that height, never an age of 4', async () => {
    const { brief, searches } = await chat('trainers for my boy hes 4ft 7');
    expect(brief).toMatchObject({ itemKinds: ['sneakers'], sizes: ['KIDS 10'] });
    expect(searches).toEqual([{ query: 'sneakers', size: 'KIDS 10' }]);
    const jumper = readMessage('jumper for my daughter, she’s 4 foot 2');
    expect(jumper.sizes).toEqual(['KIDS 8']);
    expect(jumper.forAge).toBeUndefined();
    expect(readMessage('my son is 4’7 and needs a coat').sizes).toEqual(['KIDS 10']);
    expect(readMessage('she is 4 feet 5 inches, a dress').sizes).toEqual(['KIDS 9']);
    // An adult’s height is none; an age is still an age.
    expect(readMessage('i’m 5ft 2, a dress size 8').sizes).toEqual(['8']);
    expect(readMessage('my son is 4, a coat').forAge).toBe(4);
  });
});

describe('what families call the clothes', () => {
  it('"wellys", "a sunhat", "a thobe for eid", "an abaya"', async () => {
    const { brief } = await chat('a thobe for my son for eid age 9');
    expect(brief).toMatchObject({ itemKinds: ['thobe'], sizes: ['KIDS 9'] });
    expect(readMessage('wellys for my daughter size 11').kinds).toEqual(['boots']);
    expect(readMessage('a sunhat for my son age 3').kinds).toEqual(['hat']);
    expect(readMessage('abaya for my daughter age 12 black').kinds).toEqual(['abaya']);
    expect(readMessage('we are doing well, coat please').kinds).toEqual(['coat']);
  });

  it('"talla 38", "zapatos negros", "una chaqueta azul": the size and colour in Spanish', async () => {
    const { brief, searches } = await chat('talla 38 zapatos negros');
    expect(brief).toMatchObject({ itemKinds: ['shoes'], sizes: ['38'], colors: ['black'] });
    expect(searches).toEqual([{ colors: ['black'], size: '38' }]);
    expect(readMessage('es para mi hijo, una chaqueta azul talla 10')).toMatchObject({
      kinds: ['jacket'],
      colors: ['blue'],
      sizes: ['10'],
    });
    // Only the Spanish words themselves: "negroni" is no black.
    expect(readMessage('negroni glasses').colors).toEqual([]);
  });

  it('"her communion", "my son’s confirmation" are the church occasion', () => {
    expect(readMessage('a vest for my son’s communion, age 8').occasion).toBe('christening');
    expect(readMessage('need an outfit for my daughter’s confirmation, size 10').occasion).toBe(
      'christening',
    );
    expect(readMessage('where is my order confirmation').occasion).toBeUndefined();
  });
});

describe('"half the price" after a list', () => {
  it('asks for cheaper', async () => {
    const { brief } = await chat('a jumper for my son', 'half the price');
    expect(brief).toMatchObject({ itemKinds: ['sweater'], maxPrice: 40 });
    expect(readMessage('something half what that costs').cheaper).toBe(true);
    expect(readMessage('half price coats').cheaper).toBe(false);
  });
});

describe('the weather where the family lives', () => {
  it('"it’s hot where we live", "its boiling here" is summer', async () => {
    const { brief, searches } = await chat('it’s hot where we live, need shorts for my son age 7');
    expect(brief).toMatchObject({ itemKinds: ['shorts'], sizes: ['KIDS 7'], seasons: ['SUMMER'] });
    expect(searches).toEqual([{ query: 'shorts', season: 'SUMMER', size: 'KIDS 7' }]);
    expect(readMessage('its boiling here, t-shirts for the kids').seasons).toEqual(['SUMMER']);
    expect(readMessage('we live somewhere hot, a dress for my daughter').seasons).toEqual(['SUMMER']);
  });
});

describe('"what goes with a mustard skirt": a piece asked about with "a" is paired with', () => {
  it('pairs with the piece, as with "my"', async () => {
    const { decision, searches } = await chat('what goes with a mustard skirt');
    expect(readMessage('what goes with a mustard skirt')).toMatchObject({
      intent: 'pair',
      kinds: [],
      owned: { kind: 'skirt', color: 'yellow' },
    });
    expect(searches).toEqual([]);
    expect(decision.kind === 'tools' && decision.calls.map((c) => c.tool)).toEqual([
      'list_wardrobe',
      'pair_with_wardrobe',
    ]);
    expect(readMessage('what to wear with an olive coat').owned).toMatchObject({
      kind: 'coat',
      color: 'olive',
    });
    expect(readMessage('which shoes would go with a navy dress')).toMatchObject({
      intent: 'pair',
      kinds: ['shoes'],
      owned: { kind: 'dress' },
    });
    // An item asked for to go with another is still the item.
    expect(readMessage('a top to go with a mustard skirt')).toMatchObject({
      intent: 'search',
      kinds: ['top'],
    });
  });
});
