import type { Brief } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { searchFor } from '../src/domain/brief/relax.ts';
import { patchBrief, updateBrief } from '../src/domain/brief/update-brief.ts';

const brief = (...turns: string[]) =>
  turns.reduce<Brief>((b, t) => updateBrief(b, readMessage(t), [60, 75, 95]).brief, {});

describe('reading the way families talk', () => {
  it('keeps the item word, not just the category, and spells out voice numbers', () => {
    expect(brief('um so like a hoodie for under thirty five')).toEqual({
      itemKinds: ['hoodie'],
      categories: ['TOP'],
      maxPrice: 35,
    });
    expect(brief('a parka around one fifty')).toMatchObject({
      minPrice: 120,
      maxPrice: 180,
      seasons: ['WINTER'],
    });
    expect(brief('boots size forty one')).toMatchObject({ sizes: ['41'] });
  });

  it('reads negations as exclusions, never as the colour or kind wanted', () => {
    expect(brief('sneakers but not black')).toEqual({
      itemKinds: ['sneakers'],
      categories: ['SHOES'],
      excludedColors: ['black'],
    });
    expect(brief('wedding shoes no heels, not from nike')).toMatchObject({
      itemKinds: ['shoes'],
      excludedKinds: ['heels'],
      excludedBrands: ['nike'],
      occasion: 'wedding',
    });
  });

  it('turns a child’s age into kids sizes and corrects common typos', () => {
    expect(brief('a raincoat for my 6 year old')).toMatchObject({ forAge: 6, sizes: ['KIDS 6'] });
    expect(brief('blak jaket undr 90')).toMatchObject({
      itemKinds: ['jacket'],
      colors: ['black'],
      maxPrice: 90,
    });
  });
});

describe('conversation memory', () => {
  it('refines instead of starting over', () => {
    expect(brief('jackets under 100', 'cheaper').maxPrice).toBe(80);
    expect(brief('blue hoodie size m', 'in green instead')).toMatchObject({
      colors: ['green'],
      sizes: ['M'],
    });
    expect(brief('sneakers eu 42', 'what about 43').sizes).toEqual(['EU 43']);
    expect(brief('a coat for spring', 'actually for winter').seasons).toEqual(['WINTER']);
    expect(brief('a dress under 60', 'forget the budget')).toEqual({
      itemKinds: ['dress'],
      categories: ['DRESS'],
    });
    expect(brief('black jeans size 30', 'start over')).toEqual({});
    expect(brief('hoodie under 40', 'can you go a bit higher').maxPrice).toBe(60);
    expect(brief('hoodie under 40', 'like 60').maxPrice).toBe(60);
    expect(brief('jacket size L', 'smaller').sizes).toEqual(['M']);
    expect(brief('a puffer under 100', 'budget is flexible')).not.toHaveProperty('maxPrice');
  });

  it('applies an owner’s correction: given fields replace, null removes, kinds bring their categories', () => {
    const corrected = patchBrief(brief('jeans under 40'), { itemKinds: ['boots'], maxPrice: null });
    expect(corrected).toEqual({ itemKinds: ['boots'], categories: ['SHOES'] });
  });

  it('searches with the item word, exclusions and the size; relaxes the price first', () => {
    const b = brief('white sneakers size 42 under 50 not nike');
    expect(searchFor(b, 'sneakers', 0)).toEqual({
      limit: 3,
      query: 'sneakers',
      category: 'SHOES',
      maxPrice: 50,
      colors: ['white'],
      size: '42',
      excludeBrands: ['nike'],
    });
    expect(searchFor(b, 'sneakers', 1)).toMatchObject({ maxPrice: 75, colors: ['white'], size: '42' });
    expect(searchFor(b, 'sneakers', 2)).not.toHaveProperty('colors');
  });
});
