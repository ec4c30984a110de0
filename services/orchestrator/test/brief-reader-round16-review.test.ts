import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { APPROVAL_REPLY, CHILD_SAFETY_REFUSAL } from '../src/domain/style-reply.ts';
import { lastStep } from './stub-stylist.ts';

// Review of round 16: ordinary requests the new rules first misread.

const chat = lastStep;

describe('an adult’s own look, children only mentioned', () => {
  it('is shopping, not the child-safety refusal', async () => {
    const { decision, searches } = await chat('a sexy dress for date night, the kids are at grandma’s');
    expect(decision.kind).toBe('tools');
    expect(searches.map((s) => s.query)).toEqual(['dress']);
    for (const text of [
      'something sultry for me, mum of 3 kids',
      'a sexy dress for my 30th birthday, no kids allowed',
      'sexy red dress size 12 for the christmas party, child-free at last',
      'a sexy dress for when the kids are asleep',
      'a sexy dress for a 40 year old',
    ])
      expect(readMessage(text).intent, text).not.toBe('refuse');
    // A look for a child is still refused.
    expect((await chat('a sexy dress for my toddler')).decision).toMatchObject({
      text: CHILD_SAFETY_REFUSAL,
    });
    for (const text of ['sexy clothes for kids', 'make my little girl look sexy', 'a sexy top for my 12yo'])
      expect(readMessage(text).intent, text).toBe('refuse');
  });
});

describe('a school’s approval', () => {
  it('is a uniform rule to shop by, not a purchase request', async () => {
    const { searches } = await chat('find me shoes that have been approved by the school');
    expect(searches).toHaveLength(1);
    for (const text of [
      'has to be approved for school uniform',
      'school approved shoes, the ones the school has approved',
      'has the school approved these trainers for pe',
      'is this blazer approved for school',
    ])
      expect(readMessage(text).intent, text).not.toBe('offtopic');
    expect(readMessage('has my mum approved the trainers yet').intent).toBe('offtopic');
  });
});

describe('"cost" as a cost', () => {
  it('is no coat', () => {
    expect(readMessage('the school cost is crazy, need a blazer under 40').kinds).toEqual(['blazer']);
    expect(readMessage('how much will the dress cost').kinds).toEqual(['dress']);
    expect(readMessage('dress cost for a wedding under 80').kinds).toEqual(['dress']);
    expect(readMessage('a winter cost').kinds).toEqual(['coat']);
  });
});

describe('a tie’s figure beside a shirt or a coat', () => {
  it('"a shirt 39 and a tie 20" prices each; a lone tie figure is not the coat’s price', async () => {
    expect((await chat('a shirt 39 and a tie 20')).searches.map((s) => [s.query, s.maxPrice])).toEqual([
      ['shirt', 39],
      ['tie', 20],
    ]);
    expect((await chat('a coat and a scarf 15')).searches.map((s) => [s.query, s.maxPrice])).toEqual([
      ['coat', undefined],
      ['scarf', undefined],
    ]);
    expect((await chat('a shirt 40 and a tie 20')).brief.maxPrice).toBeUndefined();
    expect(readMessage('a tie 20').price.maxPrice).toBe(20);
  });
});

describe('a sibling’s age said alone', () => {
  it('"her sister is 8" adds her size beside the first child’s', async () => {
    expect((await chat('a pink dress for my daughter she’s 5', 'her sister is 8')).brief.sizes).toEqual([
      'KIDS 5',
      'KIDS 8',
    ]);
    // A correction still replaces.
    expect(
      (await chat('a dress for my daughter she’s 5', 'sorry her sister is 8, it’s for her')).brief.sizes,
    ).toEqual(['KIDS 8']);
  });
});

describe('a declined card', () => {
  it('is no approval', async () => {
    const { decision } = await chat('why was my card declined');
    expect(decision).not.toMatchObject({ text: APPROVAL_REPLY });
    expect(readMessage('why was my card declined').intent).toBe('offtopic');
  });
});

describe('the school run', () => {
  it('"drop the kids at school" excludes nothing and keeps the occasion', async () => {
    const { brief } = await chat('need a warm coat to drop the kids at school in');
    expect(brief).toMatchObject({ itemKinds: ['coat'], occasion: 'school' });
    expect((await chat('a coat and shoes for school', 'drop the shoes')).brief.itemKinds).toEqual(['coat']);
  });
});
