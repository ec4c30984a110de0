import type { OfferRepository } from '../adapters/offer-repository.ts';

export interface CommerceContext {
  offers: OfferRepository;
  /** Null when COMMERCE_ENFORCE_DOMAIN_ALLOWLIST is off. */
  allowedDomains: readonly string[] | null;
}
