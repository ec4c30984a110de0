import type { Brief, Message } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { checkToolCall, TOOL_NAMES } from '../src/adapters/tools/tool-registry.ts';
import { runAgentTurn } from '../src/domain/agent-loop.ts';
import type { ToolOutcome } from '../src/domain/agent-model.ts';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { updateBrief } from '../src/domain/brief/update-brief.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { emptyContext } from '../src/domain/mission.ts';
import { createStubModel } from '../src/domain/stub-model.ts';
import { CLARIFY } from '../src/domain/style-reply.ts';
import { AT, lastStep, userMessage } from './stub-stylist.ts';

// Round 5: what goes with an offer shown, an item said again replacing its colour in the brief,
// several children in one message, school years and grades as ages, sizes said of the wearer,
// and the mission's constraints reading sizes and dress codes as the brief does. None from the corpus.

const briefOf = (...texts: string[]) =>
  texts.reduce<Brief>((b, text) => updateBrief(b, readMessage(text)).brief, {});
const at = AT;
const user = userMessage;
/** The last message's first step, each earlier message kept in the history. */
const chat = lastStep;

describe('"what goes with it" after offers were shown pairs with the offer shown', () => {
  const shown = [
    { offerId: 'o1', title: 'Navy Wool Blazer', price: 90, category: 'OUTERWEAR', colors: ['navy'] },
    { offerId: 'o2', title: 'Grey Check Blazer', price: 80, category: 'OUTERWEAR', colors: ['grey'] },
  ];
  const history: Message[] = [
    user('u0', 'a blazer under 100, size M'),
    {
      id: 'm0',
      role: 'model',
      content: 'For blazer (under 100, size M): 2 options.',
      created_at: at,
      source: 'text',
      tool_calls: [
        { tool: 'search_commerce', args: { query: 'blazer' }, result: { items: shown, nextCursor: null } },
      ],
    },
  ];
  const brief: Brief = {
    itemKinds: ['blazer'],
    categories: ['OUTERWEAR'],
    maxPrice: 100,
    sizes: ['M'],
  };
  const step = (userText: string, steps: ToolOutcome[][] = []) =>
    createStubModel().next({
      missionType: 'STYLE',
      history,
      userText,
      steps,
      context: emptyContext(),
      tools: [],
      brief,
    });

  it.each([
    ['what goes with it', 'OUTERWEAR', ['navy']],
    ['what would go with that', 'OUTERWEAR', ['navy']],
    ['something to wear with it', 'OUTERWEAR', ['navy']],
    ['any ideas what would go with the second one', 'OUTERWEAR', ['grey']],
  ])(
    '"%s" asks the wardrobe what completes the offer, not the brief’s search again',
    async (text, category, colors) => {
      expect(readMessage(text).intent).toBe('pair');
      const first = await step(text);
      expect(first.kind).toBe('tools');
      const calls = first.kind === 'tools' ? first.calls : [];
      expect(calls).toEqual([
        { tool: 'list_wardrobe', args: { category } },
        { tool: 'pair_with_wardrobe', args: { category, colors } },
      ]);
    },
  );

  it('then searches what completes it, within the budget, not in the blazer’s size', async () => {
    const paired: ToolOutcome[] = [
      { ok: true, tool: 'list_wardrobe', args: {}, result: { count: 0, items: [] } },
      {
        ok: true,
        tool: 'pair_with_wardrobe',
        args: {},
        result: { pairs: [], completes: ['BOTTOM', 'SHOES'] },
      },
    ];
    const next = await step('what goes with it', [paired]);
    expect(next.kind === 'tools' ? next.calls : []).toEqual([
      { tool: 'search_commerce', args: { limit: 3, category: 'BOTTOM', maxPrice: 100 } },
      { tool: 'search_commerce', args: { limit: 3, category: 'SHOES', maxPrice: 100 } },
    ]);
  });

  it('replies naming the offer and reports each complement with what it was searched by', async () => {
    const result = await runAgentTurn(
      {
        turnId: 't1',
        missionType: 'STYLE',
        history,
        userText: 'what would go with it?',
        context: emptyContext(),
        plan: [],
        brief,
      },
      {
        model: createStubModel(),
        maxSteps: 6,
        tools: TOOL_NAMES,
        checkCall: checkToolCall,
        emit: async () => {},
        renewLease: async () => {},
        runTool: async (call) => {
          const category = call.args.category as string;
          const result =
            call.tool === 'search_commerce'
              ? {
                  items: [
                    {
                      offerId: `o_${category}`,
                      title: `Grey ${category}`,
                      price: 40,
                      category,
                      colors: ['grey'],
                    },
                  ],
                  nextCursor: null,
                }
              : call.tool === 'pair_with_wardrobe'
                ? { pairs: [], completes: ['BOTTOM'] }
                : { count: 0, items: [] };
          return { ok: true, tool: call.tool, args: call.args, result };
        },
      },
    );
    expect(result.reply).toContain('For the Navy Wool Blazer');
    expect(result.reply).toContain('For bottom (under 100): 1 option. 1) Grey BOTTOM (40)');
  });

  it('still buys on "go with the second one", and asks what for when nothing was shown yet', async () => {
    expect(readMessage('go with the second one').intent).toBe('buy');
    const { decision } = await chat('what goes with it');
    expect(decision).toMatchObject({ kind: 'reply', text: CLARIFY });
  });
});

describe('an item said again replaces its own colour and size in the brief', () => {
  it('drops the colour only that item had', async () => {
    const { brief, searches } = await chat(
      'grey trousers size 32 and a white shirt size M',
      'the trousers should be black',
    );
    expect(brief.colors).toEqual(['white', 'black']);
    expect(searches).toEqual([
      { query: 'trousers', colors: ['black'], size: '32' },
      { query: 'shirt', colors: ['white'], size: 'M' },
    ]);
  });

  it('drops the size only that item had, and keeps a colour another item still has', async () => {
    const sized = await chat('grey trousers size 32 and a white shirt size M', 'the trousers in a 34');
    expect(sized.brief.sizes).toEqual(['M', '34']);
    const shared = await chat('black jeans and a black hoodie', 'the jeans in blue');
    expect(shared.brief.colors).toEqual(['black', 'blue']);
  });
});

describe('several children in one message, each with their own age', () => {
  it('searches each item in its child’s size and lists both sizes in the brief', async () => {
    const { brief, searches } = await chat(
      'trainers for my 8 year old son and a dress for my 5 year old daughter',
    );
    expect(brief.sizes).toEqual(['KIDS 8', 'KIDS 5']);
    expect(searches).toEqual([
      { query: 'sneakers', size: 'KIDS 8' },
      { query: 'dress', size: 'KIDS 5' },
    ]);
  });

  it('keeps both children’s sizes when both items are the same kind', () => {
    expect(briefOf('swim shorts for my son aged 9 and a pink swimsuit for my daughter aged 4').sizes).toEqual(
      ['KIDS 9', 'KIDS 4'],
    );
    expect(briefOf('gloves and a hat for my 5 year old and my 8 year old').sizes).toEqual([
      'KIDS 5',
      'KIDS 8',
    ]);
  });
});

describe('a school year or grade said instead of an age', () => {
  it.each([
    ['year 7 school shoes', 11],
    ['pe kit for year 3', 7],
    ['a fleece for my son who is in year 2', 6],
    ['a coat for my 6th grader', 11],
    ['school shoes for a third grader', 8],
    ['a hoodie for my son, grade 4', 9],
    ['a dress for my daughter in kindergarten', 5],
    ['polo shirts for my daughter in reception', 4],
  ])('reads "%s" as a child of %i', (text, age) => {
    expect(briefOf(text)).toMatchObject({ forAge: age, sizes: [`KIDS ${age}`] });
  });

  it('leaves a year that is no school year alone', () => {
    expect(briefOf('a coat that lasts a year').forAge).toBeUndefined();
    expect(briefOf('hoodies for 7 year olds').sizes).toEqual(['KIDS 7']);
  });
});

describe('sizes as families say them', () => {
  it('reads "toddler 7" as a toddler’s shoe size, not a 7-year-old’s', () => {
    expect(briefOf('toddler 7 shoes').sizes).toEqual(['7']);
    expect(briefOf('toddler size 7 wellies').sizes).toEqual(['7']);
    expect(briefOf('toddler 3 leggings').sizes).toEqual(['KIDS 3']);
  });

  it('reads a size said of the person who wears it', () => {
    expect(briefOf("football boots for my son, he's a 4").sizes).toEqual(['4']);
    expect(briefOf('she takes a 10 in dresses').sizes).toEqual(['10']);
    expect(briefOf('i wear a 12, a jumper please').sizes).toEqual(['12']);
    expect(briefOf("he's a 7 year old, needs a coat").sizes).toEqual(['KIDS 7']);
  });

  it('reads no size in how a thing packs or fits, nor in a bag’s size', () => {
    expect(briefOf('a rain jacket that packs small for hiking').sizes).toBeUndefined();
    expect(briefOf('trainers that run small, size 5').sizes).toEqual(['5']);
    expect(briefOf('a small rucksack').sizes).toBeUndefined();
    expect(briefOf('a medium hoodie in grey').sizes).toEqual(['M']);
  });

  it('steps a plain clothes size in twos, a shoe size one by one', () => {
    expect(briefOf('skinny jeans size 10', 'these jeans are too tight, one size up').sizes).toEqual(['12']);
    expect(briefOf('jeans 32 waist', 'too big').sizes).toEqual(['30']);
    expect(briefOf('trainers size 10', 'a size up').sizes).toEqual(['11']);
  });
});

describe('clothing words families mix in from other languages', () => {
  it.each([
    ['zapatillas for my son size 34', 'sneakers'],
    ['pantalones negros', 'trousers'],
    ['una camiseta blanca', 't-shirt'],
    ['vestido for the wedding', 'dress'],
    ['a chaqueta for school', 'jacket'],
    ['a kleid for my daughter', 'dress'],
  ])('reads "%s" as %s', (text, kind) => {
    expect(readMessage(text).intent).toBe('search');
    expect(briefOf(text).itemKinds).toEqual([kind]);
  });
});

describe('the mission’s constraints read sizes and dress codes as the brief does', () => {
  it.each([
    ['trainers size 38,5', ['38.5']],
    ['boots size 38,5 eu', ['EU 38.5']],
    ['trainers eu 42,5', ['EU 42.5']],
    ['shoes size 10 and a half', ['10.5']],
    ['a 2XL t-shirt for my dad', ['XXL']],
    ['an xl rain coat', ['XL']],
    ['a 3xl hoodie', ['XXXL']],
  ])('"%s" has size %j, as in the brief', (text, sizes) => {
    expect(parseConstraints(text).sizes).toEqual(sizes);
    expect(briefOf(text).sizes).toEqual(sizes);
  });

  it('reads "black tie" as a dress code, neither black nor a tie', () => {
    for (const text of ['a black tie outfit for my husband', 'my son needs a suit for black tie']) {
      const c = parseConstraints(text);
      expect(c.occasion).toBe('formal');
      expect(c.colors).toBeUndefined();
      // The suit is the only item (as in the brief): no tie.
      expect(c.categories ?? []).not.toContain('ACCESSORY');
    }
  });

  it('reads "less formal" as no formal occasion and a dressing gown as no dress', () => {
    expect(parseConstraints('less formal please').occasion).toBeUndefined();
    expect(parseConstraints('a dressing gown for my mum for christmas').categories).toEqual(['OTHER']);
  });
});
