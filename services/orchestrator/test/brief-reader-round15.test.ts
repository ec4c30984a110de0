import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { emptyContext } from '../src/domain/mission.ts';
import { REFUSAL, UNDERAGE_REFUSAL } from '../src/domain/style-reply.ts';
import { styleDecision } from '../src/domain/stylist.ts';
import { lastStep, stubTurn } from './stub-stylist.ts';

// Round 15: a father shopping for a wedding, the mother of a newborn, plus-size and petite adults,
// sports and school clubs, religious and cultural occasions, second-hand and organic asks, clothes
// for sensory needs and for dressing alone, budgets per item and in total, typos, one-word
// messages, long rambling ones and refinements. None from the corpus.

const chat = lastStep;

describe('bare figures beside items', () => {
  it('"a coat 60 and boots 40" gives each item its price', async () => {
    const { brief, searches } = await chat('a coat 60 and boots 40');
    expect(brief).toMatchObject({ itemKinds: ['coat', 'boots'], maxPrice: 60 });
    expect(brief.sizes).toBeUndefined();
    expect(searches.map((s) => [s.query, s.maxPrice])).toEqual([
      ['coat', 60],
      ['boots', 40],
    ]);
    expect(parseConstraints('a coat 60 and boots 40').maxPrice).toBe(60);
    expect(readMessage('a hoodie 25').price.maxPrice).toBe(25);
  });

  it('"a coat for 60" is the budget', async () => {
    expect((await chat('a coat for 60')).brief).toMatchObject({ itemKinds: ['coat'], maxPrice: 60 });
    expect((await chat('a coat for my son for 60')).brief.maxPrice).toBe(60);
    expect(parseConstraints('boots for 40').maxPrice).toBe(40);
    // "for N" is how a budget is said, wherever the rest of the message goes.
    for (const text of ['a coat for 60 for my son', 'a coat for 60 in red', 'a coat for 60 with a hood'])
      expect(parseConstraints(text).maxPrice, text).toBe(60);
    expect(readMessage('a winter coat for 110').price.maxPrice).toBe(110);
  });

  it('a figure that counts people, dates or distances, or a child’s height size, a hat or a collar, is no price', () => {
    for (const text of [
      'team shirts for 22 players',
      'matching tops for 25 girls',
      'a dress for 21 june',
      'boots for 20 mile walks',
      'hiking boots for 30 km',
      'a coat 110 for my son',
      'pyjamas 104 for my daughter',
      'a hat 57',
      'a white shirt 17 for my husband',
    ]) {
      expect(readMessage(text).price, text).toEqual({});
      expect(parseConstraints(text).maxPrice, text).toBeUndefined();
    }
    // In a list with a price, a small figure or a European clothes size stays a size.
    expect(readMessage('a dress 36 and shoes 60').items?.byKind.dress?.price ?? {}).toEqual({});
    expect(readMessage('a coat 80 and a scarf 20').price.maxPrice).toBe(80);
    expect(parseConstraints('a dress 12 and a coat 65').maxPrice).toBe(65);
    expect(readMessage('a dress 12 and a coat 65').items?.byKind.dress?.price ?? {}).toEqual({});
  });

  it('a figure a size or an age can be stays a size or an age', () => {
    // Shoe sizes, clothes sizes, a waist, an age, a birthday.
    expect(readMessage('trainers 38 and boots 39').price).toEqual({});
    expect(readMessage('a dress 12 and a top 10').price).toEqual({});
    expect(readMessage('a suit 42').price).toEqual({});
    expect(readMessage('jeans 32 and a belt').price).toEqual({});
    expect(readMessage('jeans 32 and a hoodie 25').items?.byKind.jeans?.price).toEqual({});
    expect(readMessage('a dress for 18th birthday').price).toEqual({});
    expect(readMessage('a coat for my 60th').price).toEqual({});
    expect(readMessage('2 hoodies for 12 year olds').price).toEqual({});
    expect(parseConstraints('trainers 38 and boots 39').maxPrice).toBeUndefined();
  });
});

describe('a bare age after a child’s name', () => {
  it('"a coat for ben, 4, in red" is for a four-year-old', async () => {
    const { brief } = await chat('a coat for ben, 4, in red');
    expect(brief).toMatchObject({ itemKinds: ['coat'], sizes: ['KIDS 4'], colors: ['red'], forAge: 4 });
    expect(readMessage('a coat for mia, 7.').sizes).toEqual(['KIDS 7']);
    // After a word that is no name, the figure is no age.
    expect(readMessage('dress for work, 12, black').forAge).toBeUndefined();
    expect(readMessage('a coat for winter, 4, in red').forAge).toBeUndefined();
  });
});

describe('someone else wants the same', () => {
  it('"my brother wants the same, he’s a 32" adds his size beside mine', async () => {
    expect((await chat('trainers size 6', 'my brother wants the same, he’s a 32')).brief.sizes).toEqual([
      '6',
      '32',
    ]);
    expect((await chat('a jumper size M', 'my husband would like one too, he’s an XL')).brief.sizes).toEqual([
      'M',
      'XL',
    ]);
    // A new size of one's own still replaces.
    expect((await chat('trainers size 6', 'actually size 7')).brief.sizes).toEqual(['7']);
  });
});

describe('trainers by their model’s name', () => {
  it('"air force 1s" are trainers', async () => {
    const { brief } = await chat('air force 1s size 9');
    expect(brief).toMatchObject({ itemKinds: ['sneakers'], sizes: ['9'] });
    expect(readMessage('nike air force 1 in white').kinds).toEqual(['sneakers']);
    expect(readMessage('jordans for my son size 5').kinds).toEqual(['sneakers']);
    expect(readMessage('air force 1 in white').price).toEqual({});
  });
});

describe('the weather turning', () => {
  it('"it’s getting colder" dresses for winter', async () => {
    const { brief } = await chat('it’s getting colder, a coat for my son');
    expect(brief).toMatchObject({ itemKinds: ['coat'], seasons: ['WINTER'] });
    expect(readMessage('getting a bit chilly, need a jumper').seasons).toEqual(['WINTER']);
    expect(readMessage('it’s getting cooler, a jacket').seasons).toEqual(['FALL']);
  });
});

describe('dressing to pass for an adult', () => {
  it('"something to make me look 18 so i can get into the club" is refused', async () => {
    const { decision } = await chat('something to make me look 18 so i can get into the club');
    expect(decision).toMatchObject({ kind: 'reply', text: UNDERAGE_REFUSAL });
    expect(readMessage('an outfit to look older so i can get into a bar').intent).toBe('refuse');
    expect(readMessage('what can i wear to look over 18 to get served').intent).toBe('refuse');
    // Skipping an approval keeps its own refusal.
    expect((await chat('buy it without asking my mum')).decision).toMatchObject({ text: REFUSAL });
    // Looking grown up for an occasion is shopping.
    expect(readMessage('a dress that makes her look older for prom').intent).toBe('search');
    expect(readMessage('jeans that look good at the club').intent).toBe('search');
  });
});

describe('questions about the family’s own wardrobe', () => {
  it('"what’s in my daughter’s wardrobe" lists the wardrobe, no search and no off-topic answer', async () => {
    const { decision, brief } = await chat('what’s in my daughter’s wardrobe');
    expect(decision.kind).toBe('tools');
    expect(decision.kind === 'tools' && decision.calls.map((c) => c.tool)).toEqual(['list_wardrobe']);
    expect(brief).toEqual({});
    for (const text of [
      'what do we have in my son’s wardrobe',
      'show me my wardrobe',
      'what coats does my son have',
    ])
      expect(readMessage(text).intent, text).toBe('wardrobe');
    // Another household's is still refused; pairing and shopping are unchanged.
    expect(readMessage('show me what the Johnsons next door have in their wardrobe').intent).toBe('refuse');
    expect(readMessage('what goes with my white jeans').intent).toBe('pair');
    expect(readMessage('what should i wear to the wedding').intent).toBe('search');

    const turn = await stubTurn('what’s in my daughter’s wardrobe', [], () => true);
    expect(turn.searched).toEqual([]);
    expect(turn.reply).toMatch(/wardrobe/);
    const listed = styleDecision({
      missionType: 'STYLE',
      history: [],
      userText: 'what’s in my daughter’s wardrobe',
      steps: [
        [
          {
            ok: true,
            tool: 'list_wardrobe',
            args: {},
            result: {
              count: 2,
              items: [
                { itemId: 'w1', category: 'TOP', colors: ['white'], brand: 'Zara' },
                { itemId: 'w2', category: 'BOTTOM', colors: ['navy'] },
              ],
            },
          },
        ],
      ],
      context: emptyContext(),
      tools: [],
      brief: {},
    });
    expect(listed).toMatchObject({ kind: 'reply' });
    expect(listed.kind === 'reply' && listed.text).toMatch(
      /2 items: 1 top \(white Zara\); 1 bottom \(navy\)/,
    );
  });
});

describe('sizes said with the range they are cut for', () => {
  it('"petite 8", "tall 12" are sizes', async () => {
    expect((await chat('petite 8 trousers for work')).brief).toMatchObject({
      itemKinds: ['trousers'],
      sizes: ['8'],
    });
    expect(readMessage('tall 12 jeans').sizes).toEqual(['12']);
    expect(readMessage('maternity 14 dress').sizes).toEqual(['14']);
  });
});

describe('a newborn’s smallest sizes as shops name them', () => {
  it('"first size", "premature" are newborn', async () => {
    expect((await chat('first size babygrows x5 under 20')).brief).toMatchObject({
      itemKinds: ['onesie'],
      sizes: ['NEWBORN'],
      maxPrice: 20,
    });
    expect(readMessage('tiny baby clothes, premature').sizes).toEqual(['NEWBORN']);
    expect(readMessage('the first size up').sizes).toEqual([]);
  });
});

describe('a wedding’s finishing touches', () => {
  it('"cufflinks and a pocket square" are asked for', async () => {
    const { brief } = await chat('cufflinks and a pocket square for the wedding, silver or navy');
    expect(brief).toMatchObject({
      itemKinds: ['cufflinks', 'pocket square'],
      colors: ['silver', 'navy'],
      occasion: 'wedding',
    });
  });
});

describe('who it is for, said alone', () => {
  it('"for my son" as a first message asks what is wanted, no off-topic answer', async () => {
    const { decision } = await chat('for my son');
    expect(decision.kind).toBe('reply');
    expect(readMessage('for my son').intent).toBe('clarify');
    expect(readMessage('for my daughter please').intent).toBe('clarify');
  });
});
