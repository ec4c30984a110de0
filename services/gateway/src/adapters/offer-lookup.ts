// Asks commerce whether an offer is the household's (GET .../offers/{offerId}, as the member
// who names it), so a purchase request never points at another household's offer or at none.
import { Offer } from '@hs/contracts';
import { type Caller, isAppError, type PeerClient } from '@hs/service-kit';

const OfferRef = Offer.pick({ offerId: true, householdId: true });

export async function householdHasOffer(
  commerce: PeerClient,
  householdId: string,
  offerId: string,
  caller: Caller,
  requestId: string,
): Promise<boolean> {
  // Offer ids are plain (`off_` and letters, digits, `_`, `-`): anything else names none, and
  // `.` or `..` would name another path of commerce's.
  if (!/^[\w-]{1,128}$/.test(offerId)) return false;
  try {
    const read = await commerce.call({
      method: 'GET',
      path: `/api/v1/households/${encodeURIComponent(householdId)}/offers/${encodeURIComponent(offerId)}`,
      schema: OfferRef,
      caller,
      requestId,
    });
    return read.body.householdId === householdId;
  } catch (err) {
    // Another household's offer is a 404 there too; commerce down is the caller's 502/504.
    if (isAppError(err) && (err.status === 404 || err.status === 422)) return false;
    throw err;
  }
}
