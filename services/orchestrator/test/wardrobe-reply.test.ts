// The stub stylist's answer to "what's in our wardrobe": counts in words a family reads, the
// members' labels without hidden characters, and no exact count it cannot know.
import { describe, expect, it } from 'vitest';
import { wardrobeReply } from '../src/domain/style-reply.ts';

const listed = (items: Array<{ category: string; brand?: string; colors?: string[] }>) => ({
  ok: true as const,
  tool: 'list_wardrobe' as const,
  args: {},
  result: { items: items.map((i, n) => ({ itemId: `it_${n}`, ...i })), count: items.length },
});

describe('the wardrobe reply', () => {
  it('counts each category in words, singular and plural', () => {
    const reply = wardrobeReply(
      listed([
        { category: 'TOP' },
        { category: 'TOP' },
        { category: 'SHOES' },
        { category: 'DRESS', brand: 'Flora' },
      ]),
    );
    expect(reply).toContain('has 4 items: 2 tops; 1 pair of shoes; 1 dress (Flora)');
  });

  it('shows labels without hidden characters', () => {
    const reply = wardrobeReply(
      listed([{ category: 'TOP', brand: 'Acme\u202e\u0000\u{e0041}', colors: ['navy'] }]),
    );
    expect(reply).toContain('1 top (navy Acme)');
  });

  it('says "at least" when the list it got was cut at 50', () => {
    const reply = wardrobeReply(listed(Array.from({ length: 50 }, () => ({ category: 'TOP' }))));
    expect(reply).toContain('at least 50 items');
  });
});
