import { describe, expect, it } from 'vitest';
import { type HouseholdPerson, memberMentioned } from '../src/domain/brief/for-member.ts';

const emma: HouseholdPerson = { memberId: 'u_emma', displayName: 'Emma Stone', role: 'CHILD' };
const leo: HouseholdPerson = { memberId: 'u_leo', displayName: 'Leo', role: 'ADULT' };
const summer: HouseholdPerson = { memberId: 'u_summer', displayName: 'Summer', role: 'PARENT_GUARDIAN' };
const noName: HouseholdPerson = { memberId: 'u_x', displayName: null, role: 'PARENT_GUARDIAN' };

describe('who the shopping is for', () => {
  it('finds a member by first name, typed or dictated, and by possessive', () => {
    expect(memberMentioned('a rain jacket for emma under 60', [emma, leo])).toBe('u_emma');
    expect(memberMentioned("Emma's school shoes are too small", [emma, leo])).toBe('u_emma');
    expect(memberMentioned('hoodie for Leo size M', [emma, leo])).toBe('u_leo');
  });

  it('reads "my son / daughter / kid" as the only child of the household', () => {
    expect(memberMentioned('boots for my daughter', [emma, leo, noName])).toBe('u_emma');
    expect(memberMentioned('boots for my kid', [leo, noName])).toBeUndefined();
    const twoChildren = [emma, { ...leo, role: 'CHILD' as const }];
    expect(memberMentioned('boots for my kid', twoChildren)).toBeUndefined();
  });

  it('does not take a shopping word for a name, or guess between two names', () => {
    expect(memberMentioned('a dress for summer', [summer, emma])).toBeUndefined();
    expect(memberMentioned('a dress for Summer', [summer, emma])).toBe('u_summer');
    expect(memberMentioned('jackets for emma and leo', [emma, leo])).toBeUndefined();
    expect(memberMentioned('emmanuel style jeans', [emma])).toBeUndefined();
  });
});
