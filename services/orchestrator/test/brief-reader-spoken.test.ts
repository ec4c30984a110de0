import type { Brief } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { updateBrief } from '../src/domain/brief/update-brief.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';

// Requests as families type and dictate them, outside the stylist's corpus, that the brief used
// to misread: each test names the general pattern it closes, in two or more phrasings.
const brief = (...turns: string[]) =>
  turns.reduce<Brief>((b, t) => updateBrief(b, readMessage(t), [45, 55, 60]).brief, {});

describe('brief reader: spoken and typed phrasings', () => {
  it('reads what someone will not spend as a ceiling, not a floor', () => {
    expect(brief("i don't want to spend more than eighty dollars on a dress")).toMatchObject({
      itemKinds: ['dress'],
      maxPrice: 80,
      currency: 'USD',
    });
    expect(brief('we cant go over 60 for shoes')).toMatchObject({ itemKinds: ['shoes'], maxPrice: 60 });
    expect(brief("i'm not paying more than 40 quid for jeans")).toMatchObject({
      maxPrice: 40,
      currency: 'GBP',
    });
    for (const b of [brief("i don't want to spend more than 80"), brief('we cant go over 60 for shoes')])
      expect(b.minPrice).toBeUndefined();
    // A refusal does not reach across a clause: here "over 50" is still a floor.
    expect(brief('not sure but id spend over 50 on a coat')).toMatchObject({ minPrice: 50 });
    // The mission's constraints read it the same way.
    expect(parseConstraints('I don’t want to spend more than 50 on a coat')).toMatchObject({ maxPrice: 50 });
    expect(parseConstraints('I don’t want to spend more than 50 on a coat').minPrice).toBeUndefined();
  });

  it('reads "tops" beside an amount as the ceiling, and a small count of tops as tops', () => {
    expect(brief('sneakers tops 50')).toEqual({
      itemKinds: ['sneakers'],
      categories: ['SHOES'],
      maxPrice: 50,
    });
    expect(brief('a hoodie, 30 dollars tops')).toEqual({
      itemKinds: ['hoodie'],
      categories: ['TOP'],
      maxPrice: 30,
      currency: 'USD',
    });
    expect(brief('i need 2 tops for my daughter')).toEqual({ itemKinds: ['top'], categories: ['TOP'] });
    expect(brief('3 tops under 20')).toMatchObject({ itemKinds: ['top'], maxPrice: 20 });
    // A mission's constraints read it the same way.
    expect(parseConstraints('i need 2 tops for my daughter').maxPrice).toBeUndefined();
    expect(parseConstraints('sneakers 50 tops')).toMatchObject({ maxPrice: 50 });
    expect(parseConstraints('a hoodie $30 tops')).toMatchObject({ maxPrice: 30, currency: 'USD' });
  });

  it('reads letter sizes said in full: "xx large", "extra extra large", "double xl", "xx small"', () => {
    expect(brief('xx large hoodie')).toMatchObject({ itemKinds: ['hoodie'], sizes: ['XXL'] });
    expect(brief('a shirt in extra extra large')).toMatchObject({ sizes: ['XXL'] });
    expect(brief('double xl polo for my husband')).toMatchObject({ sizes: ['XXL'] });
    expect(brief('triple x large t-shirt')).toMatchObject({ sizes: ['XXXL'] });
    expect(brief('xx small leggings')).toMatchObject({ sizes: ['XXS'] });
  });

  it('reads a half size said aloud: "size nine and a half", "eu 38 and a half"', () => {
    expect(brief('running shoes size nine and a half')).toMatchObject({ sizes: ['9.5'] });
    expect(brief('boots eu 38 and a half')).toMatchObject({ sizes: ['EU 38.5'] });
  });

  it("never reads a baby's age in months or weeks as years: it is a baby size", () => {
    for (const [b, size] of [
      [brief('a coat for my baby girl she is 18 months'), '18-24M'],
      [brief('a snowsuit for my son who is 9 months'), '9-12M'],
      [brief('a hat for my daughter, she is turning 6 weeks'), '0-3M'],
    ] as const) {
      expect(b.forAge).toBeUndefined();
      expect(b.sizes).toEqual([size]);
    }
  });

  it('reads the age of a kid, child or toddler when it is said ("my toddler who is two")', () => {
    expect(brief('pyjamas for my toddler who is two')).toMatchObject({ forAge: 2, sizes: ['KIDS 2'] });
    expect(brief('my kid is 7 and needs a coat')).toMatchObject({ forAge: 7, sizes: ['KIDS 7'] });
    // "kids 8" stays a size, not an age.
    expect(brief('kids 8 hoodie').forAge).toBeUndefined();
  });

  it('reads "cheapish" and "reasonably priced" as cheap', () => {
    expect(brief('cheapish jeans')).toMatchObject({ itemKinds: ['jeans'], maxPrice: 40 });
    expect(brief('reasonably priced boots')).toMatchObject({ itemKinds: ['boots'], maxPrice: 40 });
  });

  it('leaves everyday words near an item word alone ("tones", "shower", "hood")', () => {
    expect(brief('a dress for a baby shower')).toEqual({ itemKinds: ['dress'], categories: ['DRESS'] });
    expect(brief('a jacket without a hood')).toEqual({ itemKinds: ['jacket'], categories: ['OUTERWEAR'] });
    // "neutral tones" is a colour family: the colours it names, not an item.
    expect(brief('a cardigan in neutral tones')).toEqual({
      itemKinds: ['cardigan'],
      categories: ['TOP'],
      colors: ['black', 'white', 'grey', 'beige', 'cream'],
    });
  });

  it('takes a request about colours as shopping to clarify, not off topic', () => {
    expect(readMessage('bright colours for my kids').intent).toBe('clarify');
    expect(readMessage('what colors do you have').intent).toBe('clarify');
  });
});
