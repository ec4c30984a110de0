import type { Role } from '@hs/contracts';

/** A household member as the stylist may name them: "for Emma", "Emma's", "for my son". */
export type HouseholdPerson = { memberId: string; displayName: string | null; role: Role };

const CHILD_WORDS =
  /\bfor (?:my |our |the )?(?:son|daughter|kid|kiddo|child|boy|girl|little one|teen|teenager|youngest|eldest|oldest)\b/;
/** Names that are also words people shop with ("for summer", "ruby red"): only a capitalised mention counts. */
const COMMON_WORDS = new Set([
  'summer',
  'winter',
  'spring',
  'autumn',
  'ruby',
  'rose',
  'olive',
  'ivy',
  'jade',
  'amber',
  'hazel',
  'coral',
  'sky',
  'june',
  'may',
  'april',
  'august',
  'will',
]);

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Who the message says the shopping is for, among the household's members: a member named
 * ("for Emma", "Emma's coat", in any case unless the name is also an everyday word), or "my son /
 * daughter / kid" when the household has exactly one CHILD. Undefined when nobody is singled out.
 */
export function memberMentioned(text: string, members: readonly HouseholdPerson[]): string | undefined {
  const named = members.flatMap((m) => {
    const first = m.displayName?.trim().split(/\s+/)[0];
    if (!first || first.length < 2) return [];
    const flags = COMMON_WORDS.has(first.toLowerCase()) ? 'u' : 'iu';
    const name = literal(first);
    if (!new RegExp(`\\b${name}\\b`, flags).test(text)) return [];
    const forThem = new RegExp(`\\b(?:for|to|fits?) ${name}\\b|\\b${name}['’]s\\b`, flags).test(text);
    return [{ memberId: m.memberId, forThem }];
  });
  // Two people named ("for emma and leo"): not one member's brief.
  if (named.length > 1) return undefined;
  if (named.length === 1) return named[0]!.forThem ? named[0]!.memberId : undefined;
  if (CHILD_WORDS.test(text.toLowerCase())) {
    const children = members.filter((m) => m.role === 'CHILD');
    if (children.length === 1) return children[0]!.memberId;
  }
  return undefined;
}
