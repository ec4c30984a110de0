import { describe, expect, it } from 'vitest';
import { lastStep } from './stub-stylist.ts';

// Round 24: voice-client transcripts (no punctuation, numbers spelled out, fillers, corrections
// mid-sentence) and texted messages (emoji, slang, "4" for "for", sizes as "sz").

const chat = lastStep;

describe('a colour corrected with a bare "no" as dictated', () => {
  it('"a red no a blue dress" is a blue dress, not red with blue and dresses said no to', async () => {
    expect((await chat('i want a red no a blue dress size twelve')).brief).toEqual({
      itemKinds: ['dress'],
      categories: ['DRESS'],
      sizes: ['12'],
      colors: ['blue'],
    });
    expect((await chat('like maybe a pink no purple hoodie for my girl')).brief).toMatchObject({
      itemKinds: ['hoodie'],
      colors: ['purple'],
    });
    expect((await chat('an orange, no a yellow raincoat')).brief).toMatchObject({
      itemKinds: ['raincoat'],
      colors: ['yellow'],
    });
    // Said after the colour's item, a bare "no" still says no: "a black dress no red".
    expect((await chat('a black dress no red')).brief).toMatchObject({
      colors: ['black'],
      excludedColors: ['red'],
    });
  });

  it('"a green coat no actually a grey coat": the item said again with the new colour', async () => {
    expect((await chat('a green coat no actually a grey coat for me')).brief).toEqual({
      itemKinds: ['coat'],
      categories: ['OUTERWEAR'],
      colors: ['grey'],
    });
    expect((await chat('i want a red dress no a blue dress')).brief).toEqual({
      itemKinds: ['dress'],
      categories: ['DRESS'],
      colors: ['blue'],
    });
    expect((await chat('a black jumper sorry a navy jumper')).brief.colors).toEqual(['navy']);
    // Without the article, "no blue dress" still says no to blue.
    expect((await chat('a red dress no blue dress')).brief).toMatchObject({
      colors: ['red'],
      excludedColors: ['blue'],
    });
  });
});

describe('"4" texted for "for"', () => {
  it('"trainers 4 my daughter sz 1" is size 1 alone, not sizes 1 and 4', async () => {
    const step = await chat('trainers 4 my daughter sz 1 😊');
    expect(step.brief).toEqual({ itemKinds: ['sneakers'], categories: ['SHOES'], sizes: ['1'] });
    expect(step.searches).toEqual([{ query: 'sneakers', size: '1' }]);
    expect((await chat('wellies 4 my lil 1 sz 9')).brief.sizes).toEqual(['9']);
    expect((await chat('school shoes 4 my son sz 11 pls')).brief.sizes).toEqual(['11']);
    expect((await chat('trainers 4 the kids')).brief.sizes).toBeUndefined();
    expect((await chat('trainers 4 her')).brief.sizes).toBeUndefined();
    // A 4 after a size, an age or an article is still the figure.
    expect((await chat('trainers size 4 my son wears')).brief.sizes).toEqual(['4']);
    expect((await chat('trainers in a 4 my son')).brief.sizes).toEqual(['4']);
    expect((await chat('trainers 4')).brief.sizes).toEqual(['4']);
    expect((await chat('shoes age 4 my son')).brief).toMatchObject({ forAge: 4 });
  });
});
