import type {
  BrowserSessionSummary,
  CheckCartResult,
  MissionType,
  OfferSummary,
  PrepareCartResult,
  SearchCommerceResult,
} from '@hs/contracts';
import type { ToolOutcome } from './agent-model.ts';
import { parseConstraints } from './constraint-parser.ts';
import type { MissionContext } from './mission.ts';
import { standings, winner } from './poll-tally.ts';

const POLL_SIZE = 4;
const slim = (o: OfferSummary): OfferSummary => ({
  offerId: o.offerId,
  ...(o.title !== undefined ? { title: o.title } : {}),
  ...(o.price !== undefined ? { price: o.price } : {}),
  ...(o.currency !== undefined ? { currency: o.currency } : {}),
});
const named = (o: OfferSummary) => o.title ?? o.offerId;

/**
 * What a finished turn changes in the agent's memory: constraints the user stated, poll
 * candidates, opened sessions, carts being prepared or failed, and the results and decisions
 * the outcome summary reports.
 * Applied to the mission as stored at the end of the turn, so votes cast meanwhile are kept.
 */
export function applyTurn(
  ctx: MissionContext,
  missionType: MissionType,
  userText: string,
  calls: ToolOutcome[],
): MissionContext {
  const next: MissionContext = {
    ...ctx,
    constraints: { ...ctx.constraints, ...parseConstraints(userText) },
    resultItems: [...ctx.resultItems],
    keyDecisions: [...ctx.keyDecisions],
    sessions: [...ctx.sessions],
  };
  const preparing = new Set(ctx.cartsPreparing ?? []);
  const failed = new Set(ctx.cartsFailed ?? []);
  const seen = new Set(next.resultItems.map((r) => r.offerId).filter(Boolean));
  for (const call of calls) {
    if (!call.ok) continue;
    if (call.tool === 'search_commerce') {
      const offers = (call.result as SearchCommerceResult).items;
      if (missionType === 'POLL') {
        if (offers.length === 0) continue;
        next.candidates = offers.slice(0, POLL_SIZE).map(slim);
        next.keyDecisions.push(`Proposed for a vote: ${next.candidates.map(named).join(', ')}`);
      } else {
        const fresh = offers.slice(0, 5).filter((o) => !seen.has(o.offerId));
        for (const o of fresh) {
          seen.add(o.offerId);
          next.resultItems.push({ kind: 'offer', ...slim(o) });
        }
        if (fresh.length > 0) next.keyDecisions.push(`Suggested offers: ${fresh.map(named).join(', ')}`);
      }
    } else if (call.tool === 'create_browser_session') {
      const s = call.result as BrowserSessionSummary;
      next.sessions.push({
        sessionId: s.sessionId,
        startUrl: s.startUrl ?? null,
        liveViewUrl: s.liveViewUrl ?? null,
      });
      next.resultItems.push({
        kind: 'browser_session',
        sessionId: s.sessionId,
        startUrl: s.startUrl ?? null,
      });
      next.keyDecisions.push(`Opened browser session ${s.sessionId}`);
    } else if (call.tool === 'prepare_cart') {
      const r = call.result as PrepareCartResult;
      next.resultItems.push({
        kind: 'cart_preparation',
        requestId: r.requestId,
        outcome: r.outcome,
        cartprepJobId: r.cartprepJobId,
      });
      next.keyDecisions.push(r.message);
      if (r.outcome === 'DISPATCHED') {
        preparing.add(r.requestId);
        failed.delete(r.requestId);
      }
    } else if (call.tool === 'check_cart') {
      const r = call.result as CheckCartResult;
      // Watched until it settles: a settled cart is reported once, not at every turn.
      if (r.outcome === 'PREPARING') continue;
      preparing.delete(r.requestId);
      if (r.outcome === 'FAILED') failed.add(r.requestId);
      else failed.delete(r.requestId);
      if (r.outcome === 'READY' && r.cart)
        next.resultItems.push({
          kind: 'cart',
          requestId: r.requestId,
          subtotal: r.cart.subtotal,
          currency: r.cart.currency,
          merchantDomain: r.cart.merchantDomain,
        });
      next.keyDecisions.push(r.message);
    }
  }
  next.cartsPreparing = [...preparing];
  next.cartsFailed = [...failed];
  return next;
}

/** The outcome summary's decisions and results; a POLL adds its winner and the final tally. */
export function outcomeOf(missionType: MissionType, ctx: MissionContext) {
  if (missionType !== 'POLL') return { keyDecisions: ctx.keyDecisions, resultItems: ctx.resultItems };
  const w = winner(ctx);
  return {
    keyDecisions: [
      ...ctx.keyDecisions,
      w
        ? `Winner: ${w.title} (${w.offerId}) with ${w.likes} likes and ${w.dislikes} dislikes`
        : 'No clear winner',
    ],
    resultItems: standings(ctx).map((s) => ({
      kind: 'poll_candidate',
      ...s,
      winner: s.offerId === w?.offerId,
    })),
  };
}
