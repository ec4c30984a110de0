import { type CreateOfferRequest, checkMerchantUrl, type Offer, roundToCurrency } from '@hs/contracts';
import type { z } from 'zod';
import { type SearchKeys, searchKeys } from './search-keys.ts';

export type StoredOffer = Offer & SearchKeys;
type ParsedCreate = z.output<typeof CreateOfferRequest>;

export type OfferDraft = { ok: true; offer: StoredOffer } | { ok: false; reason: string };

/** Checks the URL policy and builds the stored offer; `allowedDomains` null means no allowlist. */
export function draftOffer(
  input: ParsedCreate,
  ids: { offerId: string; householdId: string; now: string },
  allowedDomains: readonly string[] | null,
): OfferDraft {
  const checked = checkMerchantUrl(input.url, { allowedDomains });
  if (!checked.ok) return { ok: false, reason: checked.reason };
  const offer: Offer = {
    offerId: ids.offerId,
    householdId: ids.householdId,
    title: input.title,
    brand: input.brand,
    url: checked.url,
    merchantDomain: checked.domain,
    // The schema let only binary noise past the currency's decimals (19.990000000000002).
    price: roundToCurrency(input.price, input.currency),
    currency: input.currency,
    category: input.category,
    colors: input.colors,
    season: [...new Set(input.season)],
    sizes: input.sizes,
    imageUrl: input.imageUrl,
    status: input.status,
    createdAt: ids.now,
    updatedAt: ids.now,
  };
  return { ok: true, offer: { ...offer, ...searchKeys(offer) } };
}
