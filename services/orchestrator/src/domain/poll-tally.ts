import type { MissionContext, Vote } from './mission.ts';

export type Standing = { offerId: string; title: string; likes: number; dislikes: number };

/** A member's latest vote on an offer replaces their earlier one: one member, one voice. */
export function recordVote(
  ctx: MissionContext,
  offerId: string,
  memberId: string,
  vote: Vote,
): MissionContext {
  return { ...ctx, votes: { ...ctx.votes, [offerId]: { ...ctx.votes[offerId], [memberId]: vote } } };
}

/** Candidates ordered by net approval (likes minus dislikes), then likes, then proposal order. */
export function standings(ctx: MissionContext): Standing[] {
  const rows = ctx.candidates.map((offer, index) => {
    const votes = Object.values(ctx.votes[offer.offerId] ?? {});
    return {
      offerId: offer.offerId,
      title: offer.title ?? offer.offerId,
      likes: votes.filter((v) => v === 'like').length,
      dislikes: votes.filter((v) => v === 'dislike').length,
      index,
    };
  });
  rows.sort(
    (a, b) => b.likes - b.dislikes - (a.likes - a.dislikes) || b.likes - a.likes || a.index - b.index,
  );
  return rows.map(({ index: _index, ...row }) => row);
}

/** The leader, when someone voted for it and it is strictly ahead of the next. */
export function winner(ctx: MissionContext): Standing | null {
  const [first, second] = standings(ctx);
  if (!first || first.likes === 0) return null;
  const net = (s: Standing) => s.likes - s.dislikes;
  if (second && net(second) === net(first) && second.likes === first.likes) return null;
  return first;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function describeStandings(ctx: MissionContext): string {
  const rows = standings(ctx);
  if (rows.length === 0) return 'There are no candidates to vote on yet.';
  const lead = winner(ctx);
  const parts = rows.map((r) =>
    r.likes + r.dislikes === 0
      ? `${r.title}: no votes yet`
      : `${r.title}: ${plural(r.likes, 'like')}, ${plural(r.dislikes, 'dislike')}${lead?.offerId === r.offerId ? ' (leading)' : ''}`,
  );
  return `Standing: ${parts.join('; ')}.${lead ? '' : ' No clear favourite yet.'}`;
}
