export { createOfferRepository, OFFER_COLLECTIONS } from './adapters/offer-repository.ts';
export { buildApp } from './app.ts';
export { loadCommerceConfig } from './config.ts';
export { planOfferSearch } from './domain/offer-search-plan.ts';
export { draftOffer } from './domain/offers.ts';
