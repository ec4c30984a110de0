import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { lastStep } from './stub-stylist.ts';

// Round 22: new families (grandparents, a parent typing on a phone, voice transcripts, Australian,
// Irish, Indian and Canadian English, corrections in a conversation, negations, sizes in every
// system, occasions, weather, budgets, requests outside clothing) and what the reader first misread.

const chat = lastStep;
const DECLINED = /outside what I can help with/;

describe('something bought that is not clothes', () => {
  it('"toys for a 3 year old", "nappies size 4", "a cheap flight" are declined, no search', async () => {
    for (const message of [
      'toys for a 3 year old',
      'order some nappies size 4',
      'find me a cheap flight to Spain',
      'can you recommend a good vacuum cleaner',
      'a new mattress for my son’s bed',
      'a phone case for my daughter, pink, under 10',
      'a scooter for my 6 year old',
      'can you book a hotel in paris',
      'my son needs a new phone, black, under 200',
    ]) {
      const step = await chat(message);
      expect(step.decision, message).toMatchObject({ kind: 'reply', text: expect.stringMatching(DECLINED) });
      expect(step.searches, message).toEqual([]);
      expect(readMessage(message).intent, message).toBe('offtopic');
    }
  });

  it('clothes said with them, a garment, a thing said no to or liked stay shopping', async () => {
    expect((await chat('toy story pyjamas age 4')).brief).toMatchObject({
      itemKinds: ['pajamas'],
      forAge: 4,
    });
    expect(readMessage('clothes and toys for a 3 year old').intent).toBe('search');
    expect(readMessage('a present for my niece age 6, no toys').intent).toBe('search');
    expect(readMessage('he loves lego, something for his birthday, age 7').intent).toBe('search');
    expect(readMessage('cycling shorts for the bike ride').kinds).toEqual(['shorts']);
    expect(readMessage('a hotel for the wedding and a dress size 12').kinds).toEqual(['dress']);
    // Where the clothes are worn is no thing bought.
    expect(readMessage('something warm for the pram').intent).toBe('search');
    expect(readMessage('something comfy for the flight, size 12').intent).toBe('search');
    expect(readMessage('we’re staying in a hotel so something smart, size 10').intent).toBe('search');
  });
});

describe('an age the child is going to be', () => {
  it('"she\'s going to be nine", "he\'s gonna turn 6" is the age the clothes are for', async () => {
    expect(
      (await chat("she's going to be nine and she needs a party dress er nothing too short")).brief,
    ).toEqual({
      itemKinds: ['dress'],
      categories: ['DRESS'],
      sizes: ['KIDS 9'],
      occasion: 'party',
      forAge: 9,
    });
    expect(readMessage("a coat for my son, he's gonna be 6 next month")).toMatchObject({
      sizes: ['KIDS 6'],
      forAge: 6,
    });
    expect(readMessage('shes going to be 8 in may, a dress').forAge).toBe(8);
    expect(readMessage('hes gonna turn 11, trainers size 5')).toMatchObject({ sizes: ['5'], forAge: 11 });
    expect(readMessage("they're going to be 4, matching pyjamas").sizes).toEqual(['KIDS 4']);
    // A time or a height is no age.
    expect(readMessage("he's going to be 10 minutes late, a coat").sizes).toEqual([]);
    expect(readMessage("she's going to be 5 foot 2, a dress").sizes).toEqual([]);
  });
});

describe('denim said as the cloth of the item before it', () => {
  it('"a skirt, something denim", "a skirt in denim" is a skirt, no jeans', async () => {
    expect(
      (await chat('okay so she wants a skirt um something denim in age eleven to twelve')).brief,
    ).toEqual({
      itemKinds: ['skirt'],
      categories: ['BOTTOM'],
      sizes: ['KIDS 11', 'KIDS 12'],
      forAge: 11,
    });
    expect(readMessage('a skirt in denim age 10').kinds).toEqual(['skirt']);
    expect(readMessage('a jacket for my son, something denim, age 8').kinds).toEqual(['jacket']);
    expect(readMessage('a jacket made of denim').kinds).toEqual(['jacket']);
    expect(parseConstraints('shorts in denim for summer').categories).toEqual(['BOTTOM']);
    // Denim as an item of its own is still jeans.
    expect(readMessage('a top and something denim').kinds).toEqual(['top', 'jeans']);
    expect(readMessage('something denim for my son age 9').kinds).toEqual(['jeans']);
  });
});

describe('two colours said no to, joined by "and"', () => {
  it('"she hates yellow and orange" says no to both', async () => {
    expect((await chat('a dress for my daughter age 9, she hates yellow and orange')).brief).toEqual({
      itemKinds: ['dress'],
      categories: ['DRESS'],
      sizes: ['KIDS 9'],
      excludedColors: ['yellow', 'orange'],
      forAge: 9,
    });
    expect(readMessage('no pink and purple please, a coat age 5')).toMatchObject({
      colors: [],
      excludedColors: ['pink', 'purple'],
    });
    expect(readMessage('she doesnt like green and brown, leggings age 6').excludedColors).toEqual([
      'green',
      'brown',
    ]);
    expect(parseConstraints('not red and black, a hoodie').colors ?? []).toEqual([]);
    // A colour with its own item after "and" is asked for; so is what follows "and a".
    expect(readMessage('no pink and blue trainers')).toMatchObject({
      colors: ['blue'],
      excludedColors: ['pink'],
    });
    expect(readMessage('nothing pink and a blue coat')).toMatchObject({
      colors: ['blue'],
      excludedColors: ['pink'],
    });
  });
});
