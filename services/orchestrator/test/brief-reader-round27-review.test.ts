import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { lastStep } from './stub-stylist.ts';

// Review of round 27 (an age in years is no price, "coming up to" an age, "my son's 7", "my
// grandkids are 4 and 7", two shoe sizes before a colour or brand): messages close to those rules
// that a family would see misread (money said after "coming up to", a length, a time or a
// distance taken for an age, a count or a shoe size after "my son's", a count of pairs or a size
// taken back after two shoe sizes), and the near misses that must stay as they were.

const chat = lastStep;

describe('money said after "coming up to" is still a budget', () => {
  it('"coming up to 16 quid", "coming up to 10 euros" set the ceiling', async () => {
    for (const [message, max, currency] of [
      ['coming up to 16 quid, a hat', 16, 'GBP'],
      ['coming up to 15 pounds for a scarf', 15, 'GBP'],
      ['coming up to 10 euros, socks', 10, 'EUR'],
      ['coming up to 12 dollars for a cap', 12, 'USD'],
      ['coming up to 17 quid with delivery, a belt', 17, 'GBP'],
    ] as const) {
      const { brief } = await chat(message);
      expect([brief.maxPrice, brief.currency], message).toEqual([max, currency]);
      expect(parseConstraints(message).maxPrice, message).toBe(max);
    }
    // An age coming, said with no money, is still no ceiling.
    const grandson = await chat("my grandson's coming up to 4, wellies under 20");
    expect([grandson.brief.forAge, grandson.brief.maxPrice]).toEqual([4, 20]);
    expect((await chat('coming up to 3, wellies')).brief.maxPrice).toBeUndefined();
    expect(parseConstraints("my daughter's coming up to 5, school shoes").maxPrice).toBeUndefined();
  });
});

describe('a length, a time or a distance is no age', () => {
  it('"he\'s 4 inches taller", "my grandkids are 4 hours away" give no age or kids\' size', async () => {
    for (const message of [
      "he's 4 or 5 inches taller now, trousers",
      "he's 4 inches taller, jeans",
      "she's 3 or 4 cm longer now, leggings",
      "she's 2 hours away, a dress",
      "he's 10 minutes from school, coat",
      'my grandkids are 4 hours away, hoodies',
      'my grandsons are 2 miles away, coats',
      'my kids are 4 and 7 hours away, hoodies',
      'my daughters are 5 and 7 minutes apart, twins dresses',
    ]) {
      const { brief } = await chat(message);
      expect(brief.forAge, message).toBeUndefined();
      expect(brief.sizes, message).toBeUndefined();
      expect(parseConstraints(message).sizes, message).toBeUndefined();
    }
    // Ages said the same way still are.
    expect((await chat('my grandkids are 4 and 7, matching pyjamas')).brief.sizes).toEqual([
      'KIDS 4',
      'KIDS 7',
    ]);
    expect((await chat("he's 4, trousers")).brief.forAge).toBe(4);
    expect((await chat("my son's 14 in april, a suit")).brief.forAge).toBe(14);
    expect((await chat("she's 6 weeks, vests")).brief.sizes).toEqual(['0-3M']);
  });
});

describe('"my son\'s" before a count or a shoe size is no age', () => {
  it('"my son\'s 6 or 7 pairs of socks", "my son\'s 7 in shoes" give no age', async () => {
    for (const message of [
      "my son's 6 or 7 pairs of socks have holes",
      "my son's 7 in shoes, trainers",
      "my son's 12 and a half shoe size, trainers",
      'my son 2 or 3 hoodies need replacing',
    ]) {
      expect(readMessage(message).forAge, message).toBeUndefined();
      expect((await chat(message)).brief.sizes ?? [], message).not.toContainEqual(
        expect.stringMatching(/^KIDS/),
      );
    }
    // The child's age, said the same way, still is.
    for (const [message, age] of [
      ["my son's 7 or 8, a coat", 7],
      ["my grandson's 6 and a half, pyjamas", 6],
      ["my son's 7 and needs school shoes", 7],
      ["she's 4 and a half, shoes", 4],
    ] as const)
      expect((await chat(message)).brief.forAge, message).toBe(age);
  });
});

describe('two shoe sizes before a colour or a brand', () => {
  it('"trainers 4 or 5 black pairs", "4 or 5 nike options", "sorry I meant 6" are no two sizes', async () => {
    for (const message of [
      'trainers 4 or 5 black pairs',
      'trainers 4 or 5 nike options',
      'trainers 4 or 5 white styles please',
      'trainers 4 or 5 sorry I meant 6',
      'school shoes 4 or 5 sorry i mean 6',
    ]) {
      const { brief } = await chat(message);
      expect(brief.sizes ?? [], message).not.toContain('4');
      expect(parseConstraints(message).sizes ?? [], message).not.toContain('4');
    }
    // The sizes before a colour, a brand or an apology still are both.
    for (const message of [
      'trainers 4 or 5 black',
      'trainers 4 or 5 nike',
      'school shoes 4 or 5 sorry',
      'trainers 4 or 5 red ones',
      'boots 4/5 black leather',
    ])
      expect((await chat(message)).brief.sizes, message).toEqual(['4', '5']);
  });
});
