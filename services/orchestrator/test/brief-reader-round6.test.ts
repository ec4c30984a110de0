import type { Brief, Message } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { preferredBrand } from '../src/domain/brief/preferred-brand.ts';
import { categoryOf, readMessage } from '../src/domain/brief/read-message.ts';
import { searchFor } from '../src/domain/brief/relax.ts';
import { updateBrief } from '../src/domain/brief/update-brief.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { stubTurn } from './stub-stylist.ts';

const briefOf = (...turns: string[]): Brief =>
  turns.reduce<Brief>((b, t) => updateBrief(b, readMessage(t)).brief, {});

describe('the mission’s constraints read items and sizes with the brief’s one vocabulary', () => {
  it.each([
    ['slippers for grandpa', ['SHOES']],
    ['a swimsuit for the holiday', ['OTHER']],
    ['a onesie for my grandson', ['OTHER']],
    ['a snowsuit for the baby', ['OUTERWEAR']],
    ['zapatillas para mi hijo', ['SHOES']],
    ['pantalones negros', ['BOTTOM']],
    ['white kicks', ['SHOES']],
    ['a puffer and a beanie', ['OUTERWEAR', 'ACCESSORY']],
  ])('"%s" has the categories %j, as the brief', (text, categories) => {
    expect(parseConstraints(text).categories).toEqual(categories);
    expect(briefOf(text).categories?.toSorted()).toEqual(categories.toSorted());
  });

  it.each([
    ['a medium hoodie', ['M']],
    ['jeans, 34 waist', ['34']],
    ['trainers, toddler 7', ['7']],
    ['a coat, kids 12', ['KIDS 12']],
    ['a raincoat for my six year old', ['KIDS 6']],
    ['baby girl dress 6-9 months', ['6-9M']],
  ])('"%s" has the sizes %j, as the brief', (text, sizes) => {
    expect(parseConstraints(text).sizes).toEqual(sizes);
    expect(briefOf(text).sizes).toEqual(sizes);
  });

  it('reads colours as offers are tagged and leaves an owned piece out', () => {
    expect(parseConstraints('teal top').colors).toEqual(['blue']);
    expect(parseConstraints('navy blue chinos').colors).toEqual(['navy']);
    expect(parseConstraints('what goes with my white jeans')).toEqual({});
  });

  it('cuts a hostile run of digits to ten before reading (the reader walked 8 kB runs for a third of a second)', () => {
    expect(readMessage('1'.repeat(8000)).text).toBe('1'.repeat(10));
    expect(parseConstraints(`jeans under ${'9'.repeat(8000)}`)).toEqual({ categories: ['BOTTOM'] });
  });
});

describe('a step away from a dress code, and something warmer', () => {
  it('drops a formal occasion on "less formal" but keeps an event', () => {
    expect(briefOf('black tie outfit for my husband', 'less formal please').occasion).toBeUndefined();
    expect(briefOf('a formal dress', 'this is too dressy').occasion).toBeUndefined();
    expect(briefOf('a suit for the wedding', 'less formal').occasion).toBe('wedding');
    expect(briefOf('a formal dress', 'something more casual').occasion).toBe('casual');
  });

  it('reads warm clothes as winter’s and warm weather as summer’s', () => {
    expect(briefOf('summer dress', 'something warmer').seasons).toEqual(['WINTER']);
    expect(briefOf('a warm coat for my mum').seasons).toEqual(['WINTER']);
    expect(briefOf('thermals for skiing').seasons).toEqual(['WINTER']);
    expect(briefOf('shorts for warm weather').seasons).toEqual(['SUMMER']);
    expect(briefOf('a dress in warm colours').seasons).toBeUndefined();
  });
});

describe('a brand asked for', () => {
  it('is read when said, never from an everyday word or a "not"', () => {
    expect(readMessage('nike trainers for my son size 5').brands).toEqual(['nike']);
    expect(readMessage('anything from zara, tops for my daughter').brands).toEqual(['zara']);
    expect(readMessage('a the north face jacket').brands).toEqual(['north face']);
    expect(readMessage('a dress for next week').brands).toEqual([]);
    expect(readMessage('sneakers not nike').brands).toEqual([]);
    expect(readMessage('anything from zara').intent).toBe('search');
  });

  it('stays asked for across the conversation until dropped', () => {
    const user = (content: string): Message => ({ role: 'user', content }) as Message;
    expect(preferredBrand([user('nike trainers')], readMessage('in black'))).toBe('nike');
    expect(preferredBrand([user('nike trainers')], readMessage('any brand is fine'))).toBeUndefined();
    expect(preferredBrand([user('nike trainers')], readMessage('actually not nike'))).toBeUndefined();
    expect(preferredBrand([user('nike trainers')], readMessage('start over, a coat'))).toBeUndefined();
    expect(preferredBrand([], readMessage('nike or adidas trainers'))).toBeUndefined();
  });

  it('rides in the search query and is loosened before the item word', () => {
    const brief = briefOf('nike trainers');
    expect(searchFor(brief, 'sneakers', 0, undefined, 'nike').query).toBe('nike sneakers');
    expect(searchFor(brief, 'sneakers', 1, undefined, 'nike').query).toBe('sneakers');
    expect(searchFor(brief, 'top', 0, undefined, 'zara').query).toBe('zara');
    expect(categoryOf('sneakers')).toBe('SHOES');
  });

  it('is searched by the stub stylist, which says when it had to loosen it', async () => {
    const catalogue = [
      { offerId: 'o1', title: 'Runner sneakers', brand: 'Adidas', price: 40, category: 'SHOES' },
      { offerId: 'o2', title: 'Court sneakers', brand: 'Nike', price: 50, category: 'SHOES' },
    ];
    // Commerce matches every query word in the title or the brand.
    const run = (userText: string) =>
      stubTurn(userText, catalogue, (o, a) => {
        const text = `${o.title} ${o.brand}`.toLowerCase();
        return (a.query ?? '')
          .split(' ')
          .filter(Boolean)
          .every((w) => text.includes(w.replace(/s$/, '')));
      });
    const found = await run('nike trainers');
    expect(found.searched[0]!.query).toBe('nike sneakers');
    expect(found.reply).toContain('Court sneakers');
    expect(found.reply).toContain('by Nike');
    expect(found.reply).not.toContain('Runner sneakers');
    const loosened = await run('puma trainers');
    expect(loosened.searched.map((a) => a.query)).toEqual(['puma sneakers', 'sneakers']);
    expect(loosened.reply).toContain('the brand (any brand instead of puma)');
  });
});

describe('round 6: requests earlier rounds did not cover', () => {
  it('reads a birthday present as a gift, not a party to dress for', () => {
    expect(briefOf('a birthday present for my granddaughter, she’s 6').occasion).toBeUndefined();
    expect(briefOf('a dress for her birthday party').occasion).toBe('party');
    expect(briefOf('a dress for my sister’s hen do').occasion).toBe('party');
  });

  it('reads more sports, a job and measurements', () => {
    expect(briefOf('netball skirt for my daughter').occasion).toBe('sport');
    expect(briefOf('ballet leotard and tights').itemKinds).toEqual(['leotard', 'leggings']);
    expect(briefOf('ballet flats').occasion).toBeUndefined();
    expect(briefOf('a baseball cap').occasion).toBeUndefined();
    expect(briefOf('black trousers for a new waitressing job').occasion).toBe('work');
    expect(briefOf('a suit for a job interview').occasion).toBe('interview');
    expect(briefOf('a tux for prom, 38 chest').sizes).toEqual(['38']);
    expect(briefOf('second hand jeans for my teenager, w30').sizes).toEqual(['30']);
    expect(briefOf('nurse scrubs size medium').itemKinds).toEqual(['scrubs']);
  });
});
