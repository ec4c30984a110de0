import type { Brief } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { updateBrief } from '../src/domain/brief/update-brief.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { lastStep, stubChat } from './stub-stylist.ts';

// Round 3: several items in one message, each with its own colour, size or price; the mission's
// constraints honour negations; new items and corrections mid-conversation. None from the corpus.

const chat = stubChat;
const last = lastStep;

describe('stub stylist: each item of a message searched with its own words', () => {
  it('gives a colour said beside one item to that item only, and keeps every search within the budget shown', async () => {
    const t = await last('black jeans under 40 and a white tee');
    expect(t.searches).toEqual([
      { query: 'jeans', colors: ['black'], maxPrice: 40 },
      // No price of its own: the brief's, so nothing shown is above the budget the app shows.
      { query: 't-shirt', colors: ['white'], maxPrice: 40 },
    ]);
    // The brief stays the union the app shows.
    expect(t.brief).toMatchObject({
      itemKinds: ['jeans', 't-shirt'],
      colors: ['black', 'white'],
      maxPrice: 40,
    });
  });

  it('keeps a budget said for every item ("both", "each", after the list) on every search', async () => {
    const both = await last('black jeans under 40 and a white tee, both under 60');
    expect(both.searches).toEqual([
      { query: 'jeans', colors: ['black'], maxPrice: 40 },
      { query: 't-shirt', colors: ['white'], maxPrice: 60 },
    ]);
    const plain = await last('a hoodie and joggers in grey under 50');
    expect(plain.searches).toEqual([
      { query: 'hoodie', colors: ['grey'], maxPrice: 50 },
      { query: 'joggers', colors: ['grey'], maxPrice: 50 },
    ]);
  });

  it('searches each item in its own size, and a child’s age-size for every item', async () => {
    const t = await last('a red dress size 10 and black heels size 6');
    expect(t.searches).toEqual([
      { query: 'dress', colors: ['red'], size: '10' },
      { query: 'heels', colors: ['black'], size: '6' },
    ]);
    const kids = await last('a navy school jumper size 9-10 years and grey trousers');
    expect(kids.searches.map((s) => `${s.query} ${s.colors} ${s.size}`)).toEqual([
      'sweater navy KIDS 9',
      'sweater navy KIDS 10',
      'trousers grey KIDS 9',
      'trousers grey KIDS 10',
    ]);
    const own = await last('white trainers under 50 and a black hoodie under 35');
    expect(own.searches.map((s) => s.maxPrice)).toEqual([50, 35]);
  });

  it('remembers each item’s words in later turns; "cheaper" or a colour for all applies to all', async () => {
    const [, more, cheaper, red] = await chat(
      'black jeans under 40 and a white tee',
      'show me more',
      'cheaper',
      'in red',
    );
    expect(more!.searches).toEqual([
      { query: 'jeans', colors: ['black'], maxPrice: 40 },
      { query: 't-shirt', colors: ['white'], maxPrice: 40 },
    ]);
    expect(cheaper!.searches).toEqual([
      { query: 'jeans', colors: ['black'], maxPrice: 32 },
      { query: 't-shirt', colors: ['white'], maxPrice: 32 },
    ]);
    expect(red!.searches.map((s) => s.colors)).toEqual([['red'], ['red']]);
  });

  it('adds an item mid-conversation with its own words; the earlier items keep theirs', async () => {
    const t = await last('shorts for my husband size 34 waist', 'khaki', 'and a polo shirt in navy');
    expect(t.brief.itemKinds).toEqual(['shorts', 'polo']);
    expect(t.searches).toEqual([
      { query: 'shorts', colors: ['beige'], size: '34' },
      { query: 'polo', colors: ['navy'] },
    ]);
  });

  it('gives an item added with no words of its own the brief, but not another garment’s size', async () => {
    const t = await last('a summer dress for my mum, size 16, under 40', 'and sandals');
    expect(t.searches).toEqual([
      { query: 'dress', season: 'SUMMER', size: '16', maxPrice: 40 },
      { query: 'sandals', season: 'SUMMER', maxPrice: 40 },
    ]);
  });

  it('corrects one item of the list without dropping the others', async () => {
    const t = await last(
      'a navy school jumper and grey trousers for my 9 year old',
      'actually the trousers should be black',
    );
    expect(t.brief.itemKinds).toEqual(['sweater', 'trousers']);
    expect(t.searches).toEqual([
      { query: 'sweater', colors: ['navy'], size: 'KIDS 9' },
      { query: 'trousers', colors: ['black'], size: 'KIDS 9' },
    ]);
    // "just the trousers" narrows the list.
    const narrowed = await last('a navy jumper and grey trousers', 'just the trousers');
    expect(narrowed.brief.itemKinds).toEqual(['trousers']);
  });

  it('keeps searching the brief when a mid-conversation detail has no word in the reader', async () => {
    const t = await last('a coat for my son, he is 8', 'with a hood');
    expect(t.kind).toBe('tools');
    expect(t.searches).toEqual([{ query: 'coat', size: 'KIDS 8' }]);
    // A request outside clothing is still declined.
    expect((await last('a coat for my son', 'what is the weather forecast tomorrow')).kind).toBe('reply');
  });
});

describe('brief reader, round 3: new items and words', () => {
  const brief = (...turns: string[]) =>
    turns.reduce<Brief>((b, t) => updateBrief(b, readMessage(t)).brief, {});

  it('adds an item said with a leading "and" or "to match", keeping a baby’s size', () => {
    expect(brief('baby girl dress 6-9 months', 'and a cardigan')).toMatchObject({
      itemKinds: ['dress', 'cardigan'],
      sizes: ['6-9M'],
    });
    expect(brief('a green dress', 'with shoes to match').itemKinds).toEqual(['dress', 'shoes']);
  });

  it('knows ties, sports bras and dressing gowns; "black tie" stays a dress code', () => {
    expect(brief('black leggings', 'and a sports bra').itemKinds).toEqual(['leggings', 'sports bra']);
    expect(brief('a navy tie').itemKinds).toEqual(['tie']);
    expect(brief('a white dressing gown age 10').itemKinds).toEqual(['dressing gown']);
    expect(brief('a dress for a black tie event').itemKinds).toEqual(['dress']);
  });

  it('reads "sizes 10 and 12" and "go for the first"', () => {
    expect(brief('rain boots for the kids, sizes 10 and 12').sizes).toEqual(['10', '12']);
    expect(readMessage('go for the first').intent).toBe('buy');
  });
});

describe('mission constraints, round 3', () => {
  it('leaves out what is said no to, as the brief does', () => {
    expect(parseConstraints('a black top, no white').colors).toEqual(['black']);
    expect(parseConstraints('sweater any colour except red or orange').colors).toBeUndefined();
    expect(parseConstraints('not pink actually, purple').colors).toEqual(['purple']);
    expect(parseConstraints('no heels though').categories).toBeUndefined();
  });

  it('reads a size with its system after the number, and a list of sizes', () => {
    expect(parseConstraints('black pumps size 5 uk').sizes).toEqual(['UK 5']);
    expect(parseConstraints('trainers 42 eu').sizes).toEqual(['EU 42']);
    expect(parseConstraints('rain boots sizes 10 and 12').sizes).toEqual(['10', '12']);
  });
});
