import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, headers, type TestWardrobe, wardrobeApp } from './helpers.ts';

let w: TestWardrobe;
const P = '/api/v1/households/h_1/wardrobe/pairings';

beforeAll(async () => {
  w = await wardrobeApp();
  for (const item of [
    { category: 'TOP', brand: 'Acme', colors: ['navy'] },
    { category: 'TOP', brand: 'Loud', colors: ['red'] },
    { category: 'SHOES', brand: 'Runner', colors: ['white'] },
    { category: 'BOTTOM', brand: 'Levis', colors: ['blue'] },
    { category: 'SHOES', brand: 'Snow', colors: ['brown'], season: ['WINTER'] },
  ])
    expect(
      (
        await w.inject({
          method: 'POST',
          url: '/api/v1/households/h_1/wardrobe/items',
          headers,
          payload: item,
        })
      ).statusCode,
    ).toBe(201);
});
afterAll(async () => w.stop());

describe('POST .../wardrobe/pairings', () => {
  it('names owned items that complete a piece, best colour match first, never a clash or another season', async () => {
    const res = await w.inject({
      method: 'POST',
      url: P,
      headers,
      payload: { category: 'BOTTOM', colors: ['yellow'], season: 'SUMMER' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.completes).toEqual(['TOP', 'SHOES']);
    // Navy and white are neutrals; red clashes with yellow; the winter boots are out of season.
    expect(body.pairs.map((p: { label: string }) => p.label).sort()).toEqual(['Acme', 'Runner']);
    expect(body.pairs[0].why[0]).toMatch(/neutral/);
  });

  it('validates the piece and keeps households apart', async () => {
    const bad = await w.inject({ method: 'POST', url: P, headers, payload: { category: 'HAT' } });
    expect(bad.statusCode).toBe(422);
    const other = await w.inject({
      method: 'POST',
      url: '/api/v1/households/h_2/wardrobe/pairings',
      headers: as('usr_c'),
      payload: { category: 'BOTTOM', colors: ['white'] },
    });
    expect(other.statusCode).toBe(200);
    expect(other.json().pairs).toEqual([]);
  });
});
