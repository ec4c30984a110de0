import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { lastStep } from './stub-stylist.ts';

// Review of round 22's rule declining things bought that are not clothes: clothing requests that
// name a toy, a pram, a bike or nappies as where, with what or after what the clothes are worn were
// declined too.

const DECLINED = /outside what I can help with/;
const notDeclined = async (message: string) => {
  expect(readMessage(message).intent, message).not.toBe('offtopic');
  const step = await lastStep(message);
  if (step.decision.kind === 'reply') expect(step.decision.text, message).not.toMatch(DECLINED);
};

describe('what the clothes are worn doing, or matched with', () => {
  it('"a waterproof for riding her scooter", "while pushing the pram" are no scooter or pram bought', async () => {
    for (const message of [
      'a waterproof for riding her scooter to school',
      'waterproofs for when he rides his bike, age 8',
      'layers for pushing the pram, size 14',
    ])
      await notDeclined(message);
  });

  it('"for the new pram", "4 the buggy": where they are worn, said with a word between or texted', async () => {
    for (const message of [
      'waterproofs for the new pram',
      'something 4 the pram',
      'layers for her electric scooter age 11',
    ])
      await notDeclined(message);
  });
});

describe('clothing named after a thing not bought', () => {
  it('swim nappies, nappy and diaper covers are worn', async () => {
    for (const message of [
      'swim nappies for my baby, 6-9 months',
      'reusable swim nappy size 2',
      'happy nappy swim nappy for the hotel pool',
      'a nappy cover 12-18m',
      'diaper covers 6-12 months',
    ])
      await notDeclined(message);
  });

  it('"bike gear", "scooter gear", "baby doll lingerie", "sleepwear" are clothes', async () => {
    for (const message of [
      'bike gear for my son age 10',
      'scooter gear for my 6yo, knee pads etc',
      'a baby doll lingerie set size 12',
      'sleepwear for my son, he has a new cot',
    ])
      await notDeclined(message);
  });

  it('jewellery, a watch or an umbrella with a theme or with a thing is asked about, not declined', async () => {
    for (const message of [
      'a lego necklace for my daughter age 8',
      'a toy story umbrella',
      'earrings and a perfume for my wife, under 40',
      'bandana bibs x3',
      'a kids umbrella with a dinosaur print',
    ])
      await notDeclined(message);
  });
});

describe('still declined', () => {
  it('the thing itself asked for, whatever its age, size or price', async () => {
    for (const message of [
      'a balance bike for her 3rd birthday',
      'nappies and wipes, size 5',
      'cloth nappies size 2',
      'a lego set for his 9th birthday, under 50',
      'looking for a new pram',
      'a kick scooter for a 5 year old',
      'i need a new stroller, lightweight',
      'a baby doll for my 3 year old',
    ]) {
      expect(readMessage(message).intent, message).toBe('offtopic');
      const step = await lastStep(message);
      expect(step.decision, message).toMatchObject({ kind: 'reply', text: expect.stringMatching(DECLINED) });
      expect(step.searches, message).toEqual([]);
    }
  });
});
