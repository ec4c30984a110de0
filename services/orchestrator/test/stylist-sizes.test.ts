import { describe, expect, it } from 'vitest';
import { stubTurn } from './stub-stylist.ts';

// The stub stylist's whole turn (the real agent loop, the default step budget) against a small
// catalogue that filters the way commerce does: a search takes one size, so a brief with several
// sizes ("ages 4 and 6") is searched once per size, and the reply names only sizes searched.

type Offer = {
  offerId: string;
  title: string;
  price: number;
  category: string;
  colors: string[];
  sizes: string[];
};
const offer = (title: string, category: string, sizes: string[], price = 20): Offer => ({
  offerId: `off_${title.replace(/\W/g, '_')}`,
  title,
  price,
  category,
  colors: ['blue'],
  sizes,
});

/** One whole turn against a catalogue that filters the way commerce does (one size a search). */
const turn = (userText: string, catalogue: Offer[]) =>
  stubTurn(
    userText,
    catalogue,
    (o, a) =>
      (!a.query || o.title.toLowerCase().includes(a.query)) &&
      (!a.category || o.category === a.category) &&
      (!a.size || o.sizes.includes(a.size)) &&
      (a.maxPrice === undefined || o.price <= a.maxPrice),
  );

describe('stub stylist: several sizes', () => {
  it('searches each child’s size, so both children get offers and the reply says which is which', async () => {
    const t = await turn('pajamas for the twins, ages 4 and 6', [
      offer('Star pajamas', 'OTHER', ['KIDS 4']),
      offer('Moon pajamas', 'OTHER', ['KIDS 6']),
    ]);
    expect(t.stepLimitReached).toBe(false);
    expect(t.brief.sizes).toEqual(['KIDS 4', 'KIDS 6']);
    expect(t.searched.map((a) => a.size)).toEqual(['KIDS 4', 'KIDS 6']);
    expect(t.reply).toContain('For pajamas (size KIDS 4): 1 option. 1) Star pajamas');
    expect(t.reply).toContain('For pajamas (size KIDS 6): 1 option. 1) Moon pajamas');
    expect(t.reply).not.toContain('KIDS 4 or KIDS 6');
  });

  it('relaxes one size on its own and says so for that size only', async () => {
    const t = await turn('rain boots for my 3 and 7 year olds', [offer('Puddle boots', 'SHOES', ['KIDS 3'])]);
    expect(t.stepLimitReached).toBe(false);
    expect(t.reply).toContain('For boots (size KIDS 3): 1 option. 1) Puddle boots');
    expect(t.reply).toContain(
      'Nothing matched boots (size KIDS 7), so I relaxed the size (any size instead of KIDS 7)',
    );
  });

  it('keeps within the step budget and names the sizes it did not search', async () => {
    // Two kinds leave room for two sizes each; nothing matches, so every relaxation runs.
    const t = await turn('blue hoodies and jeans under 10 for winter for my kids aged 4, 6 and 8', []);
    expect(t.stepLimitReached).toBe(false);
    expect(new Set(t.searched.filter((a) => a.size).map((a) => a.size))).toEqual(
      new Set(['KIDS 4', 'KIDS 6']),
    );
    expect(t.reply).toContain("I didn't search size KIDS 8 this time: ask for it on its own.");
    const widest = await turn('a blue coat under 10 for winter, ages 3-8', []);
    expect(widest.stepLimitReached).toBe(false);
    expect(new Set(widest.searched.map((a) => a.size).filter(Boolean)).size).toBe(6);
  });
});

describe('stub stylist: the step budget when every constraint has to go', () => {
  // Offers whose titles name no item kind: only a search that dropped the item word (the last
  // relaxation) finds them, so every search runs every relaxation.
  const unnamed = [
    offer('Plain cotton top', 'TOP', ['XL'], 5),
    offer('Plain cotton bottoms', 'BOTTOM', ['XL'], 5),
    offer('Plain canvas pair', 'SHOES', ['XL'], 5),
    offer('Plain outer layer', 'OUTERWEAR', ['XL'], 5),
  ];
  it.each([
    ['three kinds', 'red hoodies, black jeans and white sneakers under 10 for winter, size M', 3],
    [
      'two kinds in three sizes',
      'red hoodies and black jeans under 10 for winter for my kids aged 4, 6 and 8',
      2,
    ],
    ['one kind in six sizes', 'a red coat under 10 for winter for the kids, ages 3-8', 1],
  ])('%s: relaxes to the end and replies within the turn’s steps', async (_, text, kinds) => {
    const t = await turn(text, unnamed);
    expect(t.stepLimitReached).toBe(false);
    expect(t.perStep.length).toBeGreaterThan(3);
    expect(Math.max(...t.perStep)).toBeLessThanOrEqual(8);
    expect(t.reply.match(/1\) Plain /g)?.length).toBeGreaterThanOrEqual(kinds);
    expect(t.reply).toContain('the item (any');
  });
});
