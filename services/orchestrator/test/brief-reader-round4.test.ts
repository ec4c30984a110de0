import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { updateBrief } from '../src/domain/brief/update-brief.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';

// Round 4: the mission's constraints read amounts and sizes as the brief does (spelled out,
// corrected mid-sentence); more garment words. None from the corpus.

const briefOf = (text: string) => updateBrief({}, readMessage(text)).brief;

describe('mission constraints read spoken amounts and sizes as the brief does', () => {
  it('reads spelled-out prices', () => {
    expect(parseConstraints('a raincoat for no more than fifty bucks')).toMatchObject({
      maxPrice: 50,
      currency: 'USD',
    });
    expect(parseConstraints('trainers under a hundred and twenty, please').maxPrice).toBe(120);
    expect(parseConstraints('a dress between forty and sixty five')).toMatchObject({
      minPrice: 40,
      maxPrice: 65,
    });
    expect(parseConstraints('socks, a tenner max')).toMatchObject({ maxPrice: 10, currency: 'GBP' });
  });

  it('keeps the size said last in a spoken correction, and spelled-out sizes', () => {
    expect(parseConstraints('boots size 38 actually make it 39').sizes).toEqual(['39']);
    expect(parseConstraints('wellies size nine, no wait ten').sizes).toEqual(['10']);
    expect(parseConstraints('a coat in size twelve').sizes).toEqual(['12']);
  });

  it('keeps a decimal comma and a thousands separator as they were', () => {
    expect(parseConstraints('a coat under 49,99 eur').maxPrice).toBe(49.99);
    expect(parseConstraints('a suit under 1,200').maxPrice).toBe(1200);
  });
});

describe('a spoken size correction with "make it a" / "a size"', () => {
  it('keeps only the corrected size in the brief and the constraints', () => {
    for (const text of ['boots size 38 actually make it a 39', 'boots size 38, sorry, a size 39']) {
      expect(briefOf(text).sizes).toEqual(['39']);
      expect(parseConstraints(text).sizes).toEqual(['39']);
    }
  });
});

describe('more garment words', () => {
  it.each([
    ['shin pads for football', 'shin pads', 'OTHER'],
    ['shin guards for my son', 'shin pads', 'OTHER'],
    ['ski salopettes for my daughter', 'salopettes', 'BOTTOM'],
    ['snow pants size 10', 'salopettes', 'BOTTOM'],
    ['a kaftan for the beach', 'kaftan', 'DRESS'],
    ['a white caftan', 'kaftan', 'DRESS'],
    ['a rain poncho for festivals', 'poncho', 'OUTERWEAR'],
    ['a kilt for a wedding', 'kilt', 'BOTTOM'],
    ['a sarong under 20', 'sarong', 'BOTTOM'],
  ])('reads "%s" as a %s', (text, kind, category) => {
    const reading = readMessage(text);
    expect(reading.intent).toBe('search');
    expect(briefOf(text)).toMatchObject({ itemKinds: [kind], categories: [category] });
  });

  it('leaves everyday words near the new ones alone', () => {
    expect(briefOf('strong boots').itemKinds).toEqual(['boots']);
    expect(briefOf('a captain costume').itemKinds).toEqual(['costume']);
  });

  it('gives the mission the category of the new words', () => {
    expect(parseConstraints('a kilt').categories).toEqual(['BOTTOM']);
    expect(parseConstraints('a kaftan').categories).toEqual(['DRESS']);
    expect(parseConstraints('a poncho').categories).toEqual(['OUTERWEAR']);
  });
});

describe('prices and half sizes written with a decimal comma, as most of Europe writes them', () => {
  it.each([
    ['jeans under 49,99 €', { maxPrice: 49.99, currency: 'EUR' }],
    ['price 49,99 eur', { maxPrice: 49.99, currency: 'EUR' }],
    ['a coat, max €89,90', { maxPrice: 89.9, currency: 'EUR' }],
    ['boots under 1,200 eur', { maxPrice: 1200, currency: 'EUR' }],
  ])('reads "%s" as the amount written', (text, expected) => {
    expect(briefOf(text)).toMatchObject(expected);
  });

  it('reads "size 38,5" as a half size, and a list of sizes with a comma as a list', () => {
    expect(briefOf('shoes size 38,5').sizes).toEqual(['38.5']);
    expect(briefOf('sizes 10,12 please').sizes).toEqual(['10', '12']);
  });
});
