import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { lastStep } from './stub-stylist.ts';

// Round 27: grandparents and other relatives buying for children, voice transcripts with spoken
// numbers, adults shopping for themselves, formal events and non-native English. Most were read
// right; a family would notice the children's ages lost after "my grandchildren are", and a
// kids' label said before the garment ("3-4 years dungarees").

const chat = lastStep;

describe('children said together before "are", as a grandparent says them', () => {
  it('"my grandchildren are 4 and 7", "my grandsons are 6 and 8" are both ages', async () => {
    for (const [message, ages] of [
      ['my grandchildren are 4 and 7, matching pyjamas', [4, 7]],
      ['my grandkids are 5 and 9, raincoats', [5, 9]],
      ['my grandsons are 6 and 8, football shirts', [6, 8]],
      ['my granddaughters are 3 and 5, party dresses', [3, 5]],
      ['the grandchildren are 2 and 4, wellies', [2, 4]],
      ['my nephews are 10 and 12, hoodies', [10, 12]],
      ['my granddaughters are 5 to 6, matching dresses', [5, 6]],
    ] as const) {
      const { brief } = await chat(message);
      expect(brief.sizes, message).toEqual(ages.map((a) => `KIDS ${a}`));
      expect(brief.forAge, message).toBe(ages[0]);
      expect(parseConstraints(message).sizes, message).toEqual(ages.map((a) => `KIDS ${a}`));
    }
    // One grandchild with one age is one age, as before.
    expect((await chat('my grandchildren are 4, both need coats')).brief.forAge).toBe(4);
  });
});

describe("a kids' label said before the garment", () => {
  it('"3-4 years dungarees", "three to four years dungarees" ask for both kids\' sizes', async () => {
    for (const [message, sizes] of [
      ['3-4 years dungarees', ['KIDS 3', 'KIDS 4']],
      ['three to four years dungarees', ['KIDS 3', 'KIDS 4']],
      ['5 to 6 years pyjamas please', ['KIDS 5', 'KIDS 6']],
      ['um 7-8 yrs school trousers grey', ['KIDS 7', 'KIDS 8']],
    ] as const) {
      expect((await chat(message)).brief.sizes, message).toEqual(sizes);
      expect(readMessage(message).sizes, message).toEqual(sizes);
    }
    // A duration before the garment is no one's age.
    for (const message of [
      '2-3 years warranty coat',
      'lasts 3-4 years, a coat',
      'good for 2-3 years school coat',
    ])
      expect((await chat(message)).brief.sizes, message).toBeUndefined();
  });
});
