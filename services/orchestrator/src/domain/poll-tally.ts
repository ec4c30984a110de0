import type { MissionContext, Vote } from './mission.ts';

export type Standing = { offerId: string; title: string; likes: number; dislikes: number };

/**
 * Distinct offers a mission without candidates keeps votes for. The votes live in the mission
 * document, which every vote, turn and read rewrites or loads whole; a household likes a few dozen
 * offers at most, so 500 is far beyond use and keeps that document small.
 */
export const MAX_VOTED_OFFERS = 500;

/**
 * Why a vote on `offerId` can't be kept, or null. While the mission has candidates (a POLL that
 * proposed its offers) the vote is on one of them: those are what members see and what the
 * standing counts. Otherwise a vote on an offer already voted on is always kept (a member may
 * change their mind), and a new offer only while fewer than MAX_VOTED_OFFERS have votes.
 */
export function voteRefusal(ctx: MissionContext, offerId: string): string | null {
  if (ctx.candidates.length > 0)
    return ctx.candidates.some((c) => c.offerId === offerId)
      ? null
      : `Offer ${offerId} is not among this mission's candidates; vote on the offers it proposed`;
  if (ctx.votes[offerId] || Object.keys(ctx.votes).length < MAX_VOTED_OFFERS) return null;
  return `This mission already has votes on ${MAX_VOTED_OFFERS} offers, the most it keeps`;
}

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
