import type { Message, OfferSummary, RequestPurchaseResult, Role, SearchCommerceResult } from '@hs/contracts';
import type { ModelDecision, ModelInput } from './agent-model.ts';
import { purchaseSteps } from './style-reply.ts';

/** Roles the gateway lets raise a purchase request; a CHILD asks a parent instead. */
const MAY_REQUEST: ReadonlySet<Role> = new Set(['ADULT', 'PARENT_GUARDIAN']);

const ORDINALS: Array<[RegExp, (n: number) => number]> = [
  [/\b(?:first|1st|number one|#1)\b/, () => 0],
  [/\b(?:second|2nd|number two|#2)\b/, () => 1],
  [/\b(?:third|3rd|number three|#3)\b/, () => 2],
  [/\b(?:last|final)\b/, (n) => n - 1],
];

const words = (s: string) => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** The offers a model reply named, in the order it named them. */
function presentedIn(message: Message): OfferSummary[] {
  const offers = (message.tool_calls ?? [])
    .filter((c) => c.tool === 'search_commerce')
    .flatMap((c) => (c.result as SearchCommerceResult | undefined)?.items ?? []);
  const named = offers.filter((o) => o.title && message.content.includes(o.title));
  const unique = [...new Map(named.map((o) => [o.offerId, o])).values()];
  return unique.sort((a, b) => message.content.indexOf(a.title!) - message.content.indexOf(b.title!));
}

/**
 * The offer "buy it", "order the second one", "the cheapest one" or "buy the navy hoodie" means:
 * among the offers the latest reply with suggestions presented, the one the words single out,
 * else the first. None when nothing has been presented yet.
 */
export function chosenOffer(input: ModelInput): OfferSummary | undefined {
  const latest = [...input.history]
    .reverse()
    .filter((m) => m.role === 'model')
    .map(presentedIn)
    .find((offers) => offers.length > 0);
  if (!latest) return undefined;
  const text = input.userText.toLowerCase();
  if (/\bcheapest\b/.test(text))
    return [...latest].sort((a, b) => (a.price ?? Infinity) - (b.price ?? Infinity))[0];
  if (/\b(?:most expensive|priciest)\b/.test(text))
    return [...latest].sort((a, b) => (b.price ?? -Infinity) - (a.price ?? -Infinity))[0];
  for (const [pattern, index] of ORDINALS)
    if (pattern.test(text)) return latest[Math.min(index(latest.length), latest.length - 1)];
  const said = new Set(words(text));
  const score = (o: OfferSummary) => words(o.title ?? '').filter((w) => w.length > 2 && said.has(w)).length;
  const best = latest.reduce((a, b) => (score(b) > score(a) ? b : a));
  return best;
}

const tools = (offer: OfferSummary, size: string | undefined): ModelDecision => ({
  kind: 'tools',
  calls: [{ tool: 'request_purchase', args: { offerId: offer.offerId, ...(size ? { size } : {}) } }],
  reasoning: `Raising a purchase request for the ${offer.title ?? offer.offerId} for a parent or guardian to approve.`,
});

const AFTER_REQUEST =
  'A parent or guardian approves it in the app; then I can prepare the cart, and you confirm the checkout yourself with a one-time confirmation. I never buy, approve or confirm anything myself.';

/**
 * "buy it now": the stylist never buys. An ADULT or PARENT_GUARDIAN gets a purchase request for
 * the offer they mean (one per mission and offer, however often they ask) and the steps that
 * follow; a CHILD, or a message with nothing presented yet, gets the steps only.
 */
export function purchaseDecision(input: ModelInput): ModelDecision {
  const role = input.callerRole ?? null;
  const offer = chosenOffer(input);
  const outcome = input.steps.flat().find((o) => o.tool === 'request_purchase');
  if (!outcome) {
    if (offer && role && MAY_REQUEST.has(role)) {
      const sizes = input.brief?.sizes ?? [];
      return tools(offer, sizes.length === 1 ? sizes[0] : undefined);
    }
    return { kind: 'reply', text: purchaseSteps(role, offer?.title) };
  }
  if (!outcome.ok)
    return {
      kind: 'reply',
      text: `I couldn't raise a purchase request (${outcome.error.message}). ${purchaseSteps(role, offer?.title)}`,
    };
  const result = outcome.result as RequestPurchaseResult;
  if (result.outcome !== 'REQUESTED')
    return { kind: 'reply', text: `${result.message} ${purchaseSteps(role)}` };
  const price =
    offer?.price !== undefined ? ` (${offer.price}${offer.currency ? ` ${offer.currency}` : ''})` : '';
  return {
    kind: 'reply',
    text: `I've raised purchase request ${result.requestId} for the ${result.title}${price}; it is waiting for approval. ${AFTER_REQUEST}`,
  };
}
