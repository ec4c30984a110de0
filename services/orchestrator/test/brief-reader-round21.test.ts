import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/domain/brief/read-message.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { lastStep } from './stub-stylist.ts';

// Round 21: new families (American parents, a teenager texting, non-native English, bulleted
// lists, school and sports kit, events with dates, colour families, sizes in many systems) and
// what the reader first misread.

const chat = lastStep;
const BRIGHT = ['red', 'yellow', 'orange', 'pink', 'green', 'blue'];

describe('a size with its European size in brackets, no "EU" said', () => {
  it('"trainers size 6 (39)" is size 6 and EU 39', async () => {
    expect((await chat('trainers size 6 (39)')).brief.sizes).toEqual(['EU 39', '6']);
    expect(readMessage('boots size 13 (32) for my son').sizes).toEqual(['EU 32', '13']);
    expect(readMessage('boots, size 11 (29), for my little one').sizes).toEqual(['EU 29', '11']);
    expect(parseConstraints('a dress size 10 (38)').sizes).toEqual(['EU 38', '10']);
    // A figure in brackets that no European size can be, or smaller, stays unread; money is money.
    expect(readMessage('a dress size 10 (12)').sizes).toEqual(['10']);
    expect(readMessage('trainers under 40 (45 with delivery)').sizes).toEqual([]);
  });
});

describe('children with their age in brackets', () => {
  it('"pyjamas for the twins (4)" is for four-year-olds', async () => {
    expect((await chat('pyjamas for the twins (4)')).brief).toEqual({
      itemKinds: ['pajamas'],
      categories: ['OTHER'],
      sizes: ['KIDS 4'],
      forAge: 4,
    });
    expect(readMessage('3 t-shirts under 10 each for the twins (6)')).toMatchObject({
      sizes: ['KIDS 6'],
      forAge: 6,
      price: { maxPrice: 10 },
    });
    expect(readMessage('hats for the kids (4yo)').sizes).toEqual(['KIDS 4']);
  });
});

describe('a kids range with its apostrophe', () => {
  it('"boys\' 8" is kids 8, as "boys 8" is', () => {
    expect(readMessage("khaki pants for my boy, boys' 8, $25 or less")).toMatchObject({
      sizes: ['KIDS 8'],
      forAge: 8,
      price: { maxPrice: 25, currency: 'USD' },
    });
    expect(readMessage('jeans girls’ 10').sizes).toEqual(['KIDS 10']);
  });
});

describe('brightness said no to with no colour after it', () => {
  it('"hates anything bright", "not too bright", "except neon" say no to the bright colours', async () => {
    expect((await chat('she hates anything bright, a jumper')).brief).toEqual({
      itemKinds: ['sweater'],
      categories: ['TOP'],
      excludedColors: BRIGHT,
    });
    expect(readMessage('leggings, not too bright, age 5').excludedColors).toEqual(BRIGHT);
    expect(readMessage('any colour except neon, hoodie for my son age 10').excludedColors).toEqual(BRIGHT);
    expect(readMessage('nothing neon please, a swimsuit').excludedColors).toEqual(BRIGHT);
    // A bright shade said no to is that colour; "no bright lights" is no colour.
    expect(readMessage('a dress, not bright pink').excludedColors).toEqual(['pink']);
    expect(readMessage('a dress, nothing neon green').excludedColors).toEqual(['green']);
    expect(readMessage('trainers with no bright lights').excludedColors).toEqual([]);
  });
});

describe('a pair of US toddler sizes', () => {
  it('"size 2-3T" is kids 2 and kids 3, no size 2', () => {
    expect(readMessage('size 2-3T pyjamas').sizes).toEqual(['KIDS 2', 'KIDS 3']);
    expect(parseConstraints('a onesie size 2-3T for halloween').sizes).toEqual(['KIDS 2', 'KIDS 3']);
    expect(readMessage('a 3/4t jacket').sizes).toEqual(['KIDS 3', 'KIDS 4']);
  });
});

describe('a pair of sizes after its system', () => {
  it('"EU 28/29", "eu 28-29" are both EU sizes, no waist 28', () => {
    expect(readMessage('EU 28/29 sandals for my toddler').sizes).toEqual(['EU 28', 'EU 29']);
    expect(readMessage('sandals eu 28-29').sizes).toEqual(['EU 28', 'EU 29']);
    expect(readMessage('shoes uk 5-5.5').sizes).toEqual(['UK 5', 'UK 5.5']);
    // A women's pair two apart stays as before; a waist and leg is still the waist.
    expect(readMessage('uk 10-12 dress').sizes).toEqual(['UK 10']);
    expect(readMessage('jeans 32/30').sizes).toEqual(['32']);
  });
});

describe('a pair of neighbouring letter sizes', () => {
  it('"XS-S", "s-m", "m/l" are both letters', () => {
    expect(readMessage('a jacket XS-S for my teenage daughter').sizes).toEqual(['XS', 'S']);
    expect(readMessage('jacket size s-m').sizes).toEqual(['S', 'M']);
    expect(readMessage('hoodie m/l').sizes).toEqual(['M', 'L']);
    expect(readMessage('hoodie l-xl').sizes).toEqual(['L', 'XL']);
    // Not neighbours, or a shop's name: none.
    expect(readMessage('t-shirt s/s').sizes).toEqual([]);
    expect(readMessage('m&s jumper').sizes).toEqual([]);
  });
});

describe('a pair of ages with a slash', () => {
  it('"girls 7/8", "age 7/8" are kids 7 and 8', () => {
    expect(readMessage('a dressy outfit for easter sunday, girls 7/8').sizes).toEqual(['KIDS 7', 'KIDS 8']);
    expect(readMessage('a dress age 7/8')).toMatchObject({ sizes: ['KIDS 7', 'KIDS 8'], forAge: 7 });
    // "3/4 length", "3/4 sleeves" are no ages.
    expect(readMessage('my son 3/4 length trousers').sizes).toEqual(['KIDS 3']);
    expect(readMessage('a top with 3/4 sleeves for my daughter age 8').sizes).toEqual(['KIDS 8']);
  });
});

describe('American and sports words for items', () => {
  it('cleats, swimming trunks, a tutu, a soccer jersey', async () => {
    expect((await chat('cleats for soccer size 3 youth, black')).brief).toMatchObject({
      itemKinds: ['boots'],
      sizes: ['KIDS 3'],
      colors: ['black'],
      occasion: 'sport',
    });
    expect(readMessage('swimming trunks for my son aged 6').kinds).toEqual(['swimsuit']);
    expect(readMessage('swimming shorts for the beach').kinds).toEqual(['swimsuit']);
    expect(readMessage('she needs a tutu, age 5').kinds).toEqual(['skirt']);
    expect(readMessage('a youth small soccer jersey').kinds).toEqual(['shirt']);
    // "jersey" alone is a cloth; "clears" stays a word.
    expect(readMessage('a jersey dress').kinds).toEqual(['dress']);
    expect(readMessage('clears up by friday, a coat').kinds).toEqual(['coat']);
  });
});

describe('a school disco', () => {
  it('"the school disco", "a school dance" are parties, not school', () => {
    expect(readMessage('an outfit for the school disco on friday, she’s 9, sparkly')).toMatchObject({
      occasion: 'party',
      forAge: 9,
    });
    expect(parseConstraints('a dress for the school dance').occasion).toBe('party');
    expect(readMessage('school shoes size 13').occasion).toBe('school');
  });
});
