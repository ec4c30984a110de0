import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { lastStep } from './stub-stylist.ts';

// Second review of round 30 (c425893, c5bfccb), 217 messages against the reader before c425893. The
// return rule cleared the budget said in the same clause as the old size ("coat under 40 the 9-10
// was too short, need 10-11" lost its 40) and a child's age said bare ("coat for my son 8 the 9-10
// was too small" read a child of 10); "for both, 12 and 14" after "me and my mum" read children of
// 12 and 14; "free" after a baby's months was a shop term before anything ("hat 6 months free
// personalisation", "vests 6 months free 2 day delivery" lost their baby size).

describe('a return keeps what is not its old size', () => {
  it('keeps a budget said before the returned size', async () => {
    for (const [message, maxPrice, sizes] of [
      [
        'need a winter coat under 40 the one i got last year was too small, she needs age 9 now',
        40,
        ['KIDS 9'],
      ],
      ['jeans under 30 the 32 waist was too tight, need a 34', 30, ['34']],
      ['coat max 45 the 9-10 was too short, need 10-11', 45, ['KIDS 10', 'KIDS 11']],
      ['school shoes up to 40 the 12 pinched, need a 13', 40, ['13']],
      ['spend 50 max the 10 was too big need an 8', 50, ['8']],
    ] as const) {
      const r = readMessage(message);
      expect(r.price.maxPrice, message).toBe(maxPrice);
      expect(r.sizes, message).toEqual(sizes);
      const s = await lastStep(message);
      expect(s.brief.maxPrice, message).toBe(maxPrice);
    }
  });

  it("keeps a child's age said bare before the returned size", () => {
    expect(readMessage('coat for my son 8 the 9-10 was too small, need 10-11').forAge).toBe(8);
    expect(readMessage('coat for my son 8 the 9-10 was too big, need 7-8').forAge).toBe(8);
  });
});

describe('"for both" with grown-ups named', () => {
  it('reads no children from "dresses for me and my mum, for both, 12 and 14"', () => {
    expect(readMessage('dresses for me and my mum, for both, 12 and 14').sizes).toEqual([]);
    expect(readMessage('matching pyjamas for me and my sister, for both 10 and 12').sizes).toEqual([]);
    expect(readMessage('hoodies for both, 8 and 10').sizes).toEqual(['KIDS 8', 'KIDS 10']);
  });
});

describe('"free" after a baby\'s months', () => {
  it('is a term only before returns, a trial or credit', () => {
    for (const [message, sizes] of [
      ['hat 6 months free personalisation', ['6-9M']],
      ['vests 6 months free 2 day delivery', ['6-9M']],
      ['dungarees 18 months free name tags', ['18-24M']],
      ['vests 3 months free delivery', ['3-6M']],
      ['vests 6 months free returns', []],
    ] as const) {
      expect(readMessage(message).sizes, message).toEqual(sizes);
    }
  });
});
