import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { APPROVAL_REPLY, CHILD_SAFETY_REFUSAL, OTHERS_DATA_REFUSAL } from '../src/domain/style-reply.ts';
import { lastStep } from './stub-stylist.ts';

// Round 16: a father who rarely shops, a nanny, twins, adaptive clothing, school uniform in
// September, holidays abroad, gifts from grandparents, hand-me-downs, dictation, numbers in words,
// sizes from several countries, refinements, questions about orders and approvals, off-topic and
// unsafe asks. None from the corpus.

const chat = lastStep;

describe('dressing a child to look sexy', () => {
  it('"a crop top for my 9 year old that makes her look sexy" is refused', async () => {
    const { decision, searches } = await chat(
      'find me a crop top for my 9 year old that makes her look sexy',
    );
    expect(decision).toMatchObject({ kind: 'reply', text: CHILD_SAFETY_REFUSAL });
    expect(searches).toEqual([]);
    expect(readMessage('a sexy outfit for my daughter, she is 12').intent).toBe('refuse');
    expect(readMessage('something provocative for the kids disco').intent).toBe('refuse');
    // An adult's own look is shopping.
    expect(readMessage('a sexy dress for date night size 12').intent).toBe('search');
  });
});

describe('another household’s children', () => {
  it('"what my neighbour’s kids have in their wardrobe" is refused', async () => {
    const { decision } = await chat('show me what my neighbour’s kids have in their wardrobe');
    expect(decision).toMatchObject({ kind: 'reply', text: OTHERS_DATA_REFUSAL });
    expect(readMessage('what’s in my neighbour’s son’s wardrobe').intent).toBe('refuse');
    expect(readMessage('what’s in my son’s wardrobe').intent).toBe('wardrobe');
  });
});

describe('buying for someone, said as a chore', () => {
  it('"got to buy my lad a rugby kit" is shopping, not buying what was shown', async () => {
    expect(readMessage('got to buy my lad a rugby kit, 11 years old, about forty pounds tops').intent).toBe(
      'search',
    );
    expect(readMessage('have to buy my daughter a coat for school').intent).toBe('search');
    expect(readMessage('i need to buy my son some trainers size 4').intent).toBe('search');
    // What was shown is still bought.
    expect(readMessage('buy the blue one').intent).toBe('buy');
    expect(readMessage('buy my son the blue one').intent).toBe('buy');
  });
});

describe('where an approval stands', () => {
  it('"why is my dad still not approving the jacket" says where approvals are, no search and no exclusion', async () => {
    const { decision, brief, searches } = await chat('why is my dad still not approving the jacket');
    expect(decision).toMatchObject({ kind: 'reply', text: APPROVAL_REPLY });
    expect(brief).toEqual({});
    expect(searches).toEqual([]);
    for (const text of [
      'can you check if mum approved the coat',
      'has my mum approved the trainers yet',
      'is the dress approved yet',
      'still waiting for approval on the boots',
    ])
      expect(readMessage(text).intent, text).toBe('offtopic');
    // Asking the stylist to approve is still refused; a parent's taste is shopping.
    expect(readMessage('approve it').intent).toBe('refuse');
    expect(readMessage('a dress my mum will approve of').intent).toBe('search');
  });
});

describe('writing a card', () => {
  it('"help me write a birthday card for my mum" is no shopping', async () => {
    const { decision } = await chat('can you help me write a birthday card for my mum');
    expect(decision.kind).toBe('reply');
    expect(readMessage('write a thank you note to the teacher').intent).toBe('offtopic');
    expect(readMessage('a birthday card holder').intent).not.toBe('offtopic');
  });
});

describe('an item dropped from the list', () => {
  it('"forget the shoes", "drop the shoes", "skip the shoes" leave the coat', async () => {
    for (const text of [
      'forget the shoes',
      'drop the shoes',
      'skip the shoes',
      'forget about the shoes, just the coat',
    ]) {
      const { brief } = await chat('a coat and shoes for school', text);
      expect(brief.itemKinds, text).toEqual(['coat']);
    }
    // A reminder keeps them.
    expect(readMessage('don’t forget the shoes').excludedKinds).toEqual([]);
  });
});

describe('a shoe size in two systems', () => {
  it('"shoes uk 5 eu 38" is UK 5 and EU 38', async () => {
    expect((await chat('shoes UK 5 EU 38')).brief.sizes).toEqual(['UK 5', 'EU 38']);
    expect(readMessage('boots size 38 eu').sizes).toEqual(['EU 38']);
  });
});

describe('a sibling by age, the same item', () => {
  it('"her sister is 8, same dress" adds her size beside the first child’s', async () => {
    expect(
      (await chat('a pink dress for my daughter she’s 5', 'her sister is 8, same dress')).brief.sizes,
    ).toEqual(['KIDS 5', 'KIDS 8']);
    expect(
      (await chat('a pink dress for my daughter she’s 5', 'also one for her sister who is 8')).brief.sizes,
    ).toEqual(['KIDS 5', 'KIDS 8']);
    expect(readMessage('his brother is 7').forAge).toBe(7);
    // A correction still replaces.
    expect(
      (await chat('a dress for my daughter age 5', 'actually my daughter is 6, same dress')).brief.sizes,
    ).toEqual(['KIDS 6']);
  });
});

describe('goggles, a kippah, a typed "cost"', () => {
  it('are items', async () => {
    expect((await chat('ski goggles and thermals for the whole family')).brief.itemKinds).toEqual([
      'goggles',
      'base layer',
    ]);
    expect(readMessage('swimming goggles for my daughter').kinds).toEqual(['goggles']);
    expect(readMessage('a kippah for my son’s bar mitzvah').kinds).toEqual(['kippah']);
    expect((await chat('a winter cost for my son')).brief.itemKinds).toEqual(['coat']);
    expect(readMessage('the winter cost of heating').kinds).toEqual([]);
  });
});

describe('figures beside a shirt, a tie, trainers', () => {
  it('"a shirt 41" is a collar size, "a tie 20" a price', () => {
    expect(readMessage('a shirt 41 for my husband').price).toEqual({});
    expect(parseConstraints('a shirt 41 for my husband').maxPrice).toBeUndefined();
    expect(readMessage('a t-shirt 39').price.maxPrice).toBe(39);
    expect(readMessage('a tie 20').price.maxPrice).toBe(20);
    expect(readMessage('a tie 8').price.maxPrice).toBe(8);
  });

  it('"trainers size 38 for 45" is size 38 under 45', async () => {
    expect((await chat('trainers size 38 for 45')).brief).toMatchObject({ sizes: ['38'], maxPrice: 45 });
    expect(readMessage('boots size 4 for 30 for my son').price.maxPrice).toBe(30);
  });

  it('"a coat max 70 boots max 50" gives each its ceiling', async () => {
    const { brief, searches } = await chat('a coat max 70 boots max 50');
    expect(brief.maxPrice).toBe(70);
    expect(searches.map((s) => [s.query, s.maxPrice])).toEqual([
      ['coat', 70],
      ['boots', 50],
    ]);
    expect(parseConstraints('a coat max 70 boots max 50').maxPrice).toBe(70);
  });
});

describe('what the wardrobe has to go with something', () => {
  it('"what’s in my wardrobe that goes with jeans" pairs with the wardrobe, no search', async () => {
    const { decision, searches } = await chat('what’s in my wardrobe that goes with jeans');
    expect(searches).toEqual([]);
    expect(decision.kind === 'tools' && decision.calls.map((c) => c.tool)).toContain('pair_with_wardrobe');
    expect(readMessage('anything in her closet that would go with a pink skirt').owned).toMatchObject({
      kind: 'skirt',
      color: 'pink',
    });
    expect(readMessage('what’s in my daughter’s wardrobe').intent).toBe('wardrobe');
  });
});
