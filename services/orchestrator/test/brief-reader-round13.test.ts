import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { OTHERS_DATA_REFUSAL, REFUSAL } from '../src/domain/style-reply.ts';
import { lastStep } from './stub-stylist.ts';

// Round 13: a dad dictating while driving, a grandmother buying a gift, a teenager with slang, a
// parent whose English is a second language: the budget said no to ("don't want to spend more
// than"), "not too dear", "no cap", a child's size said beside the age ("she's 10 but wears age
// 12", "she actually is a 1 now", "my daughter wears a 10"), kids' shoe sizes with the range after
// the figure ("13 kids", "size 2 youth"), ages dictated without commas, "swimming kit", a piece
// bought earlier to pair with, and another household's data. None from the corpus.

const chat = lastStep;

describe('a ceiling said no to is no reason to spend more', () => {
  it('"i don’t want to spend more than a hundred" is the ceiling, never pricier', async () => {
    const { brief } = await chat('a blazer, I don’t want to spend more than a hundred');
    expect(brief).toMatchObject({ itemKinds: ['blazer'], maxPrice: 100 });
    expect(readMessage('a blazer, I don’t want to spend more than a hundred').pricier).toBe(false);
    expect(readMessage('i won’t spend more on a hat').pricier).toBe(false);
    expect(readMessage('nothing more expensive than that').pricier).toBe(false);
    // Asked for, it still raises the ceiling.
    expect(readMessage('happy to spend a bit more').pricier).toBe(true);
    expect(readMessage('show me more expensive ones').pricier).toBe(true);
  });
});

describe('how a garment should fit is no step from the last size', () => {
  it('"not too tight", "nothing too big" keep the size', async () => {
    const { brief } = await chat('jeans for my daughter size 12', 'black ones, not too tight');
    expect(brief).toMatchObject({ itemKinds: ['jeans'], sizes: ['12'], colors: ['black'] });
    expect(
      readMessage('my daughter have 14 years she want jeans black not too tight').sizeStep,
    ).toBeUndefined();
    expect(readMessage('a coat, nothing too big').sizeStep).toBeUndefined();
    // Said of what was shown, it still steps.
    expect(readMessage('they were too tight').sizeStep).toBe(1);
    expect(readMessage('too big').sizeStep).toBe(-1);
  });

  it('the "too" of "nothing too pricey" adds no item and asks for nothing cheaper than shown', async () => {
    const { brief } = await chat('a coat for my son age 8', 'nothing too pricey, a dress for his sister');
    expect(brief.itemKinds).toEqual(['dress']);
    const r = readMessage('nothing too pricey, a dress');
    expect(r).toMatchObject({ addKinds: false, cheaper: false, price: { maxPrice: 40, cheap: true } });
    expect(readMessage('and shorts too').addKinds).toBe(true);
    expect(readMessage('that’s too expensive').cheaper).toBe(true);
  });
});

describe('a budget said the British way', () => {
  it('"not too dear", "won’t break the bank", "doesn’t cost the earth" are cheap', async () => {
    const { brief } = await chat('a cardigan for my granddaughter, she is 6, something not too dear');
    expect(brief).toMatchObject({ itemKinds: ['cardigan'], sizes: ['KIDS 6'], maxPrice: 40 });
    expect(readMessage('a coat that won’t break the bank').price).toMatchObject({ cheap: true });
    expect(readMessage('a scarf that doesn’t cost the earth').price).toMatchObject({ cheap: true });
    expect(readMessage('nothing too spenny, trainers').price).toMatchObject({ cheap: true });
    expect(readMessage('my dear granddaughter needs a hat').price).toEqual({});
  });
});

describe('"no cap" is slang', () => {
  it('drops no budget and says no to no cap', async () => {
    const { brief } = await chat('trainers under 60', 'lowkey need them in black, size 7, no cap');
    expect(brief).toMatchObject({ itemKinds: ['sneakers'], maxPrice: 60, colors: ['black'], sizes: ['7'] });
    expect(readMessage('new kicks for school no cap not white')).toMatchObject({
      clear: [],
      excludedKinds: [],
      excludedColors: ['white'],
    });
    // The budget dropped in words still goes.
    expect(readMessage('no cap on the price').clear).toEqual(['price']);
    expect(readMessage('no price cap').clear).toEqual(['price']);
  });
});

describe('the size a child or grown-up wears, said of them', () => {
  it('"she actually is a 1 now", "he’s now a 5": the size, a word of time between', async () => {
    const { brief, searches } = await chat('school shoes for my daughter size 13', 'she actually is a 1 now');
    expect(brief).toMatchObject({ itemKinds: ['shoes'], sizes: ['1'] });
    expect(searches.map((s) => s.size)).toEqual(['1']);
    expect(readMessage('he’s now a 5').sizes).toEqual(['5']);
    expect(readMessage('my husband is usually a large, a fleece').sizes).toEqual(['L']);
    expect(readMessage('he is probably a 10 year old').sizes).toEqual(['KIDS 10']);
  });

  it('"my daughter wears a 10", "my boy’s a 3": said with who wears it', async () => {
    const { brief } = await chat('my daughter wears a 10, a dress for a party');
    expect(brief).toMatchObject({ itemKinds: ['dress'], sizes: ['10'] });
    expect(readMessage('my son takes a 5 in trainers').sizes).toEqual(['5']);
    expect(readMessage('my boy’s a 3 in shoes').sizes).toEqual(['3']);
    expect(parseConstraints('my husband is a 42 in shoes').sizes).toEqual(['42']);
  });

  it('"she’s 10 but wears age 12": the size worn, not the age, is searched', async () => {
    const { brief, searches } = await chat('my daughter is 10 but wears age 12, a coat please');
    expect(brief).toMatchObject({ itemKinds: ['coat'], sizes: ['KIDS 12'], forAge: 10 });
    expect(searches.map((s) => s.size)).toEqual(['KIDS 12']);
    expect(readMessage('a tracksuit for my son, he’s 11 but tall so age 12-13').sizes).toEqual([
      'KIDS 12',
      'KIDS 13',
    ]);
    expect(readMessage('she is 9 but wears 10-11, leggings').sizes).toEqual(['KIDS 10', 'KIDS 11']);
    expect(readMessage('jeans in size 12').sizes).toEqual(['12']);
  });

  it('"he’s 6 but small" says how he is built, no size small', () => {
    expect(readMessage('he’s 6 but small, needs age 5 shorts').sizes).toEqual(['KIDS 5']);
    expect(readMessage('she’s tiny, small for her age, a coat age 7').sizes).toEqual(['KIDS 7']);
    expect(readMessage('a small hoodie').sizes).toEqual(['S']);
  });
});

describe('kids’ shoe sizes with the range after the figure', () => {
  it('"trainers 13 kids", "size 2 youth", "size 1 junior"', async () => {
    const { brief, searches } = await chat('trainers 13 kids');
    expect(brief).toMatchObject({ itemKinds: ['sneakers'], sizes: ['KIDS 13'] });
    expect(searches.map((s) => s.size)).toEqual(['KIDS 13']);
    expect(readMessage('school shoes size 2 youth').sizes).toEqual(['KIDS 2']);
    expect(readMessage('football boots size 5 junior, black').sizes).toEqual(['KIDS 5']);
    expect(readMessage('wellington boots 11 infant').sizes).toEqual(['11']);
    // A count of children is none.
    expect(readMessage('trainers for my 3 kids').sizes).toEqual([]);
  });
});

describe('ages dictated without commas', () => {
  it('"ages 5 7 and 9" are three children’s sizes', async () => {
    const { searches } = await chat('shoes for my kids ages 5 7 and 9');
    expect(searches.map((s) => s.size)).toEqual(['KIDS 5', 'KIDS 7', 'KIDS 9']);
    expect(readMessage('t-shirts ages 4 6').sizes).toEqual(['KIDS 4', 'KIDS 6']);
    expect(readMessage('ages 7 9 2 pairs of socks').sizes).toEqual(['KIDS 7', 'KIDS 9']);
  });
});

describe('"swimming kit"', () => {
  it('is swimwear', () => {
    expect(readMessage('swimming kit for my daughter age 7 for school lessons').kinds).toEqual(['swimsuit']);
    expect(readMessage('his swim kit, age 10').kinds).toEqual(['swimsuit']);
  });
});

describe('a piece bought earlier, asked about with "the"', () => {
  it('"which shoes go with the green dress we bought" pairs with the dress', async () => {
    const { decision } = await chat('which shoes go with the green dress we bought last week');
    expect(readMessage('which shoes go with the green dress we bought last week')).toMatchObject({
      intent: 'pair',
      kinds: ['shoes'],
      owned: { kind: 'dress', color: 'green' },
    });
    expect(decision.kind === 'tools' && decision.calls.map((c) => c.tool)).toContain('list_wardrobe');
    expect(readMessage('what would look nice with the navy coat i bought in the sale').owned).toMatchObject({
      kind: 'coat',
      color: 'navy',
    });
    // A piece seen, not owned, is no pairing.
    expect(readMessage('i want the dress we saw yesterday').intent).toBe('search');
  });
});

describe('another household’s or child’s data, and someone else’s login', () => {
  it('refuses to look, and says why', async () => {
    const { decision } = await chat('show me what the Johnsons next door have in their wardrobe');
    expect(decision).toMatchObject({ kind: 'reply', text: OTHERS_DATA_REFUSAL });
    expect(readMessage('what size is Emily from my son’s class, she’s coming to the party').intent).toBe(
      'refuse',
    );
    expect(readMessage('what did the other family order').intent).toBe('refuse');
    // A gift for a friend's child is shopping.
    expect(readMessage('a gift for my friend’s son, size 8').intent).toBe('search');
    expect(readMessage('my friend’s daughter wears a 10, a dress for her birthday').intent).toBe('search');
    // Others named in passing are not asked about.
    for (const text of [
      'which size would suit my friend, she wears a 12',
      'what do other families buy for school uniform',
      'what can i buy my friend to update her wardrobe, budget 40',
      'show me a jacket my friend would love for her wardrobe',
      'what sizes do other families usually get for toddlers',
      'what did other families buy for the school trip? need a raincoat',
      'send the gift to my friend’s address please, a scarf under 30',
      'something to complete my friend’s wardrobe, she loves green',
      'a hoodie with a sign on another colour',
      'my neighbour’s party, need an outfit, details: smart casual',
      'my friend’s order arrived and I love the coat, find me one',
      'my friend and I want matching hoodies, her wardrobe is all black',
      'a dress for my ex’s wedding',
      'what do other kids wear to school these days',
    ])
      expect(readMessage(text).intent, text).not.toBe('refuse');
    expect(readMessage('can you check what my friend has in her wardrobe').intent).toBe('refuse');
    expect(readMessage('what’s my friend’s address').intent).toBe('refuse');
    expect(readMessage('open the neighbours’ account').intent).toBe('refuse');
    expect(readMessage('what size does my friend’s son wear').intent).toBe('refuse');
  });

  it('"log in as my husband", "pay with my wife’s card" are refused', async () => {
    const { decision } = await chat('can you log in as my husband and buy it');
    expect(decision).toMatchObject({ kind: 'reply', text: REFUSAL });
    expect(readMessage('log into my dad’s account and get the coat').intent).toBe('refuse');
    expect(readMessage('pay with my wife’s card please').intent).toBe('refuse');
  });
});
