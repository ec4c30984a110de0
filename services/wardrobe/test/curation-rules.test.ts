import { describe, expect, it } from 'vitest';
import { harmonyOf } from '../src/domain/colour-harmony.ts';
import { curateLooks, missingCategories, type Piece } from '../src/domain/curation.ts';

const piece = (
  id: string,
  category: Piece['category'],
  colors: string[],
  over: Partial<Piece> = {},
): Piece => ({
  source: 'WARDROBE',
  id,
  category,
  colors,
  season: ['SUMMER'],
  occasion: [],
  label: id,
  ...over,
});

describe('colour harmony', () => {
  it('rates neutrals, tonal, complementary, analogous and clashing pairs', () => {
    expect(harmonyOf(['navy'], ['red'])).toMatchObject({
      kind: 'neutral',
      reason: 'navy is a neutral and goes with red',
    });
    expect(harmonyOf(['pink'], ['burgundy']).kind).toBe('tonal');
    expect(harmonyOf(['blue'], ['orange'])).toMatchObject({
      kind: 'complementary',
      reason: 'blue and orange are complementary colours',
    });
    expect(harmonyOf(['blue'], ['green']).kind).toBe('analogous');
    expect(harmonyOf(['red'], ['yellow']).kind).toBe('clash');
    expect(harmonyOf([], ['red'])).toMatchObject({ kind: 'unknown', reason: null });
  });
});

describe('look curation', () => {
  const anchor = piece('top', 'TOP', ['blue'], { occasion: ['work'] });

  it('completes a top with the best-matching bottom and shoes, explained', () => {
    const wardrobe = [
      piece('jeans-red', 'BOTTOM', ['red']),
      piece('chinos-beige', 'BOTTOM', ['beige'], { occasion: ['Work'] }),
      piece('sneakers', 'SHOES', ['white']),
      piece('boots-winter', 'SHOES', ['black'], { season: ['WINTER'] }),
    ];
    const { looks, notes } = curateLooks(anchor, wardrobe, []);
    expect(notes).toEqual([]);
    expect(looks[0]).toEqual({
      lookId: 'look_1',
      anchorItemId: 'top',
      pieces: [
        { source: 'WARDROBE', id: 'top', category: 'TOP', colors: ['blue'], label: 'top' },
        {
          source: 'WARDROBE',
          id: 'chinos-beige',
          category: 'BOTTOM',
          colors: ['beige'],
          label: 'chinos-beige',
        },
        { source: 'WARDROBE', id: 'sneakers', category: 'SHOES', colors: ['white'], label: 'sneakers' },
      ],
      itemIds: ['top', 'chinos-beige', 'sneakers'],
      offerIds: [],
      score: 0.82,
      why: [
        'Complementary categories: TOP + BOTTOM + SHOES make a complete outfit',
        'Colours: beige is a neutral and goes with blue',
        'Same occasion: work',
        'Colours: white is a neutral and goes with blue',
        'Season: every piece works in SUMMER',
      ],
    });
    // The winter boots don't fit a summer top; the second look varies the bottom.
    expect(looks.map((l) => l.itemIds)).toEqual([
      ['top', 'chinos-beige', 'sneakers'],
      ['top', 'jeans-red', 'sneakers'],
    ]);
  });

  it('fills a missing category with an offer and says so', () => {
    const offer = piece('off_1', 'SHOES', ['white'], {
      source: 'OFFER',
      label: 'Canvas sneakers',
      price: { amount: 55, currency: 'EUR' },
    });
    const wardrobe = [piece('chinos', 'BOTTOM', ['beige'])];
    expect(missingCategories(anchor, wardrobe)).toEqual(['SHOES']);
    const { looks } = curateLooks(anchor, wardrobe, [offer]);
    expect(looks[0]!.offerIds).toEqual(['off_1']);
    expect(looks[0]!.why).toContain(
      'Fills a gap: no fitting SHOES in the wardrobe, so the offer "Canvas sneakers" (55 EUR) completes the look',
    );
  });

  it('is deterministic and reports what nothing can complete', () => {
    const wardrobe = [piece('b2', 'BOTTOM', ['grey']), piece('b1', 'BOTTOM', ['grey'])];
    const a = curateLooks(anchor, wardrobe, []);
    expect(a).toEqual(curateLooks(anchor, [...wardrobe].reverse(), []));
    expect(a.looks[0]!.itemIds).toEqual(['top', 'b1']);
    expect(a.notes).toEqual(['Nothing in the wardrobe or the offers completes the look with SHOES']);
    expect(curateLooks(anchor, [], [])).toEqual({
      looks: [],
      notes: [
        'Nothing in the wardrobe or the offers completes the look with BOTTOM',
        'Nothing in the wardrobe or the offers completes the look with SHOES',
      ],
    });
  });
});
