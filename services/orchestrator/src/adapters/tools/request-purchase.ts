// Reads the offer from commerce (title, merchant URL and price come from the catalogue, never
// from the model) and raises a purchase request for it through the gateway
// (adapters/tools/purchase-request.ts). A parent approves it; the tool never buys.
import { Offer, RequestPurchaseArgs, RequestPurchaseResult } from '@hs/contracts';
import { isAppError } from '@hs/service-kit';
import { createPurchaseRequest, type RequestRead } from './purchase-request.ts';
import { householdPath, peerCall, type ToolContext, type ToolDefinition } from './tool-context.ts';

const OfferRead = Offer.pick({
  offerId: true,
  title: true,
  url: true,
  price: true,
  currency: true,
  status: true,
});

async function readOffer(ctx: ToolContext, offerId: string) {
  try {
    const read = await ctx.peers.commerce.call({
      method: 'GET',
      path: `${householdPath(ctx)}/offers/${encodeURIComponent(offerId)}`,
      schema: OfferRead,
      ...peerCall(ctx),
    });
    return read.body;
  } catch (err) {
    if (isAppError(err) && err.status === 404) return null;
    throw err;
  }
}

/** Where a request stands, as the family reads it. */
const STANDING: Record<RequestRead['status'], string> = {
  PENDING_APPROVAL: 'is waiting for a parent or guardian to approve it',
  APPROVED: 'is approved: the cart can be prepared, and you confirm the checkout yourself in the app',
  CART_PREP: 'is approved and its cart is being prepared',
  CART_READY: 'has its cart ready: confirm the checkout yourself in the app',
  COMPLETED: 'is already bought',
  REJECTED: 'was declined by a parent or guardian',
  CANCELLED: 'was cancelled',
};

export const requestPurchase: ToolDefinition<typeof RequestPurchaseArgs, typeof RequestPurchaseResult> = {
  name: 'request_purchase',
  description:
    "Raises a purchase request for one offer the user chose (offerId from search_commerce; size if they gave one), as the user, for a parent or guardian to approve. Only ADULT and PARENT_GUARDIAN members may; a CHILD's request is refused. Asking again for the same offer in this mission returns the same request. It never approves, prepares a cart or buys: after approval the user confirms checkout themselves in the app.",
  args: RequestPurchaseArgs,
  result: RequestPurchaseResult,
  async run({ offerId, size }, ctx) {
    const offer = await readOffer(ctx, offerId);
    if (offer?.status !== 'ACTIVE')
      return {
        offerId,
        outcome: 'UNAVAILABLE' as const,
        requestId: null,
        status: null,
        title: offer?.title ?? null,
        message: `That offer is no longer available, so I did not raise a request.`,
      };
    const created = await createPurchaseRequest(
      ctx,
      {
        title: offer.title,
        url: offer.url,
        price: offer.price,
        currency: offer.currency,
        offerId,
        quantity: 1,
        ...(size ? { size } : {}),
        note: `Suggested by the stylist (mission ${ctx.missionId})`,
      },
      // One request per mission, offer and size, however often the user asks.
      `stylist:${ctx.missionId}:${offerId}:${size ?? ''}`,
    );
    return {
      offerId,
      outcome: 'REQUESTED' as const,
      requestId: created.requestId,
      status: created.status,
      title: offer.title,
      message: `Purchase request ${created.requestId} for the ${offer.title} ${STANDING[created.status]}.`,
    };
  },
};
