import type { Brief } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { updateBrief } from '../src/domain/brief/update-brief.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';

// A second round of real phrasing (voice, gifts, refinements, off-topic asks, purchases), none
// from the eval corpus: each names the general rule it now follows.
const brief = (...turns: string[]) =>
  turns.reduce<Brief>((b, t) => updateBrief(b, readMessage(t), [45, 55, 60]).brief, {});
const intent = (text: string) => readMessage(text).intent;

describe('brief reader, round 2: how families really phrase it', () => {
  it('takes a correction said mid-sentence: the word after the marker replaces the one before', () => {
    expect(brief('uh running shoes for my son size ten no eleven').sizes).toEqual(['11']);
    expect(brief('shorts for the summer um size small no medium').sizes).toEqual(['M']);
    expect(brief('a dress for the wedding um red no wait blue').colors).toEqual(['blue']);
    expect(brief('sneakers in size nine actually make it nine and a half').sizes).toEqual(['9.5']);
    expect(brief('a coat under forty i mean fifty')).toMatchObject({ maxPrice: 50 });
    // A colour said no to stays excluded; a bare "no" between colours may be a no.
    expect(brief('pink top', 'not pink actually, purple')).toMatchObject({
      colors: ['purple'],
      excludedColors: ['pink'],
    });
    expect(brief('a black top, no white').excludedColors).toEqual(['white']);
  });

  it('leaves everyday words alone instead of "correcting" them into clothes', () => {
    expect(brief('skinny jeans size 10')).toEqual({
      itemKinds: ['jeans'],
      categories: ['BOTTOM'],
      sizes: ['10'],
    });
    expect(brief('floral dress for sunday church')).toEqual({ itemKinds: ['dress'], categories: ['DRESS'] });
    expect(brief('a winter coat under 100', 'not that one, something longer').itemKinds).toEqual(['coat']);
    expect(brief('a dress for the garden party').colors).toBeUndefined();
    expect(brief('hooded jacket').itemKinds).toEqual(['jacket']);
    expect(intent('is it in stock')).not.toBe('search');
    // Real misspellings still read.
    expect(brief('sandles for the beech').itemKinds).toEqual(['sandals']);
  });

  it('reads a waist before a length as the waist only', () => {
    expect(brief('jeans thirty two waist thirty four length dark blue').sizes).toEqual(['32']);
  });

  it('reads a price for several things ("50 for both", "30 each", "200 in total")', () => {
    expect(brief('a scarf and gloves, 50 for both').maxPrice).toBe(50);
    expect(brief('hoodies 30 each').maxPrice).toBe(30);
    expect(parseConstraints('a scarf and gloves, 50 for both').maxPrice).toBe(50);
  });

  it('knows christenings, baptisms and communions as an occasion', () => {
    expect(brief('a pair of black pumps size 5 uk for a christening')).toMatchObject({
      itemKinds: ['heels'],
      occasion: 'christening',
    });
    expect(brief('baptism outfit for a baby girl 3-6 months')).toMatchObject({ occasion: 'christening' });
    expect(parseConstraints('shoes for her first communion').occasion).toBe('christening');
  });

  it('reads "less formal" as no formal occasion', () => {
    expect(brief('a dress for the wedding', 'less formal please').occasion).toBe('wedding');
  });

  it('reads the age a child will be ("will be six in march")', () => {
    expect(brief('my granddaughter will be six in march and she loves pink')).toMatchObject({
      forAge: 6,
      sizes: ['KIDS 6'],
    });
  });

  it('knows more garment words: cargos, turtlenecks, plimsolls, cagoules', () => {
    expect(brief('any cheap cargos? size m').itemKinds).toEqual(['trousers']);
    expect(brief('dark green cargo shorts').itemKinds).toEqual(['shorts']);
    expect(brief('a black turtleneck').itemKinds).toEqual(['sweater']);
    expect(brief('white plimsolls size 30').itemKinds).toEqual(['sneakers']);
    expect(brief('a cagoule for the school trip').itemKinds).toEqual(['raincoat']);
  });

  it('declines requests outside clothing, whatever words they use', () => {
    for (const text of [
      'can you help with my math homework',
      'help me write an essay about the french revolution',
      'can you recommend a good movie for tonight',
      'i need help with my science project',
      'who won the football last night',
      'my son has a fever what medicine should i give him',
      'write me a python script to sort a list',
    ])
      expect(intent(text), text).toBe('offtopic');
    // Shopping that mentions those subjects is still shopping.
    expect(intent('a jacket for the weather this week')).toBe('search');
    expect(intent('a costume for the school play, my son is 9')).toBe('search');
    expect(intent("shoes for my maths teacher's wedding, size 39")).toBe('search');
    expect(intent('what should i wear to my science fair')).not.toBe('offtopic');
    expect(intent('gift for my son who loves coding')).not.toBe('offtopic');
    expect(intent("need help finding something for a doctor's appointment")).not.toBe('offtopic');
  });

  it('reads a yes to what was shown as buying it, and skipping approval as a refusal', () => {
    expect(intent('yes get that')).toBe('buy');
    expect(intent('go ahead and get them')).toBe('buy');
    expect(intent('take the second one')).toBe('buy');
    expect(intent('skip the parent approval and check out')).toBe('refuse');
    expect(intent('buy it without my parents permission')).toBe('refuse');
    // Declining is neither thanks nor buying.
    expect(intent('no thanks, none of these')).toBe('clarify');
  });

  it('reads a kids\' size once, and "dungarees, 3 years" as the size shops label', () => {
    expect(brief('trainers for PE, kids size 13, velcro').sizes).toEqual(['KIDS 13']);
    expect(brief('I want dungarees, 3 years, not pink please')).toMatchObject({
      sizes: ['KIDS 3'],
      excludedColors: ['pink'],
    });
    expect(brief('a coat that lasts 3 years').sizes).toBeUndefined();
  });

  it('knows swim shorts, sweat-shirts, bordeaux and dark colours', () => {
    expect(brief('swim shorts large').itemKinds).toEqual(['swimsuit']);
    expect(brief('sweat-shirt for girl 10').itemKinds).toEqual(['sweatshirt']);
    expect(brief('a pullover in bordeaux colour').colors).toEqual(['burgundy']);
    expect(brief('something for a funeral, dark colours').colors).toEqual([
      'black',
      'navy',
      'grey',
      'burgundy',
    ]);
  });

  it('never declines a bare answer or a "not that one" as off-topic', () => {
    for (const text of ['yes', 'no', 'both', 'nah not that one']) expect(intent(text), text).toBe('clarify');
    expect(intent('can you order me a pizza')).toBe('offtopic');
  });
});
